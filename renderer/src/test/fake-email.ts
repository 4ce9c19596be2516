// Fakes of the email channels for store tests, over the shared rules the core uses (the address
// rule, who of a segment gets an email and what the template's variables read, `{{ variable }}`):
// the connection settings with secrets kept apart (a read answers only
// whether one is set), a segment's preview, sends and their recipients in memory. `secrets` and
// `sends` are the fake's own state, for tests to look at or change (settle() moves a send on and
// answers it, for the test to push as email:progress).
import type { FakeHandlers, InputOf } from '../../../shared/ipc';
import type { EmailConfig, EmailPreview, EmailRecipient, EmailSend } from '../../../shared/ipc/contracts/email';
import {
  EMAIL_RECIPIENT_FINAL,
  EMAIL_RECIPIENT_STATUSES,
  emailDraftProblems,
  isProviderUrl,
  normalizeEmail,
  providerKeyStays,
  smtpPasswordStays,
  type EmailRecipientStatus,
} from '../../../shared/email';
import { renderEmailTemplate } from '../../../shared/email-template';
import { classifyMembers, emailColumn, mapVariables, toRecipient } from '../../../shared/email-recipients';
import { ApiCode, apiCodeMessage } from '../../../shared/status';

/** A segment as the email channels read it: its columns and members, in order. */
export interface FakeEmailSegment {
  account_id?: number;
  name: string;
  columns: string[];
  rows: Array<Record<string, string>>;
}

/** The configuration as the core starts: the embedded sandbox, nothing set. */
export const emailConfig = (overrides: Partial<EmailConfig> = {}): EmailConfig => ({
  transport: 'sandbox',
  provider: { url: '', account_id: '', key_set: false },
  smtp: { host: '', port: 587, secure: false, user: '', password_set: false },
  default_from: null,
  secret_storage: 'file',
  ...overrides,
});

const zeroCounts = (): EmailSend['counts'] =>
  Object.fromEntries(EMAIL_RECIPIENT_STATUSES.map((status) => [status, 0])) as EmailSend['counts'];

/** A send as email:get answers it. */
export const emailSend = (overrides: Partial<EmailSend> = {}): EmailSend => ({
  id: 1,
  account_id: 1,
  segment_id: 1,
  segment_name: 'customers',
  from: { email: 'shop@example.com', name: 'Shop' },
  reply_to: null,
  subject: 'Hello',
  text: 'Hello {{ NAME }}',
  html: null,
  transport: 'sandbox',
  state: 'sending',
  error: null,
  total: 0,
  counts: zeroCounts(),
  created_at: 1_700_000_000_000,
  finished_at: null,
  ...overrides,
});

const refusal = (code: number, reason: string, detail?: string) => ({
  code,
  message: apiCodeMessage[code as ApiCode],
  reason,
  ...(detail === undefined ? {} : { detail }),
});

export interface FakeEmailOptions {
  config?: Partial<EmailConfig>;
  segments?: Record<number, FakeEmailSegment>;
  /** What email:testConnection answers (default: ok). */
  connection?: { ok: boolean; error: string | null };
}

export function fakeEmail(options: FakeEmailOptions = {}) {
  let config = emailConfig(options.config);
  const secrets: { key: string | null; password: string | null } = {
    key: config.provider.key_set ? 'stored-key' : null,
    password: config.smtp.password_set ? 'stored-password' : null,
  };
  const segments = options.segments ?? {};
  const sends: Array<EmailSend & { recipients: EmailRecipient[]; request_id?: string }> = [];
  const state = {
    connection: options.connection ?? { ok: true, error: null },
    secrets,
    sends,
    get config() {
      return config;
    },
  };

  const segmentOf = (accountId: number, segmentId: number) => {
    const segment = segments[segmentId];
    if (!segment || (segment.account_id ?? 1) !== accountId)
      throw refusal(ApiCode.NotFound, 'segment_not_found', `segment ${segmentId}`);
    return segment;
  };
  const sendOf = (accountId: number, sendId: number) => {
    const send = sends.find((s) => s.id === sendId && s.account_id === accountId);
    if (!send) throw refusal(ApiCode.NotFound, 'email_send_not_found', `send ${sendId}`);
    return send;
  };
  const answer = ({ recipients: _, request_id: __, ...send }: (typeof sends)[number]): EmailSend => ({
    ...send,
    counts: { ...send.counts },
  });
  const recount = (send: (typeof sends)[number]) => {
    const counts = zeroCounts();
    for (const r of send.recipients) counts[r.status] = (counts[r.status] ?? 0) + 1;
    send.counts = counts;
  };

  /** Who of a segment gets an email (the first of each address), and who not and why: the core's rule. */
  const classify = (segment: FakeEmailSegment) => {
    const column = emailColumn(segment.columns);
    if (column === null) return { column, valid: [], skipped: [] };
    const { members, skipped } = classifyMembers(
      segment.rows.map((values) => values.PHONE ?? values.phone ?? ''),
      (i) => segment.columns.map((name) => segment.rows[i]![name] ?? ''),
      segment.columns,
    );
    return { column, valid: members, skipped };
  };

  // The core's refusals of a draft, in its order (shared/email.ts).
  const problemsOf = (draft: InputOf<'email:preview'>): string[] =>
    emailDraftProblems(draft).map((problem) => problem.reason);
  const checkDraft = (draft: InputOf<'email:preview'>) => {
    const [problem] = problemsOf(draft);
    if (problem) throw refusal(ApiCode.BadRequest, problem);
  };
  // The preview reads a half-written draft too; only the send refuses what is missing.
  const readSegment = (draft: InputOf<'email:preview'>, { check }: { check: boolean }) => {
    if (check) checkDraft(draft);
    const segment = segmentOf(draft.account_id, draft.segment_id);
    const classified = classify(segment);
    if (classified.column === null) throw refusal(ApiCode.BadRequest, 'email_column_missing');
    return { segment, ...classified };
  };

  const handlers: FakeHandlers = {
    'email:config': () => config,
    'email:configure': (input) => {
      const url = input.provider?.url.trim() ?? config.provider.url;
      if ((url !== '' || input.transport === 'provider') && !isProviderUrl(url))
        throw refusal(ApiCode.BadRequest, 'email_provider_url_invalid');
      if (input.transport === 'provider' && !(input.provider?.account_id.trim() ?? config.provider.account_id))
        throw refusal(ApiCode.BadRequest, 'email_provider_account_missing');
      if (input.transport === 'smtp' && !(input.smtp?.host.trim() ?? config.smtp.host))
        throw refusal(ApiCode.BadRequest, 'email_smtp_host_missing');
      if (input.default_from && normalizeEmail(input.default_from.email) === null)
        throw refusal(ApiCode.BadRequest, 'email_from_invalid');
      // As the core: a secret goes only to the server it was given for (moved without a new one: forgotten).
      if (input.provider && !providerKeyStays(config.provider.url, input.provider.url)) secrets.key = null;
      if (input.smtp && !smtpPasswordStays(config.smtp, input.smtp)) secrets.password = null;
      if (input.provider?.key !== undefined) secrets.key = input.provider.key === '' ? null : input.provider.key;
      if (input.smtp?.password !== undefined)
        secrets.password = input.smtp.password === '' ? null : input.smtp.password;
      config = {
        ...config,
        transport: input.transport,
        provider: input.provider
          ? { url: input.provider.url, account_id: input.provider.account_id, key_set: secrets.key !== null }
          : { ...config.provider, key_set: secrets.key !== null },
        smtp: input.smtp
          ? {
              host: input.smtp.host,
              port: input.smtp.port,
              secure: input.smtp.secure,
              user: input.smtp.user,
              password_set: secrets.password !== null,
            }
          : { ...config.smtp, password_set: secrets.password !== null },
        default_from: input.default_from === undefined ? config.default_from : input.default_from,
      };
      return config;
    },
    'email:testConnection': () => state.connection,
    'email:preview': (input): EmailPreview => {
      const { segment, column, valid, skipped } = readSegment(input, { check: false });
      const variables = mapVariables(input, segment.columns);
      const offset = input.offset ?? 0;
      return {
        total: segment.rows.length,
        valid: valid.length,
        skipped_count: skipped.length,
        skipped: skipped.slice(0, 100),
        columns: segment.columns,
        email_column: column,
        problems: problemsOf(input),
        unknown_variables: variables.unknown,
        samples: valid.slice(offset, offset + (input.limit ?? 1)).map((member) => {
          // The substitutions the send gives the provider, rendered by the provider's rule (as the core).
          const recipient = { recipient: toRecipient(member, variables).substitutions };
          return {
            row: member.row,
            email: member.email,
            name: member.name,
            subject: renderEmailTemplate(input.subject, recipient),
            text: input.text ? renderEmailTemplate(input.text, recipient) : null,
            html: input.html ? renderEmailTemplate(input.html, recipient, { html: true }) : null,
          };
        }),
      };
    },
    'email:send': ({ expected_count, request_id, ...draft }) => {
      const again = sends.find((s) => s.request_id === request_id);
      if (again) return answer(again);
      const { segment, valid } = readSegment(draft, { check: true });
      if (valid.length === 0) throw refusal(ApiCode.InvalidReceiver, 'email_no_recipients');
      if (valid.length !== expected_count) throw refusal(ApiCode.BadRequest, 'email_count_changed');
      if (config.transport === 'provider' && secrets.key === null)
        throw refusal(ApiCode.BadRequest, 'email_provider_key_missing');
      const created = Date.now();
      const send = {
        ...emailSend({
          id: sends.length + 1,
          account_id: draft.account_id,
          segment_id: draft.segment_id,
          segment_name: segment.name,
          from: draft.from,
          reply_to: draft.reply_to ?? null,
          subject: draft.subject,
          text: draft.text ?? null,
          html: draft.html ?? null,
          transport: config.transport,
          total: valid.length,
          created_at: created,
        }),
        request_id,
        recipients: valid.map(({ row, email, name }) => ({
          row,
          email,
          name,
          status: 'pending' as EmailRecipientStatus,
          message_id: null,
          error: null,
          updated_at: created,
        })),
      };
      recount(send);
      sends.push(send);
      return answer(send);
    },
    'email:sends': ({ account_id }) =>
      sends
        .filter((s) => s.account_id === account_id)
        .reverse()
        .map(answer),
    'email:get': ({ account_id, send_id }) => answer(sendOf(account_id, send_id)),
    'email:recipients': ({ account_id, send_id, statuses, search, offset = 0, limit = 100 }) => {
      const matching = sendOf(account_id, send_id).recipients.filter(
        (r) =>
          (!statuses?.length || statuses.includes(r.status)) &&
          (!search || r.email.toLowerCase().includes(search.trim().toLowerCase())),
      );
      return { rows: matching.slice(offset, offset + limit), total: matching.length };
    },
    'email:cancel': ({ account_id, send_id }) => {
      const send = sendOf(account_id, send_id);
      if (send.state === 'sending') {
        for (const r of send.recipients)
          if (r.status === 'pending' || r.status === 'queued' || r.status === 'scheduled') r.status = 'cancelled';
        recount(send);
        send.state = 'cancelled';
        send.finished_at = Date.now();
      }
      return answer(send);
    },
    'email:export': ({ account_id, send_id, format, export_id, statuses }) => {
      const send = sendOf(account_id, send_id);
      const rows = send.recipients.filter((r) => !statuses?.length || statuses.includes(r.status)).length;
      const file_name = `email-${send_id}.${format}`;
      return { export_id: export_id ?? 'x', format, rows, path: null, url: `/bridge/exports/${file_name}`, file_name };
    },
  };

  /**
   * Moves a send's recipients (those of `rows`, else all not final) to `status`; the send is done
   * once every recipient is final. Answers the send, for the test to push as email:progress.
   */
  const settle = (sendId: number, status: EmailRecipientStatus = 'delivered', rows?: number[]): EmailSend => {
    const send = sends.find((s) => s.id === sendId);
    if (!send) throw new Error(`no fake email send ${sendId}`);
    for (const r of send.recipients)
      if (rows ? rows.includes(r.row) : !EMAIL_RECIPIENT_FINAL.includes(r.status)) {
        r.status = status;
        r.updated_at = Date.now();
      }
    recount(send);
    if (send.state === 'sending' && send.recipients.every((r) => EMAIL_RECIPIENT_FINAL.includes(r.status))) {
      send.state = 'done';
      send.finished_at = Date.now();
    }
    return answer(send);
  };

  return { handlers, state, settle };
}
