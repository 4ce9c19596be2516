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
import { classifyReceivers, summarizeReceivers } from '../../../shared/receivers';
import { splitReceivers } from '../../../shared/phone';
import { composePreviewOf } from '../../../shared/compose';

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
  status: 1,
  status_text: 'در صف ارسال',
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
    // The lists people read are the pasted part; the segment's members are counted, not listed.
    const lists = summarizeReceivers({
      ...classified,
      kinds: classified.kinds.slice(0, pasted.length),
      receptors: classified.receptors.slice(0, pasted.length),
      valid: classified.valid.filter((i) => i < pasted.length),
    });
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
