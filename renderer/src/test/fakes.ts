// A typed fake of the API client for store tests: shared/ipc's fake transport under the real
// client, so channel names, inputs and outputs are checked by the compiler as in the app.
import { createClient, createFakeTransport, type FakeHandlers } from '../../../shared/ipc';
import type { Account, Api, Backup, Line, MessageRow } from '../api';

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
