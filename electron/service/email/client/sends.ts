// The app's email sends (core.email): a draft previewed against a segment, then sent once per
// confirmation to the segment's valid addresses through the configured transport (the embedded
// sandbox by default, a provider's API of spec 4.6, or SMTP), with results per recipient, live
// progress, cancel and export. The rules live here and in the modules beside: config.ts (settings
// and secrets), draft.ts / recipients.ts (what may be sent, to whom, with which values), jobs.ts
// (batches, retries, polling), export.ts.
import { randomUUID } from 'node:crypto';
import { HttpStatus, isSuccess } from '../http-status';
import type { Db } from '../../db/database';
import type { Clock } from '../../clock';
import type { Jobs } from '../../jobs/jobs';
import type { Segments } from '../../contacts';
import type { Settings } from '../../settings/settings';
import type { SecretStore } from '../../secrets';
import type { EmailRelay } from '../relay/relay';
import { ServiceError } from '../../errors';
import { ApiCode } from '../../../../shared/status';
import { renderEmailTemplate } from '../../../../shared/email-template';
import type { EmailRecipientStatus } from '../../../../shared/email';
import type {
  EmailConfig,
  EmailConfigInput,
  EmailDraft,
  EmailPreview,
  EmailRecipient,
  EmailSend,
} from '../../../../shared/ipc/contracts/email';
import { escapeLike } from '../../db/text-match';
import { EmailConfigStore } from './config';
import { prepareDraft, templateProblems, type ClassifyMembers } from './draft';
import { classifyMembers, toRecipient as recipientOf, type ClassifiedMembers } from './recipients';
import { EmailStore, toRecipient, type RecipientRow, type SendRow } from './store';
import { EmailJobs } from './jobs';
import { ProgressThrottle } from './progress';
import { exportRecipients } from './export';
import { providerConnection } from './transports/provider';
import { smtpConnection } from './transports/smtp';
import { answerMessage, NetworkError } from './transports/relay-api';

export interface EmailSendsOptions {
  db: Db;
  clock: Clock;
  jobs: Jobs;
  segments: Segments;
  settings: Settings;
  secrets: SecretStore;
  /** The embedded provider: the `sandbox` transport calls it in process. */
  relay: EmailRelay;
  /** Aborted when the workspace closes: a results export stops and its partial file goes. */
  closing?: AbortSignal;
  /** A send's counts or state changed. */
  onProgress: (send: EmailSend) => void;
}

/** Skipped rows the preview lists (the count says how many in all). */
const MAX_SKIPPED = 100;
const DEFAULT_SAMPLES = 5;
/** Segments whose sorted members the preview keeps. */
const MAX_CLASSIFIED_KEPT = 3;
const TEST_TIMEOUT_MS = 15_000;

export class EmailSends {
  private readonly db: Db;
  private readonly store: EmailStore;
  private readonly settingsStore: EmailConfigStore;
  private readonly progress: ProgressThrottle;
  private readonly emailJobs: EmailJobs;

  constructor(readonly options: EmailSendsOptions) {
    this.db = options.db;
    this.store = new EmailStore(options.db);
    this.settingsStore = new EmailConfigStore(options.settings, options.secrets);
    this.progress = new ProgressThrottle((id) => {
      const row = this.store.send(id);
      return row ? this.store.toEmailSend(row) : null;
    }, options.onProgress);
    this.emailJobs = new EmailJobs({
      db: options.db,
      clock: options.clock,
      jobs: options.jobs,
      store: this.store,
      config: this.settingsStore,
      relay: options.relay,
      progress: this.progress,
    });
  }

  config(): EmailConfig {
    return this.settingsStore.config();
  }

  configure(input: EmailConfigInput): EmailConfig {
    return this.settingsStore.configure(input);
  }

  /** Tries the configured connection without sending: the provider's list, the SMTP server's greeting and login. */
  async testConnection(): Promise<{ ok: boolean; error: string | null }> {
    const settings = this.settingsStore.transportSettings();
    try {
      if (settings.transport === 'provider') {
        if (settings.provider.url === '' || settings.provider.accountId === '')
          return { ok: false, error: 'the provider address and account id are not set' };
        const answer = await providerConnection(settings.provider).list(
          { limit: '1' },
          AbortSignal.timeout(TEST_TIMEOUT_MS),
        );
        if (isSuccess(answer.status)) return { ok: true, error: null };
        if (answer.status === HttpStatus.Unauthorized)
          return { ok: false, error: `the provider does not know this key (${answerMessage(answer)})` };
        if (answer.status === HttpStatus.Forbidden)
          return { ok: false, error: `the key has no access to this account (${answerMessage(answer)})` };
        return { ok: false, error: `the provider answered ${answerMessage(answer)}` };
      }
      if (settings.transport === 'smtp') {
        const smtp = smtpConnection(settings.smtp);
        try {
          await smtp.verify();
        } finally {
          smtp.close();
        }
      }
      return { ok: true, error: null };
    } catch (error) {
      if (error instanceof NetworkError || error instanceof Error) return { ok: false, error: error.message };
      return { ok: false, error: String(error) };
    }
  }

  /**
   * The draft against its segment, as the send would make it. The segment's members are sorted
   * once per version of the segment and kept (a few segments at most): the composer asks again
   * on every pause in typing and every step through the recipients, and sorting 100,000 members
   * holds the event loop about 0.2 s; only the recipients shown are then rendered.
   */
  /** The members sorted now, from the database. */
  private readonly classify: ClassifyMembers = (accountId, segment) =>
    classifyMembers(this.options.segments.phonesWithFields(accountId, segment.id), segment.columns);

  private readonly classified = new Map<number, { version: string; members: ClassifiedMembers }>();

  private readonly classifyCached: ClassifyMembers = (accountId, segment) => {
    const version = `${accountId}:${this.options.segments.version(accountId, segment.id)}`;
    const kept = this.classified.get(segment.id);
    if (kept?.version === version) return kept.members;
    const members = this.classify(accountId, segment);
    // Most recently used last; a few segments at most (a large one holds its column values).
    this.classified.delete(segment.id);
    if (this.classified.size >= MAX_CLASSIFIED_KEPT) this.classified.delete(this.classified.keys().next().value!);
    this.classified.set(segment.id, { version, members });
    return members;
  };

  preview(draft: EmailDraft, page: { offset?: number; limit?: number } = {}): EmailPreview {
    const prepared = prepareDraft(this.options.segments, draft, { check: false, classify: this.classifyCached });
    const { template, classified, variables } = prepared;
    const offset = Math.max(0, Math.trunc(page.offset ?? 0));
    const limit = Math.max(1, Math.min(50, Math.trunc(page.limit ?? DEFAULT_SAMPLES)));
    return {
      total: classified.total,
      valid: classified.members.length,
      skipped_count: classified.skipped.length,
      skipped: classified.skipped.slice(0, MAX_SKIPPED),
      columns: prepared.segment.columns,
      email_column: prepared.emailColumn,
      problems: templateProblems(draft).map((problem) => problem.reason ?? 'bad_request'),
      unknown_variables: prepared.variables.unknown,
      samples: classified.members.slice(offset, offset + limit).map((member) => {
        const recipient = recipientOf(member, variables);
        // The substitutions the send gives the provider, rendered by the provider's rule.
        const values = { recipient: recipient.substitutions };
        return {
          row: recipient.row,
          email: recipient.email,
          name: recipient.name,
          subject: renderEmailTemplate(template.subject, values),
          text: template.text === null ? null : renderEmailTemplate(template.text, values),
          html: template.html === null ? null : renderEmailTemplate(template.html, values, { html: true }),
        };
      }),
    };
  }

  /**
   * Sends the draft to the segment's valid addresses: the send and all its recipients written in
   * one transaction with its first job. The same `request_id` again answers the same send.
   */
  send(input: EmailDraft & { expected_count: number; request_id: string }): EmailSend {
    const existing = this.store.stmt.byRequest.get(input.account_id, input.request_id);
    if (existing) return this.store.toEmailSend(existing);
    // Read afresh: what is written is the segment as it is now, whatever a preview kept.
    const prepared = prepareDraft(this.options.segments, input, { check: true, classify: this.classify });
    const { template, classified, variables } = prepared;
    const list = { recipients: classified.members.map((member) => recipientOf(member, variables)) };
    if (list.recipients.length === 0)
      throw new ServiceError(
        ApiCode.InvalidReceiver,
        `segment ${prepared.segment.id} has no member with a valid email address`,
        'email_no_recipients',
      );
    if (list.recipients.length !== input.expected_count)
      throw new ServiceError(
        ApiCode.BadRequest,
        `the segment now gives ${list.recipients.length} recipients, not the ${input.expected_count} confirmed`,
        'email_count_changed',
      );
    const settings = this.settingsStore.transportSettings();
    if (settings.transport === 'provider' && settings.provider.key === null)
      throw new ServiceError(ApiCode.BadRequest, 'the provider key is not set', 'email_provider_key_missing');
    const now = this.options.clock.now();
    const id = this.db.transaction(() => {
      const sendId = Number(
        this.store.stmt.insertSend.run({
          account_id: input.account_id,
          segment_id: prepared.segment.id,
          segment_name: prepared.segment.name,
          uuid: randomUUID(),
          request_id: input.request_id,
          from_email: template.from.email,
          from_name: template.from.name ?? '',
          reply_to_email: template.replyTo?.email ?? null,
          reply_to_name: template.replyTo?.name ?? null,
          subject: template.subject,
          text: template.text,
          html: template.html,
          transport: settings.transport,
          state: 'sending',
          total: list.recipients.length,
          created_at: now,
          updated_at: now,
        }).lastInsertRowid,
      );
      const insert = this.store.stmt.insertRecipient;
      list.recipients.forEach((recipient, seq) =>
        insert.run(
          sendId,
          seq,
          recipient.row,
          recipient.phone,
          recipient.email,
          recipient.name,
          JSON.stringify(recipient.substitutions),
          now,
        ),
      );
      this.emailJobs.startSend(sendId);
      return sendId;
    })();
    this.settingsStore.rememberFrom(template.from);
    const send = this.store.toEmailSend(this.store.send(id)!);
    this.options.onProgress(send);
    return send;
  }

  /** The account's sends, newest first. */
  list(accountId: number): EmailSend[] {
    return this.store.stmt.sends.all(accountId).map((row) => this.store.toEmailSend(row));
  }

  get(accountId: number, sendId: number): EmailSend {
    return this.store.toEmailSend(this.row(accountId, sendId));
  }

  /** A page of the send's recipients in segment order, filtered by status and a part of the address. */
  recipients(
    accountId: number,
    sendId: number,
    {
      statuses,
      search,
      offset = 0,
      limit = 100,
    }: { statuses?: readonly EmailRecipientStatus[]; search?: string; offset?: number; limit?: number } = {},
  ): { rows: EmailRecipient[]; total: number } {
    this.row(accountId, sendId);
    let where = 'send_id = ?';
    const params: unknown[] = [sendId];
    if (statuses && statuses.length > 0) {
      where += ` AND status IN (${statuses.map(() => '?').join(', ')})`;
      params.push(...statuses);
    }
    const term = search?.trim() ?? '';
    if (term !== '') {
      where += " AND email LIKE ? ESCAPE '\\'";
      params.push(`%${escapeLike(term)}%`);
    }
    const total = this.db
      .prepare<unknown[], number>(`SELECT count(*) FROM email_recipients WHERE ${where}`)
      .pluck()
      .get(...params)!;
    const rows = this.db
      .prepare<unknown[], RecipientRow>(`SELECT * FROM email_recipients WHERE ${where} ORDER BY seq LIMIT ? OFFSET ?`)
      .all(...params, Math.max(1, Math.min(500, Math.trunc(limit))), Math.max(0, Math.trunc(offset)));
    return { rows: rows.map(toRecipient), total };
  }

  /**
   * Stops a send: recipients not handed over end 'cancelled' and are never sent; what the provider
   * still holds queued or scheduled is cancelled there by a job. A send already ended is answered as it is.
   */
  cancel(accountId: number, sendId: number): EmailSend {
    const send = this.row(accountId, sendId);
    if (send.state !== 'sending') return this.store.toEmailSend(send);
    const now = this.options.clock.now();
    this.db.transaction(() => {
      this.store.stmt.endPending.run({ send_id: sendId, status: 'cancelled', error: null, now });
      this.store.stmt.setState.run({ id: sendId, state: 'cancelled', error: null, now });
      this.emailJobs.dropQueued(send);
      this.emailJobs.startCancel(send);
    })();
    const cancelled = this.store.toEmailSend(this.store.send(sendId)!);
    this.options.onProgress(cancelled);
    return cancelled;
  }

  exportResults(
    accountId: number,
    sendId: number,
    request: {
      format: 'csv' | 'xlsx';
      language: 'fa' | 'en';
      timeZone: string;
      file: string;
      statuses?: readonly EmailRecipientStatus[];
    },
    progress: (done: number, total: number) => void,
  ): Promise<{ rows: number }> {
    this.row(accountId, sendId);
    return exportRecipients(this.db, { sendId, ...request, signal: this.options.closing }, progress);
  }

  private row(accountId: number, sendId: number): SendRow {
    const row = this.store.send(sendId);
    if (!row || row.account_id !== accountId)
      throw new ServiceError(ApiCode.NotFound, `email send ${sendId} not found`, 'email_send_not_found');
    return row;
  }
}
