// Email: the composer's draft (a segment, from, subject, text and HTML bodies), the core's preview
// of it (who gets a message, who is skipped and why, each recipient's rendered message, stepped
// through one at a time), the confirmation of the stated count and the one send it makes, the
// account's sends and one send's results kept live by the `email:progress` pushes.
//
// The rules (the address column, `{{variable}}`, batches) are the core's: this store asks it
// (email:preview) a moment after the draft settles and shows what it answers.
import { createStore } from 'zustand/vanilla';
import type { Api, SegmentSummary } from '../api';
import type {
  EmailConfig,
  EmailDraft,
  EmailPreview,
  EmailRecipient,
  EmailSend,
} from '../../../shared/ipc/contracts/email';
import type { OutputOf } from '../../../shared/ipc';
import { EMAIL_RECIPIENT_FINAL, type EmailRecipientStatus } from '../../../shared/email';
import { errorMessage, refusalText, reported } from './errors';
import { latestAnswer } from './latest-answer';
import { IpcCallError } from '../../../shared/ipc';

/** How long after the last change of the draft the core is asked for its preview. */
export const PREVIEW_AFTER_MS = 300;
/** A send still going is read again this often, in case a push was missed. */
export const SEND_POLL_MS = 3000;
/** The results' rows are read again at most this often while pushes come. */
export const ROWS_REFRESH_MS = 500;

export interface DraftFields {
  segmentId: number | null;
  fromEmail: string;
  fromName: string;
  /** Optional: '' sends without Reply-To. */
  replyTo: string;
  subject: string;
  text: string;
  html: string;
}

export const EMPTY_DRAFT: DraftFields = {
  segmentId: null,
  fromEmail: '',
  fromName: '',
  replyTo: '',
  subject: '',
  text: '',
  html: '',
};

/** The recipients' statuses as the results' filter groups them. */
export type RecipientGroup = 'all' | 'delivered' | 'failed' | 'waiting';
export const RECIPIENT_GROUPS: readonly RecipientGroup[] = ['all', 'delivered', 'failed', 'waiting'];
export const GROUP_STATUSES: Record<Exclude<RecipientGroup, 'all'>, EmailRecipientStatus[]> = {
  // `sent`: an SMTP server took it, which is all SMTP ever says.
  delivered: ['delivered', 'sent'],
  failed: ['bounced', 'failed', 'suppressed', 'cancelled', 'error'],
  waiting: ['pending', 'queued', 'scheduled', 'processed', 'deferred'],
};

export interface RecipientFilter {
  group: RecipientGroup;
  /** A part of the address. */
  search: string;
}

/** What the user confirms: the count and the very draft it was counted for, under one request id. */
export interface Confirmation {
  requestId: string;
  count: number;
  draft: EmailDraft;
  segmentName: string;
}

export type EmailExport = OutputOf<'email:export'>;

export interface EmailState {
  accountId: number | null;
  config: EmailConfig | null;
  segments: SegmentSummary[];
  fields: DraftFields;
  setFields(patch: Partial<DraftFields>): void;
  /** Loads what the composer needs for an account; keeps the draft when the account stays. */
  load(accountId: number | null): Promise<void>;
  refreshSegments(): Promise<void>;

  /** The core's preview of `previewedDraft`, its samples starting at `previewIndex`. */
  preview: EmailPreview | null;
  previewedDraft: string | null;
  previewIndex: number;
  previewing: boolean;
  /** Why the core refused the draft as it is (said before a send is offered), and its reason. */
  previewError: string | null;
  previewReason: string | null;
  refreshPreview(): Promise<void>;
  schedulePreview(): void;
  /** Shows the recipient at this position among the valid ones (0-based). */
  showRecipient(index: number): Promise<void>;

  confirmation: Confirmation | null;
  sending: boolean;
  sendError: string | null;
  /** Opens the confirmation for the draft as it is now (asks the core first if its preview is older). */
  openConfirmation(): Promise<boolean>;
  closeConfirmation(): void;
  /** Sends what was confirmed, once: a second call while one runs, or after it, sends nothing. */
  confirmSend(): Promise<EmailSend | null>;

  sends: EmailSend[];
  sendsLoaded: boolean;
  loadSends(): Promise<void>;

  /** The send whose results are open. */
  currentId: number | null;
  current: EmailSend | null;
  missing: boolean;
  /** Moves when the open send's results changed: the rows in view are read again. */
  version: number;
  filter: RecipientFilter;
  /** How many recipients match the filter (null before the first page answers). */
  recipientsTotal: number | null;
  cancelling: boolean;
  openSend(sendId: number): Promise<void>;
  closeSend(): void;
  setFilter(patch: Partial<RecipientFilter>): void;
  recipients(offset: number, limit: number): Promise<EmailRecipient[] | null>;
  cancelSend(): Promise<void>;
  exportResults(format: 'csv' | 'xlsx', language: 'fa' | 'en', timeZone: string): Promise<EmailExport | null>;
  /** An `email:progress` push. */
  follow(send: EmailSend): void;

  error: string | null;
}

/** The draft as the core takes it, or null without an account and a segment. */
export function draftOf(s: Pick<EmailState, 'accountId' | 'fields'>): EmailDraft | null {
  const f = s.fields;
  if (s.accountId === null || f.segmentId === null) return null;
  const name = f.fromName.trim();
  return {
    account_id: s.accountId,
    segment_id: f.segmentId,
    from: { email: f.fromEmail.trim(), ...(name ? { name } : {}) },
    ...(f.replyTo.trim() ? { reply_to: { email: f.replyTo.trim() } } : {}),
    subject: f.subject,
    ...(f.text.trim() ? { text: f.text } : {}),
    ...(f.html.trim() ? { html: f.html } : {}),
  };
}

const reasonOf = (error: unknown): string | null => (error instanceof IpcCallError ? (error.reason ?? null) : null);

const keyOf = (draft: EmailDraft | null): string | null => (draft === null ? null : JSON.stringify(draft));

// Selectors run on every change of the store: the draft's key is made once per change of the draft
// (a body can be long), not once per selector call.
let memo: { fields: DraftFields; accountId: number | null; key: string | null } | null = null;
function currentKey(s: Pick<EmailState, 'accountId' | 'fields'>): string | null {
  if (memo === null || memo.fields !== s.fields || memo.accountId !== s.accountId)
    memo = { fields: s.fields, accountId: s.accountId, key: keyOf(draftOf(s)) };
  return memo.key;
}

/** A confirmation's name: random enough that two windows never share one. */
export function newRequestId(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

const RANK: Record<EmailRecipientStatus, number> = {
  pending: 0,
  queued: 1,
  scheduled: 1,
  processed: 2,
  deferred: 2,
  delivered: 3,
  bounced: 3,
  failed: 3,
  suppressed: 3,
  cancelled: 3,
  sent: 3,
  error: 3,
};
const FINAL = new Set<EmailRecipientStatus>(EMAIL_RECIPIENT_FINAL);

/** How far a send has gone: recipients only move forward, and a send that ended stays ended. */
function progressOf(send: EmailSend): number {
  let sum = 0;
  for (const [status, n] of Object.entries(send.counts)) sum += RANK[status as EmailRecipientStatus] * (n ?? 0);
  return (send.state === 'sending' ? 0 : 1) * Number.MAX_SAFE_INTEGER * 0.5 + sum;
}

/**
 * Of two copies of one send (a push and a read that crossed it), the one further along: a push
 * that left before a read answered must not take the counts back.
 */
export function newerSend(known: EmailSend | null, incoming: EmailSend): EmailSend {
  if (known === null || known.id !== incoming.id) return incoming;
  return progressOf(incoming) >= progressOf(known) ? incoming : known;
}

/** Recipients with a final status, of a send's counts. */
export function finishedOf(send: Pick<EmailSend, 'counts'>): number {
  let n = 0;
  for (const [status, count] of Object.entries(send.counts))
    if (FINAL.has(status as EmailRecipientStatus)) n += count ?? 0;
  return n;
}

function upsert(sends: readonly EmailSend[], send: EmailSend): EmailSend[] {
  const at = sends.findIndex((s) => s.id === send.id);
  if (at < 0) return [send, ...sends].sort((a, b) => b.created_at - a.created_at || b.id - a.id);
  const merged = newerSend(sends[at]!, send);
  if (merged === sends[at]) return sends as EmailSend[];
  const next = [...sends];
  next[at] = merged;
  return next;
}

export function statusesOf(group: RecipientGroup): EmailRecipientStatus[] | undefined {
  return group === 'all' ? undefined : GROUP_STATUSES[group];
}

export function createEmailStore(api: Api) {
  let pollTimer: ReturnType<typeof setInterval> | null = null;
  let versionTimer: ReturnType<typeof setTimeout> | null = null;
  // The confirmation a send is under way for: a second submit of it sends nothing.
  let inFlight: string | null = null;

  const store = createStore<EmailState>()((set, get) => {
    const previews = latestAnswer(() => get().refreshPreview(), PREVIEW_AFTER_MS);
    const stopPolling = () => {
      if (pollTimer !== null) clearInterval(pollTimer);
      pollTimer = null;
    };
    // Many pushes a second during a big send: the rows in view are read again at most once per gap.
    const bumpVersion = () => {
      if (versionTimer !== null) return;
      versionTimer = setTimeout(() => {
        versionTimer = null;
        set({ version: get().version + 1 });
      }, ROWS_REFRESH_MS);
    };
    const setCurrent = (incoming: EmailSend) => {
      const known = get().current;
      const current = newerSend(known, incoming);
      if (current === known) return;
      set({ current, sends: upsert(get().sends, current) });
      if (known !== null) bumpVersion();
      if (current.state !== 'sending') stopPolling();
    };
    return {
      accountId: null,
      config: null,
      segments: [],
      fields: EMPTY_DRAFT,
      setFields(patch) {
        set({ fields: { ...get().fields, ...patch } });
      },
      async load(accountId) {
        const changed = accountId !== get().accountId;
        if (changed) {
          // The other account's preview answers are dropped.
          previews.supersede();
          get().closeSend();
          set({
            accountId,
            segments: [],
            sends: [],
            sendsLoaded: false,
            preview: null,
            previewedDraft: null,
            previewIndex: 0,
            previewError: null,
            previewReason: null,
            confirmation: null,
            sendError: null,
            fields: { ...get().fields, segmentId: null },
          });
        }
        if (accountId === null) return;
        try {
          const [config, segments] = await Promise.all([
            api.invoke('email:config'),
            api.invoke('segments:list', { account_id: accountId }),
          ]);
          if (get().accountId !== accountId) return;
          const fields = get().fields;
          // The sender starts as the last one used; what the user typed stays.
          const from =
            fields.fromEmail === '' && config.default_from
              ? { fromEmail: config.default_from.email, fromName: config.default_from.name ?? '' }
              : {};
          const segmentId = segments.some((s) => s.id === fields.segmentId) ? fields.segmentId : null;
          set({ config, segments, fields: { ...fields, ...from, segmentId }, error: null });
        } catch (error) {
          if (get().accountId === accountId) set(reported(error));
        }
      },
      async refreshSegments() {
        const accountId = get().accountId;
        if (accountId === null) return;
        try {
          const segments = await api.invoke('segments:list', { account_id: accountId });
          if (get().accountId !== accountId) return;
          const segmentId = segments.some((s) => s.id === get().fields.segmentId) ? get().fields.segmentId : null;
          set({ segments, fields: { ...get().fields, segmentId } });
        } catch (error) {
          if (get().accountId === accountId) set(reported(error));
        }
      },

      preview: null,
      previewedDraft: null,
      previewIndex: 0,
      previewing: false,
      previewError: null,
      previewReason: null,
      async refreshPreview() {
        const latest = previews.ask();
        const draft = draftOf(get());
        if (draft === null)
          return set({
            preview: null,
            previewedDraft: null,
            previewError: null,
            previewReason: null,
            previewing: false,
          });
        const key = keyOf(draft);
        // Another draft starts at its first recipient.
        const index = key === get().previewedDraft ? get().previewIndex : 0;
        set({ previewing: true });
        try {
          const preview = await api.invoke('email:preview', { ...draft, offset: index, limit: 1 });
          if (!latest()) return;
          // The counts show at once; what the send would refuse is said in place of the sample.
          const problem = preview.problems[0] ?? null;
          set({
            preview,
            previewedDraft: key,
            previewIndex: index,
            previewError: problem === null ? null : (refusalText({ code: 400, reason: problem }) ?? problem),
            previewReason: problem,
            previewing: false,
          });
        } catch (error) {
          if (!latest()) return;
          // Nothing can be confirmed without the core's figures: the reason is said instead.
          set({
            preview: null,
            previewedDraft: key,
            previewError: errorMessage(error),
            previewReason: reasonOf(error),
            previewing: false,
          });
        }
      },
      schedulePreview: previews.schedule,
      async showRecipient(index) {
        const { preview } = get();
        const draft = draftOf(get());
        if (!preview || draft === null) return;
        const last = Math.max(0, preview.valid - 1);
        const wanted = Math.min(Math.max(0, index), last);
        // Another recipient of the same draft: the draft's scheduled preview still goes.
        const latest = previews.supersede();
        set({ previewing: true });
        try {
          const next = await api.invoke('email:preview', { ...draft, offset: wanted, limit: 1 });
          if (!latest()) return;
          set({ preview: next, previewedDraft: keyOf(draft), previewIndex: wanted, previewing: false });
        } catch (error) {
          if (latest()) set({ previewError: errorMessage(error), previewReason: reasonOf(error), previewing: false });
        }
      },

      confirmation: null,
      sending: false,
      sendError: null,
      async openConfirmation() {
        if (get().sending) return false;
        let draft = draftOf(get());
        if (draft === null) return false;
        // The count confirmed must be the draft's as it is now.
        if (get().previewedDraft !== keyOf(draft) || get().preview === null) await get().refreshPreview();
        draft = draftOf(get());
        const { preview, previewedDraft } = get();
        if (
          draft === null ||
          preview === null ||
          previewedDraft !== keyOf(draft) ||
          preview.valid === 0 ||
          preview.problems.length > 0
        )
          return false;
        const segmentName = get().segments.find((s) => s.id === draft!.segment_id)?.name ?? '';
        set({ confirmation: { requestId: newRequestId(), count: preview.valid, draft, segmentName }, sendError: null });
        return true;
      },
      closeConfirmation() {
        if (get().sending) return;
        set({ confirmation: null, sendError: null });
      },
      async confirmSend() {
        const confirmation = get().confirmation;
        if (confirmation === null || inFlight !== null) return null;
        inFlight = confirmation.requestId;
        set({ sending: true, sendError: null });
        try {
          const send = await api.invoke('email:send', {
            ...confirmation.draft,
            expected_count: confirmation.count,
            request_id: confirmation.requestId,
          });
          // The draft that went out is not left to go again: its segment and message are cleared
          // (the sender stays); what was typed meanwhile is kept.
          const fields = get().fields;
          const unchanged = keyOf(draftOf(get())) === keyOf(confirmation.draft);
          set({
            sending: false,
            confirmation: null,
            sends: upsert(get().sends, send),
            fields: unchanged ? { ...fields, segmentId: null, subject: '', text: '', html: '' } : fields,
            ...(unchanged ? { preview: null, previewedDraft: null, previewIndex: 0 } : {}),
          });
          return send;
        } catch (error) {
          // The dialog stays with the reason; trying again uses the same request id, so a send
          // the core took before the answer was lost is answered, not made twice.
          set({ sending: false, sendError: errorMessage(error) });
          return null;
        } finally {
          inFlight = null;
        }
      },

      sends: [],
      sendsLoaded: false,
      async loadSends() {
        const accountId = get().accountId;
        if (accountId === null) return;
        try {
          const sends = await api.invoke('email:sends', { account_id: accountId });
          if (get().accountId !== accountId) return;
          // Pushes that came while the list was read are kept.
          let merged = sends;
          for (const known of get().sends) merged = upsert(merged, known);
          set({ sends: merged, sendsLoaded: true });
        } catch (error) {
          if (get().accountId === accountId) set({ sendsLoaded: true, ...reported(error) });
        }
      },

      currentId: null,
      current: null,
      missing: false,
      version: 0,
      filter: { group: 'all', search: '' },
      recipientsTotal: null,
      cancelling: false,
      async openSend(sendId) {
        const accountId = get().accountId;
        if (accountId === null) return;
        stopPolling();
        const known = get().sends.find((s) => s.id === sendId) ?? null;
        set({
          currentId: sendId,
          current: known,
          missing: false,
          filter: { group: 'all', search: '' },
          recipientsTotal: null,
        });
        const read = async () => {
          try {
            const send = await api.invoke('email:get', { account_id: accountId, send_id: sendId });
            if (get().currentId !== sendId || get().accountId !== accountId) return;
            setCurrent(send);
          } catch (error) {
            if (get().currentId !== sendId) return;
            if (get().current === null) set({ missing: true });
            set(reported(error));
            stopPolling();
          }
        };
        await read();
        if (get().currentId === sendId && get().current?.state === 'sending')
          pollTimer = setInterval(() => void read(), SEND_POLL_MS);
      },
      closeSend() {
        stopPolling();
        set({ currentId: null, current: null, missing: false, recipientsTotal: null });
      },
      setFilter(patch) {
        set({ filter: { ...get().filter, ...patch }, recipientsTotal: null });
      },
      async recipients(offset, limit) {
        const { accountId, currentId, filter } = get();
        if (accountId === null || currentId === null) return null;
        const statuses = statusesOf(filter.group);
        const search = filter.search.trim();
        try {
          const page = await api.invoke('email:recipients', {
            account_id: accountId,
            send_id: currentId,
            ...(statuses ? { statuses } : {}),
            ...(search ? { search } : {}),
            offset,
            limit,
          });
          if (get().currentId !== currentId || get().filter !== filter) return null;
          set({ recipientsTotal: page.total });
          return page.rows;
        } catch (error) {
          if (get().currentId === currentId) set(reported(error));
          return null;
        }
      },
      async cancelSend() {
        const { accountId, currentId } = get();
        if (accountId === null || currentId === null || get().cancelling) return;
        set({ cancelling: true });
        try {
          const send = await api.invoke('email:cancel', { account_id: accountId, send_id: currentId });
          if (get().currentId === currentId) setCurrent(send);
        } catch (error) {
          set(reported(error));
        } finally {
          set({ cancelling: false });
        }
      },
      async exportResults(format, language, timeZone) {
        const { accountId, currentId, filter } = get();
        if (accountId === null || currentId === null) return null;
        const statuses = statusesOf(filter.group);
        try {
          return await api.invoke('email:export', {
            account_id: accountId,
            send_id: currentId,
            format,
            language,
            time_zone: timeZone,
            ...(statuses ? { statuses } : {}),
          });
        } catch (error) {
          set(reported(error));
          return null;
        }
      },
      follow(send) {
        if (send.account_id !== get().accountId) return;
        if (send.id === get().currentId) setCurrent(send);
        else set({ sends: upsert(get().sends, send) });
      },

      error: null,
    };
  });
  // Whatever changed the draft (typing, a segment picked, an account loaded), the core is asked
  // again once it settles.
  let lastKey: string | null = null;
  store.subscribe((state) => {
    const key = currentKey(state);
    if (key === lastKey) return;
    lastKey = key;
    state.schedulePreview();
  });
  return store;
}
export type EmailStore = ReturnType<typeof createEmailStore>;

export const emailSelectors = {
  /** The core's preview when it answers the draft as it is now, else null (the draft changed since). */
  currentPreview: (s: EmailState): EmailPreview | null =>
    s.previewedDraft !== null && s.previewedDraft === currentKey(s) ? s.preview : null,
  currentPreviewError: (s: EmailState): string | null =>
    s.previewedDraft !== null && s.previewedDraft === currentKey(s) ? s.previewError : null,
  /** The segment has no EMAIL column (the core's refusal of the draft as it is now). */
  noEmailColumn: (s: EmailState): boolean =>
    s.previewedDraft !== null && s.previewedDraft === currentKey(s) && s.previewReason === 'email_column_missing',
  segment: (s: EmailState): SegmentSummary | undefined => s.segments.find((x) => x.id === s.fields.segmentId),
};

/** Follows the pushed progress of sends; returns the unsubscribe function. */
export function followEmail(api: Api, store: EmailStore): () => void {
  return api.on('email:progress', (send) => store.getState().follow(send));
}
