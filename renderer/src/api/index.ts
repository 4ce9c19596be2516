// The renderer's one way to the service: the typed client of shared/ipc over Electron's preload
// bridge (`window.chapar`) when present, else the web bridge of `serve` on the page's own origin.
// Stores receive it; unit tests build one over shared/ipc's fake transport (test/fakes.ts).
import { createClient, defaultTransport, IpcCallError, uploadBackup, type Client } from '../../../shared/ipc';
import type { Backup } from '../../../shared/ipc/schemas';

export interface Api extends Client {
  /**
   * Web mode: puts a backup file from this computer into the server's backups folder (the one
   * operation outside the contracts: a file body, not JSON). Desktop: never called.
   */
  uploadBackup(file: Blob): Promise<Backup>;
}

export function connectApi(): Api {
  const client = createClient(defaultTransport());
  return {
    ...client,
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
export { IpcCallError } from '../../../shared/ipc';
