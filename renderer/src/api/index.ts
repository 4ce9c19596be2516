// The renderer's one way to the service: the typed client of shared/ipc over Electron's preload
// bridge (`window.chapar`) when present, else the web bridge of `serve` on the page's own origin.
// Stores receive the client; unit tests build one over shared/ipc's fake transport.
import { createClient, defaultTransport, type Client } from '../../../shared/ipc';

export type Api = Client;

export function connectApi(): Api {
  return createClient(defaultTransport());
}

export type {
  Account,
  ApiKeyInfo,
  AppSettings,
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
