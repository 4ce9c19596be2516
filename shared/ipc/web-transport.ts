// The web-mode transport: the same contracts over the HTTP bridge of `serve` (POST
// /bridge/invoke/:channel and server-sent events from GET /bridge/events). Browser APIs only
// (fetch, EventSource), reached through globalThis so this file also compiles without the DOM lib.
// The bridge's token travels in an HttpOnly cookie set when the page was opened with ?token=...
import { IpcErrorCode, type IpcResult } from './contract';
import type { Transport } from './client';
import type { z } from 'zod';
import type { BackupSchema } from './schemas';

type Backup = z.output<typeof BackupSchema>;

interface EventSourceLike {
  addEventListener(type: string, listener: (event: { data: string }) => void): void;
  removeEventListener(type: string, listener: (event: { data: string }) => void): void;
  close(): void;
}
type EventSourceFactory = (url: string) => EventSourceLike;

/** What the preload exposes in the desktop app (`window.chapar`). */
export type ChaparBridge = Transport & {
  /** The path of a file dropped on the window or picked in an <input type="file"> ('' when none). */
  pathForFile(file: unknown): string;
};

export interface WebTransportOptions {
  /** Origin of the bridge; default: the page's own (relative URLs). */
  baseUrl?: string;
  /** Sent as `Authorization: Bearer` when given (scripts, tests); browsers use the cookie. */
  token?: string;
  fetch?: typeof fetch;
  eventSource?: EventSourceFactory;
}

export const BRIDGE_INVOKE_PATH = '/bridge/invoke/';
export const BRIDGE_EVENTS_PATH = '/bridge/events';

export function createWebTransport(options: WebTransportOptions = {}): Transport {
  const base = options.baseUrl ?? '';
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  const makeSource: EventSourceFactory =
    options.eventSource ??
    ((url) => {
      const Source = (
        globalThis as unknown as {
          EventSource?: new (url: string, init?: { withCredentials?: boolean }) => EventSourceLike;
        }
      ).EventSource;
      if (!Source) throw new Error('EventSource is not available here');
      return new Source(url, { withCredentials: true });
    });

  // One event stream for all subscriptions, opened on the first and closed after the last.
  let source: EventSourceLike | null = null;
  let subscriptions = 0;

  return {
    async invoke(channel, input) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (options.token) headers['authorization'] = `Bearer ${options.token}`;
      const response = await doFetch(`${base}${BRIDGE_INVOKE_PATH}${encodeURIComponent(channel)}`, {
        method: 'POST',
        headers,
        credentials: 'same-origin',
        body: JSON.stringify(input === undefined ? null : input),
      });
      const text = await response.text();
      try {
        const result = JSON.parse(text) as IpcResult<unknown>;
        if (result && typeof result === 'object' && 'ok' in result) return result;
      } catch {
        // not JSON: fall through to a transport error
      }
      return {
        ok: false,
        error: { code: response.status || IpcErrorCode.Internal, message: text.slice(0, 200) || response.statusText },
      };
    },
    on(event, listener) {
      if (!source) {
        const query = options.token ? `?token=${encodeURIComponent(options.token)}` : '';
        source = makeSource(`${base}${BRIDGE_EVENTS_PATH}${query}`);
      }
      const current = source;
      const handle = (message: { data: string }) => listener(JSON.parse(message.data));
      current.addEventListener(event, handle);
      subscriptions++;
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        current.removeEventListener(event, handle);
        if (--subscriptions === 0 && source === current) {
          current.close();
          source = null;
        }
      };
    },
  };
}

export const BRIDGE_BACKUPS_PATH = '/bridge/backups';

/**
 * Web mode: sends a backup file (a File from an <input type="file">) to the server's backups
 * folder; restore it afterwards with backup:restore and the returned path.
 */
export async function uploadBackup(
  file: NonNullable<NonNullable<Parameters<typeof fetch>[1]>['body']>,
  options: Pick<WebTransportOptions, 'baseUrl' | 'token' | 'fetch'> = {},
): Promise<IpcResult<Backup>> {
  const headers: Record<string, string> = { 'content-type': 'application/octet-stream' };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  const response = await doFetch(`${options.baseUrl ?? ''}${BRIDGE_BACKUPS_PATH}`, {
    method: 'POST',
    headers,
    credentials: 'same-origin',
    body: file,
  });
  const text = await response.text();
  try {
    return JSON.parse(text) as IpcResult<Backup>;
  } catch {
    return { ok: false, error: { code: response.status || IpcErrorCode.Internal, message: text.slice(0, 200) } };
  }
}

export const BRIDGE_UPLOADS_PATH = '/bridge/uploads';

/**
 * Web mode: streams a spreadsheet (a File from a drop or an <input type="file">) to the server,
 * which keeps it for the import wizard; `file` in the answer is what imports:preview, imports:start
 * and optouts:import take. The browser never holds the file in memory (fetch streams a File body).
 */
export async function uploadSpreadsheet(
  file: NonNullable<NonNullable<Parameters<typeof fetch>[1]>['body']>,
  name: string,
  options: Pick<WebTransportOptions, 'baseUrl' | 'token' | 'fetch'> = {},
): Promise<IpcResult<{ file: string; name: string; bytes: number }>> {
  const headers: Record<string, string> = { 'content-type': 'application/octet-stream' };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  const response = await doFetch(`${options.baseUrl ?? ''}${BRIDGE_UPLOADS_PATH}?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers,
    credentials: 'same-origin',
    body: file,
  });
  const text = await response.text();
  try {
    return JSON.parse(text) as IpcResult<{ file: string; name: string; bytes: number }>;
  } catch {
    return { ok: false, error: { code: response.status || IpcErrorCode.Internal, message: text.slice(0, 200) } };
  }
}

/** Electron's preload bridge when present, else the HTTP bridge of the page's own origin. */
export function defaultTransport(): Transport {
  const bridge = (globalThis as { chapar?: ChaparBridge }).chapar;
  return bridge ?? createWebTransport();
}
