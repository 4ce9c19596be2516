// Settings of the current account and of the workspace: API keys (a new key is held here only
// until its modal closes, it is never stored), lines, credit and its ledger (the bill: a campaign's
// run or a send as one row, its sends and refunds read on demand), pricing, simulator, backup and
// restore. What a form submits answers the refusal's message, for the form to show beside its
// fields; other errors go to `error`.
import { createStore, type StateCreator } from 'zustand/vanilla';
import type { Api, ApiKeyInfo, Backup, Line, Pricing, Simulator } from '../api';
import type { LedgerRow } from '../../../shared/ipc/contracts/credit';
import type { ConnectionTest, GatewayInput } from '../../../shared/ipc/contracts/gateways';
import type { LinePermission, Provider } from '../../../shared/status';
import { errorMessage } from './errors';

export interface LineInput {
  number: string;
  provider: Provider;
  permissions: LinePermission[];
  active?: boolean;
}

export type { Backup, LedgerRow };
export type FilePurpose = 'backup-restore' | 'backup-save' | 'data-folder';

export interface KeysSlice {
  keys: ApiKeyInfo[];
  /** The key just created, in clear, for the show-once modal. */
  newKey: string | null;
  createKey(label: string): Promise<string | null>;
  revokeKey(id: number): Promise<void>;
  dismissNewKey(): void;
}

export interface LinesSlice {
  lines: Line[];
  saveLine(line: LineInput): Promise<boolean>;
  /** A new line; null when added, else why not (it exists, its number has the wrong form). */
  addLine(line: LineInput): Promise<string | null>;
  /** Deactivates a line (its history stays). */
  removeLine(number: string): Promise<void>;
  /** Deletes a line that never sent; null when deleted, else why not (it has messages). */
  deleteLine(number: string): Promise<string | null>;
  /**
   * Sets who delivers a line's messages; null when saved, else why not (messages on their way,
   * a wrong address). The key goes to the core and is never read back (`key_set` says one is kept).
   */
  setGateway(input: Omit<GatewayInput, 'account_id'>): Promise<string | null>;
  /** Asks the line's provider, with the line's saved settings, for its credit; a refusal as its sentence. */
  testGateway(number: string): Promise<{ test: ConnectionTest } | { refused: string }>;
}

/** The rows a bill's row opens to (a send's refunds, a campaign run's sends), as far as loaded. */
export interface SendRefunds {
  entries: LedgerRow[];
  /** Where older ones start, or null when all are loaded. */
  before: number | null;
}

export interface CreditSlice {
  balance: number | null;
  /** The bill, newest first: a campaign's run or a send is one row (`group`), its refunds taken off. */
  ledger: LedgerRow[];
  /** Where older ledger entries start, or null when all are loaded. */
  ledgerBefore: number | null;
  /** The refunds of the sends expanded so far, by send id. */
  refunds: Record<number, SendRefunds>;
  /** The sends of the campaign runs expanded so far, by execution id. */
  runSends: Record<number, SendRefunds>;
  loadOlderLedger(): Promise<void>;
  /** Loads (more of) one send's refund rows. */
  loadRefunds(sendId: number): Promise<void>;
  /** Loads (more of) one campaign run's sends. */
  loadRunSends(executionId: number): Promise<void>;
  /**
   * Null when added, else why not (too large, the balance would pass its limit). A correction
   * ('adjust', negative) undoes a top-up: the ledger keeps both rows.
   */
  topUp(amountRials: number, note: string, kind?: 'topup' | 'adjust'): Promise<string | null>;
  /** Re-reads balance and ledger (sends and refunds change them behind this store's back). */
  refreshCredit(): Promise<void>;
}

export interface WorkspaceSlice {
  pricing: Pricing | null;
  simulator: Simulator | null;
  busy: boolean;
  lastBackup: Backup | null;
  /** Backups in the workspace's backup folder, newest first. */
  backups: Backup[];
  restoredFrom: string | null;
  loadBackups(): Promise<void>;
  /** Null when saved, else why not (a price out of range). */
  savePricing(pricing: Pricing): Promise<string | null>;
  saveSimulator(simulator: Simulator): Promise<boolean>;
  backup(): Promise<Backup | null>;
  /** What was restored and where the replaced data was kept; null when refused. */
  restore(path: string): Promise<{ restored_from: string; safety_backup: Backup; api_keys_revoked: number } | null>;
  /** Web mode: a backup file from this computer, put in the server's backups folder. */
  uploadBackup(file: Blob): Promise<Backup | null>;
  /** Desktop: the system's file or folder dialog; null when cancelled. */
  chooseFile(purpose: FilePurpose, defaultPath?: string): Promise<string | null>;
  /** Desktop: shows a file in the system's file manager. */
  reveal(path: string): Promise<void>;
}

export interface LoadSlice {
  accountId: number | null;
  error: string | null;
  load(accountId: number | null): Promise<void>;
  clearError(): void;
}

export type SettingsState = KeysSlice & LinesSlice & CreditSlice & WorkspaceSlice & LoadSlice;
type Slice<T> = StateCreator<SettingsState, [], [], T>;

/** Runs an action; an error goes to `error` and the action answers `fallback`. */
async function guarded<T>(set: (s: Partial<SettingsState>) => void, action: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await action();
  } catch (error) {
    set({ error: errorMessage(error) });
    return fallback;
  }
}

/** Runs a form's action: null when done, else the refusal's message (for the form, not `error`). */
async function submitted(action: () => Promise<unknown>): Promise<string | null> {
  try {
    await action();
    return null;
  } catch (error) {
    return errorMessage(error);
  }
}

const keysSlice =
  (api: Api): Slice<KeysSlice> =>
  (set, get) => ({
    keys: [],
    newKey: null,
    createKey: (label) =>
      guarded(
        set,
        async () => {
          const accountId = get().accountId;
          if (accountId === null) return null;
          const { key, info } = await api.invoke('apiKeys:create', { account_id: accountId, label });
          set({ keys: [...get().keys, info], newKey: key });
          return key;
        },
        null,
      ),
    revokeKey: (id) =>
      guarded(
        set,
        async () => {
          const info = await api.invoke('apiKeys:revoke', { id });
          set({ keys: get().keys.map((k) => (k.id === id ? info : k)) });
        },
        undefined,
      ),
    dismissNewKey: () => set({ newKey: null }),
  });

const linesSlice =
  (api: Api): Slice<LinesSlice> =>
  (set, get) => ({
    lines: [],
    saveLine: (line) =>
      guarded(
        set,
        async () => {
          const accountId = get().accountId;
          if (accountId === null) return false;
          await api.invoke('lines:upsert', { account_id: accountId, ...line });
          set({ lines: await api.invoke('lines:list', { account_id: accountId }) });
          return true;
        },
        false,
      ),
    addLine: (line) =>
      submitted(async () => {
        const accountId = get().accountId;
        if (accountId === null) return;
        await api.invoke('lines:add', { account_id: accountId, ...line });
        set({ lines: await api.invoke('lines:list', { account_id: accountId }) });
      }),
    removeLine: (number) =>
      guarded(
        set,
        async () => {
          const accountId = get().accountId;
          if (accountId === null) return;
          await api.invoke('lines:remove', { account_id: accountId, number });
          set({ lines: await api.invoke('lines:list', { account_id: accountId }) });
        },
        undefined,
      ),
    deleteLine: (number) =>
      submitted(async () => {
        const accountId = get().accountId;
        if (accountId === null) return;
        await api.invoke('lines:delete', { account_id: accountId, number });
        set({ lines: await api.invoke('lines:list', { account_id: accountId }) });
      }),
    setGateway: (input) =>
      submitted(async () => {
        const accountId = get().accountId;
        if (accountId === null) return;
        const saved = await api.invoke('lines:setGateway', { account_id: accountId, ...input });
        if (get().accountId === accountId) set({ lines: get().lines.map((l) => (l.id === saved.id ? saved : l)) });
      }),
    async testGateway(number) {
      const accountId = get().accountId;
      if (accountId === null) return { refused: '' };
      try {
        return { test: await api.invoke('lines:testGateway', { account_id: accountId, number }) };
      } catch (error) {
        return { refused: errorMessage(error) };
      }
    },
  });

/** `read` run once at a time: a call while it runs asks for one more run after it, answered then. */
function coalesced(read: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again: Promise<void> | null = null;
  return () => {
    if (running === null) {
      running = read().finally(() => (running = null));
      return running;
    }
    again ??= running
      .catch(() => undefined)
      .then(() => {
        again = null;
        running = read().finally(() => (running = null));
        return running;
      });
    return again;
  };
}

const creditSlice =
  (api: Api): Slice<CreditSlice> =>
  (set, get) => ({
    balance: null,
    ledger: [],
    ledgerBefore: null,
    refunds: {},
    runSends: {},
    loadOlderLedger: () =>
      guarded(
        set,
        async () => {
          const { accountId, ledgerBefore } = get();
          if (accountId === null || ledgerBefore === null) return;
          const page = await api.invoke('credit:ledger', { account_id: accountId, before_id: ledgerBefore });
          if (get().accountId === accountId)
            set({ ledger: [...get().ledger, ...page.entries], ledgerBefore: page.next_before_id });
        },
        undefined,
      ),
    loadRefunds: (sendId) =>
      guarded(
        set,
        async () => {
          const accountId = get().accountId;
          const loaded = get().refunds[sendId];
          if (accountId === null || (loaded && loaded.before === null)) return;
          const page = await api.invoke('credit:ledger', {
            account_id: accountId,
            send_id: sendId,
            limit: 50,
            ...(loaded ? { before_id: loaded.before! } : {}),
          });
          if (get().accountId !== accountId) return;
          const entries = [...(loaded?.entries ?? []), ...page.entries];
          set({ refunds: { ...get().refunds, [sendId]: { entries, before: page.next_before_id } } });
        },
        undefined,
      ),
    loadRunSends: (executionId) =>
      guarded(
        set,
        async () => {
          const accountId = get().accountId;
          const loaded = get().runSends[executionId];
          if (accountId === null || (loaded && loaded.before === null)) return;
          const page = await api.invoke('credit:ledger', {
            account_id: accountId,
            execution_id: executionId,
            limit: 50,
            ...(loaded ? { before_id: loaded.before! } : {}),
          });
          if (get().accountId !== accountId) return;
          const entries = [...(loaded?.entries ?? []), ...page.entries];
          set({ runSends: { ...get().runSends, [executionId]: { entries, before: page.next_before_id } } });
        },
        undefined,
      ),
    topUp: (amountRials, note, kind = 'topup') =>
      submitted(async () => {
        const accountId = get().accountId;
        if (accountId === null) return;
        const { credit_rials } = await api.invoke('credit:topUp', {
          account_id: accountId,
          amount_rials: amountRials,
          note,
          kind,
        });
        const ledger = await api.invoke('credit:ledger', { account_id: accountId });
        set({
          balance: credit_rials,
          ledger: ledger.entries,
          ledgerBefore: ledger.next_before_id,
          refunds: {},
          runSends: {},
        });
      }),
    // Calls made while a read runs are one more read after it: a burst of changes pushed (a
    // run's refunds, many top-ups) is two reads, not one per push.
    refreshCredit: coalesced(() =>
      guarded(
        set,
        async () => {
          const accountId = get().accountId;
          if (accountId === null) return;
          const [balance, ledger] = await Promise.all([
            api.invoke('credit:balance', { account_id: accountId }),
            api.invoke('credit:ledger', { account_id: accountId }),
          ]);
          // New refunds may have joined an expanded row: it is read again while open.
          if (get().accountId === accountId)
            set({
              balance: balance.credit_rials,
              ledger: ledger.entries,
              ledgerBefore: ledger.next_before_id,
              refunds: {},
              runSends: {},
            });
        },
        undefined,
      ),
    ),
  });

const workspaceSlice =
  (api: Api): Slice<WorkspaceSlice> =>
  (set, get) => ({
    pricing: null,
    simulator: null,
    busy: false,
    lastBackup: null,
    backups: [],
    restoredFrom: null,
    loadBackups: () =>
      guarded(
        set,
        async () => {
          const backups = await api.invoke('backup:list');
          set({ backups: [...backups].sort((a, b) => b.created_at - a.created_at) });
        },
        undefined,
      ),
    savePricing: (pricing) => submitted(async () => set({ pricing: await api.invoke('pricing:set', pricing) })),
    saveSimulator: (simulator) =>
      guarded(set, async () => (set({ simulator: await api.invoke('simulator:set', simulator) }), true), false),
    async backup() {
      set({ busy: true });
      const result = await guarded(set, () => api.invoke('backup:create', {}), null);
      set({ busy: false, ...(result ? { lastBackup: result } : {}) });
      if (result) await get().loadBackups();
      return result;
    },
    async uploadBackup(file) {
      set({ busy: true });
      const uploaded = await guarded(set, () => api.uploadBackup(file), null);
      set({ busy: false });
      if (uploaded) await get().loadBackups();
      return uploaded;
    },
    chooseFile: (purpose, defaultPath) =>
      guarded(
        set,
        async () =>
          (await api.invoke('files:choose', { purpose, ...(defaultPath ? { default_path: defaultPath } : {}) })).path,
        null,
      ),
    reveal: (path) =>
      guarded(
        set,
        async () => {
          await api.invoke('files:reveal', { path });
        },
        undefined,
      ),
    async restore(path) {
      set({ busy: true, restoredFrom: null });
      const result = await guarded(set, () => api.invoke('backup:restore', { path }), null);
      set({ busy: false, restoredFrom: result?.restored_from ?? null });
      return result;
    },
  });

const loadSlice =
  (api: Api): Slice<LoadSlice> =>
  (set, get) => ({
    accountId: null,
    error: null,
    async load(accountId) {
      set({ accountId, error: null });
      await guarded(
        set,
        async () => {
          const [pricing, simulator] = await Promise.all([api.invoke('pricing:get'), api.invoke('simulator:get')]);
          set({ pricing, simulator });
          if (accountId === null)
            return set({
              keys: [],
              lines: [],
              balance: null,
              ledger: [],
              ledgerBefore: null,
              refunds: {},
              runSends: {},
            });
          const [keys, lines, balance, ledger] = await Promise.all([
            api.invoke('apiKeys:list', { account_id: accountId }),
            api.invoke('lines:list', { account_id: accountId }),
            api.invoke('credit:balance', { account_id: accountId }),
            api.invoke('credit:ledger', { account_id: accountId }),
          ]);
          if (get().accountId === accountId)
            set({
              keys,
              lines,
              balance: balance.credit_rials,
              ledger: ledger.entries,
              ledgerBefore: ledger.next_before_id,
              refunds: {},
              runSends: {},
            });
        },
        undefined,
      );
    },
    clearError: () => set({ error: null }),
  });

export function createSettingsStore(api: Api) {
  return createStore<SettingsState>()((...a) => ({
    ...keysSlice(api)(...a),
    ...linesSlice(api)(...a),
    ...creditSlice(api)(...a),
    ...workspaceSlice(api)(...a),
    ...loadSlice(api)(...a),
  }));
}
export type SettingsStore = ReturnType<typeof createSettingsStore>;

export const settingsSelectors = {
  activeKeys: (s: SettingsState): ApiKeyInfo[] => s.keys.filter((k) => k.revoked_at === null),
};
