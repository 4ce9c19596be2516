// The renderer's one way to the service: the typed client of shared/ipc over Electron's preload
// bridge (`window.chapar`) when present, else the web bridge of `serve` on the page's own origin.
// Stores receive it; unit tests build one over shared/ipc's fake transport (test/fakes.ts).
import {
  createClient,
  defaultTransport,
  IpcCallError,
  uploadBackup,
  uploadSpreadsheet,
  type ChaparBridge,
  type Client,
  type Connection,
  type ConnectionState,
} from '../../../shared/ipc';
import type { Backup } from '../../../shared/ipc/schemas';

export interface Api extends Client {
  /**
   * Web mode: puts a backup file from this computer into the server's backups folder (the one
   * operation outside the contracts: a file body, not JSON). Desktop: never called.
   */
  uploadBackup(file: Blob): Promise<Backup>;
  /** True in the desktop app (native file dialogs: files:choose works there only). */
  readonly desktop: boolean;
  /**
   * A spreadsheet the user dropped or picked, as the `file` imports:preview / imports:start /
   * optouts:import take: desktop, its path; web mode, streamed to the server first.
   */
  openSpreadsheet(file: File): Promise<{ file: string; name: string; bytes: number }>;
  /**
   * Whether the core can be reached (web mode: the server may stop or the network drop; the
   * desktop's preload cannot lose it). Absent in tests' fakes: always online.
   */
  readonly connection?: Connection;
}

/** The desktop app's connection: the core lives in the same app. */
const ALWAYS_ONLINE: Connection = { state: (): ConnectionState => 'online', subscribe: () => () => undefined };

export function connectApi(): Api {
  const transport = defaultTransport();
  const client = createClient(transport);
  const bridge = (globalThis as { chapar?: ChaparBridge }).chapar;
  return {
    ...client,
    desktop: bridge !== undefined,
    connection: 'connection' in transport ? transport.connection : ALWAYS_ONLINE,
    async openSpreadsheet(file) {
      if (bridge) {
        const path = bridge.pathForFile(file);
        if (!path)
          throw new IpcCallError('imports:upload', { code: 400, message: 'no file', reason: 'import_file_missing' });
        return { file: path, name: file.name, bytes: file.size };
      }
      const result = await uploadSpreadsheet(file, file.name);
      if (!result.ok) throw new IpcCallError('imports:upload', result.error);
      return result.value;
    },
    async uploadBackup(file) {
      const result = await uploadBackup(file);
      if (!result.ok) throw new IpcCallError('backup:upload', result.error);
      return result.value;
    },
  };
}

export type {
  Account,
  ApiKeyInfo,
  AppSettings,
  Backup,
  ComposePreview,
  DashboardStats,
  LedgerEntry,
  Line,
  MessageFilter,
  MessageRow,
  Pricing,
  SegmentSummary,
  Simulator,
  StatusCounts,
} from '../../../shared/ipc/schemas';
export { IpcCallError, OFFLINE_REASON, type ConnectionState } from '../../../shared/ipc';
