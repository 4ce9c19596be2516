// A typed fake of the API client for store tests: shared/ipc's fake transport under the real
// client, so channel names, inputs and outputs are checked by the compiler as in the app.
import {
  createClient,
  createFakeTransport,
  type FakeHandlers,
  type InputOf,
  type OutputOf,
  type PayloadOf,
} from '../../../shared/ipc';
import type { Account, Api, Backup, ComposePreview, Line, MessageRow, Pricing } from '../api';
import { ApiCode, apiCodeMessage, type Provider } from '../../../shared/status';
import { priceText } from '../../../shared/pricing';
import { classifyReceivers, summarizePasted } from '../../../shared/receivers';
import { splitReceivers } from '../../../shared/phone';
import { composePreviewOf } from '../../../shared/compose';
import { MessageStatus, statusTextIn } from '../../../shared/lifecycle';
import { TEMPLATE_NAME, templateBodyFault } from '../../../shared/verify-templates';
import type { VerifyTemplate } from '../../../shared/ipc/contracts/templates';
import type { InboxItem } from '../../../shared/ipc/contracts/inbox';
import type { RetentionState, WorkspaceSize } from '../../../shared/ipc/contracts/workspace';
import type { LineQueue } from '../../../shared/ipc/contracts/gateways';
import { HANDOVER_STATES } from '../../../shared/gateways';

export { emailConfig, emailSend, fakeEmail, type FakeEmailOptions, type FakeEmailSegment } from './fake-email';

export function fakeApi(handlers: FakeHandlers = {}, uploads: Backup[] = []) {
  const transport = createFakeTransport(handlers);
  const api: Api = {
    ...createClient(transport),
    // Answers the uploads the test lists, in order.
    async uploadBackup() {
      const next = uploads.shift();
      if (!next) throw new Error('no fake upload');
      return next;
    },
    desktop: false,
    // A spreadsheet "opened" under its own name, as web mode's upload answers it.
    async openSpreadsheet(file) {
      return { file: file.name, name: file.name, bytes: file.size };
    },
  };
  return { api, transport };
}

export const account = (overrides: Partial<Account> = {}): Account => ({
  id: 1,
  name: 'acme',
  active: true,
  credit_rials: 1_000_000,
  ip_allowlist: [],
  created_at: 0,
  ...overrides,
});

export const line = (overrides: Partial<Line> = {}): Line => ({
  id: 1,
  account_id: 1,
  number: '30001111',
  provider: 'sms',
  can_send_api_campaign: true,
  can_send_panel_campaign: true,
  active: true,
  gateway: { kind: 'simulator', base_url: null, sender: null, rate_per_second: 5, key_set: false, http: null },
  ...overrides,
});

/** A line's queue at its provider as gateways:queues answers it: nothing in it, not paused. */
export const lineQueue = (overrides: Partial<LineQueue> = {}): LineQueue => ({
  line_id: 1,
  number: '30001111',
  kind: 'kavenegar-v1',
  paused: null,
  counts: Object.fromEntries(HANDOVER_STATES.map((state) => [state, 0])) as LineQueue['counts'],
  provider_cost_rials: 0,
  ...overrides,
});

export const messageRow = (id: number, overrides: Partial<MessageRow> = {}): MessageRow => ({
  id,
  send_id: 1,
  account_id: 1,
  sender: '30001111',
  provider: 'sms',
  origin: 'panel',
  receptor: '09120000000',
  text: 'hi',
  pages: 1,
  status: MessageStatus.Queued,
  // The statustext of the row's status (spec 3.1's, from the lifecycle table), as the core writes it.
  status_text: statusTextIn(overrides.status ?? MessageStatus.Queued, 'fa'),
  cost_rials: 1500,
  created_at: 1_700_000_000_000,
  handed_at: null,
  final_at: null,
  ...overrides,
});

/** Waits until the store's state satisfies `check` (stores load asynchronously). */
export async function until<S>(
  store: { getState(): S; subscribe(l: (s: S) => void): () => void },
  check: (s: S) => boolean,
): Promise<S> {
  if (check(store.getState())) return store.getState();
  return new Promise((resolve) => {
    const stop = store.subscribe((state) => {
      if (check(state)) {
        stop();
        resolve(state);
      }
    });
  });
}

/**
 * A fake of the core's `compose:preview` over the same shared rules the core's dry run uses
 * (pricing, lenient receiver classification of the pasted numbers then the segment's members, the
 * same mapping to the answer); lines not in `panelLines` are refused as the core refuses them (412).
 */
export function fakeQuote(
  pricing: Pricing,
  creditRials: number,
  panelLines: Record<string, Provider> = { '30001111': 'sms' },
  segments: Record<number, readonly string[]> = {},
): (input: InputOf<'compose:preview'>) => ComposePreview {
  return (input) => {
    const provider = panelLines[input.sender];
    if (provider === undefined) throw { code: ApiCode.InvalidSender, message: apiCodeMessage[ApiCode.InvalidSender] };
    const price = priceText(input.message, provider, pricing);
    const pasted = [...splitReceivers(input.receivers_text ?? ''), ...(input.receivers ?? [])];
    const members = input.segment_id === undefined ? [] : (segments[input.segment_id] ?? []);
    const classified = classifyReceivers([...pasted, ...members], 'lenient');
    const lists = summarizePasted(classified, pasted.length);
    const accepted = classified.valid.length;
    const totalRials = price.costRials * accepted;
    return composePreviewOf({
      provider,
      message: input.message,
      price,
      lists,
      accepted,
      totalRials,
      creditRials,
      enoughCredit: creditRials >= totalRials,
    });
  };
}

/** A contacts job as imports:get answers it. */
export const importJob = (overrides: Partial<OutputOf<'imports:get'>> = {}): OutputOf<'imports:get'> => ({
  job_id: 9,
  kind: 'import',
  segment_id: 4,
  target_segment_id: null,
  file_name: 'customers.csv',
  status: 'queued',
  rows: 0,
  fraction: 0,
  total: 0,
  valid: 0,
  invalid: 0,
  duplicates: 0,
  opted_out: 0,
  error: null,
  created_at: 0,
  started_at: null,
  finished_at: null,
  ...overrides,
});

/** An import:progress push. */
export const importProgress = (
  overrides: Partial<PayloadOf<'import:progress'>> = {},
): PayloadOf<'import:progress'> => ({
  job_id: 9,
  kind: 'import',
  segment_id: 4,
  upload_id: null,
  status: 'running',
  rows: 0,
  fraction: 0,
  valid: 0,
  invalid: 0,
  duplicates: 0,
  opted_out: 0,
  error: null,
  ...overrides,
});

/** A verify/lookup template as templates:list answers it. */
export const verifyTemplate = (overrides: Partial<VerifyTemplate> = {}): VerifyTemplate => ({
  id: 1,
  account_id: 1,
  name: 'login',
  body: 'Your code: %token',
  sender: null,
  active: true,
  created_at: 0,
  updated_at: 0,
  ...overrides,
});

/**
 * The templates channels over an in-memory list, refusing as the core does by the shared rules (a
 * name's form, a text's placeholders: 400; a name taken in the account: 400); `calls` of the
 * transport shows what was sent.
 */
export function fakeTemplates(initial: VerifyTemplate[] = []): FakeHandlers {
  let rows = [...initial];
  let nextId = Math.max(0, ...rows.map((row) => row.id)) + 1;
  const refuse = (detail: string) => ({
    code: ApiCode.BadRequest,
    message: apiCodeMessage[ApiCode.BadRequest],
    detail,
  });
  const check = (accountId: number, id: number | null, name: string, body: string) => {
    if (!TEMPLATE_NAME.test(name)) throw refuse('template_name_invalid');
    if (rows.some((row) => row.account_id === accountId && row.name === name && row.id !== id))
      throw refuse('template_exists');
    const fault = templateBodyFault(body);
    if (fault !== null) throw refuse(fault);
  };
  return {
    'templates:list': ({ account_id }) => rows.filter((row) => row.account_id === account_id),
    'templates:create': ({ account_id, name, body, sender, active }) => {
      check(account_id, null, name, body);
      const made = verifyTemplate({
        id: nextId++,
        account_id,
        name,
        body,
        sender: sender ?? null,
        active: active ?? true,
      });
      rows.push(made);
      return made;
    },
    'templates:update': ({ account_id, id, ...changes }) => {
      const current = rows.find((row) => row.id === id && row.account_id === account_id);
      if (!current) throw { code: ApiCode.NotFound, message: apiCodeMessage[ApiCode.NotFound] };
      const next = { ...current, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) };
      check(account_id, id, next.name, next.body);
      rows = rows.map((row) => (row.id === id ? next : row));
      return next;
    },
    'templates:remove': ({ account_id, id }) => {
      if (!rows.some((row) => row.id === id && row.account_id === account_id))
        throw { code: ApiCode.NotFound, message: apiCodeMessage[ApiCode.NotFound] };
      rows = rows.filter((row) => row.id !== id);
      return null;
    },
  };
}

/** A reply as inbox:list answers it. */
export const inboxItem = (id: number, overrides: Partial<InboxItem> = {}): InboxItem => ({
  id,
  line_number: '30001111',
  sender: '09120000000',
  text: 'ممنون',
  received_at: 1_700_000_000_000 + id,
  read_at: null,
  reply_to: null,
  opt_out: false,
  replied: null,
  contact: { phone: overrides.sender ?? '09120000000', name: null, segments: [], segment_count: 0 },
  done: false,
  ...overrides,
});

/**
 * The inbox channels over an in-memory list of one or more accounts' replies (`account_id` on each),
 * newest first, with the core's filters and cursor; `rows` is the list itself, for tests to add to.
 */
export function fakeInbox(initial: Array<InboxItem & { account_id: number }> = []) {
  const rows = [...initial];
  const handlers: FakeHandlers = {
    'inbox:list': ({ account_id, before, limit = 50, unread_only, opt_outs_only, search }) => {
      const matching = rows
        .filter(
          (row) =>
            row.account_id === account_id &&
            (before === undefined || row.id < before) &&
            (!unread_only || row.read_at === null) &&
            (!opt_outs_only || row.opt_out) &&
            (!search || row.sender.includes(search)),
        )
        .sort((a, b) => b.id - a.id);
      const items = matching.slice(0, limit).map(({ account_id: _, ...item }) => item);
      return { items, next: matching.length > limit ? items[items.length - 1]!.id : null };
    },
    'inbox:markRead': ({ account_id, ids }) => {
      let changed = 0;
      for (const row of rows)
        if (row.account_id === account_id && row.read_at === null && (ids === undefined || ids.includes(row.id))) {
          row.read_at = 1;
          changed++;
        }
      return changed;
    },
    'inbox:counts': ({ account_id }) => {
      const mine = rows.filter((row) => row.account_id === account_id);
      const unread = mine.filter((row) => row.read_at === null);
      const lines = [...new Set(unread.map((row) => row.line_number))].sort();
      return {
        unread: unread.length,
        total: mine.length,
        unread_by_line: lines.map((line_number) => ({
          line_number,
          unread: unread.filter((row) => row.line_number === line_number).length,
        })),
      };
    },
  };
  return { handlers, rows };
}

/** The workspace's size as workspace:size answers it. */
export const workspaceSize = (overrides: Partial<WorkspaceSize> = {}): WorkspaceSize => ({
  total_bytes: 52_428_800,
  database_bytes: 41_943_040,
  wal_bytes: 4_194_304,
  free_bytes: 1_048_576,
  files_bytes: 2_097_152,
  archive_bytes: 0,
  backups_bytes: 4_194_304,
  exports_bytes: 0,
  other_bytes: 4096,
  messages: 120_000,
  incremental: true,
  optimized_at: null,
  vacuumed_at: null,
  compacted_at: null,
  archives: [],
  archive_dir: null,
  ...overrides,
});

export interface FakeWorkspaceOptions {
  size?: Partial<WorkspaceSize>;
  /** Messages the preview counts as older than any cut-off. */
  old?: number;
  /** workspace:retention reads a run answers before it ends. */
  runReads?: number;
}

/**
 * The workspace channels as the core answers them: a setting confirmed by applying it, a preview
 * whose cut-off an application must name (400 retention_preview_stale otherwise), a run that ends
 * after `runReads` reads of workspace:retention, and compaction; `state` is for tests to look at.
 */
export function fakeWorkspace(options: FakeWorkspaceOptions = {}) {
  const state = {
    size: workspaceSize(options.size),
    retention: { months: null, action: 'archive', automatic: false, run: null } as RetentionState,
    reads: 0,
  };
  const old = options.old ?? 1500;
  const cutoffOf = (months: number) => Date.UTC(2025, 12 - months, 1);
  const refuse = (reason: string) => ({
    code: ApiCode.BadRequest,
    message: apiCodeMessage[ApiCode.BadRequest],
    reason,
  });
  const handlers: FakeHandlers = {
    'workspace:size': () => state.size,
    'workspace:retention': () => {
      const run = state.retention.run;
      if (run?.state === 'running' && ++state.reads >= (options.runReads ?? 1)) {
        state.retention = {
          ...state.retention,
          run: { ...run, state: 'done', removed: run.planned, finished_at: Date.UTC(2025, 11, 2) },
        };
        state.size = { ...state.size, messages: state.size.messages - run.planned };
      } else if (run?.state === 'running')
        state.retention = { ...state.retention, run: { ...run, removed: Math.floor(run.planned / 2) } };
      return state.retention;
    },
    'workspace:setRetention': ({ months, action }) => {
      const same = months === state.retention.months && action === state.retention.action;
      state.retention = {
        ...state.retention,
        months,
        action,
        automatic: months !== null && same && state.retention.automatic,
      };
      return state.retention;
    },
    'workspace:retentionPreview': ({ months, action }) => ({
      months,
      action,
      cutoff: cutoffOf(months),
      messages: old,
      campaign_messages: 0,
      held: 0,
      first_at: old > 0 ? Date.UTC(2024, 0, 3) : null,
      last_at: old > 0 ? cutoffOf(months) - 3_600_000 : null,
    }),
    'workspace:applyRetention': ({ months, action, cutoff }) => {
      if (cutoff !== cutoffOf(months)) throw refuse('retention_preview_stale');
      if (state.retention.run?.state === 'running') throw refuse('retention_running');
      state.retention = {
        months,
        action,
        automatic: true,
        run: {
          id: (state.retention.run?.id ?? 0) + 1,
          action,
          months,
          cutoff,
          automatic: false,
          state: 'running',
          planned: old,
          removed: 0,
          held: 0,
          archives: action === 'archive' ? ['messages-2024-01.db'] : [],
          error: null,
          created_at: Date.UTC(2025, 11, 1),
          finished_at: null,
        },
      };
      return state.retention;
    },
    'workspace:compact': () => {
      const freed = state.size.free_bytes;
      state.size = {
        ...state.size,
        free_bytes: 0,
        database_bytes: state.size.database_bytes - freed,
        total_bytes: state.size.total_bytes - freed,
        compacted_at: Date.UTC(2025, 11, 2),
      };
      return { freed_bytes: freed, took_ms: 1200, size: state.size };
    },
    'messages:export': ({ format }) => ({
      export_id: 'e1',
      format,
      rows: old,
      path: null,
      url: `/bridge/exports/messages.${format}`,
      file_name: `messages.${format}`,
    }),
  };
  return { handlers, state };
}
