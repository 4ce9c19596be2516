// The web-mode transport: the same contracts over the HTTP bridge of `serve` (POST
// /bridge/invoke/:channel and server-sent events from GET /bridge/events). Browser APIs only
// (fetch, EventSource), reached through globalThis so this file also compiles without the DOM lib.
// The browser's session travels in an HttpOnly cookie set when the page was opened with ?token=...;
// when the server no longer takes it (it expired, or "sign out other browsers" was used
// elsewhere), the transport tells `onSignedOut` (the page reloads to the server's sign-in message).
// A server that cannot be reached is not an error of the call: the transport says it is offline
// (OFFLINE_CODE, reason 'offline'), checks until the server answers again and reopens the event
// stream, and tells its `connection` watchers both times.
import { IpcErrorCode, type IpcResult } from './contract';
import type { Transport } from './client';
import type { z } from 'zod';
import type { BackupSchema } from './schemas';

type Backup = z.output<typeof BackupSchema>;

interface EventSourceLike {
  /** 0 connecting, 1 open, 2 closed (the browser gave up: the server answered something else than a stream). */
  readonly readyState?: number;
  addEventListener(type: string, listener: (event: { data: string }) => void): void;
  removeEventListener(type: string, listener: (event: { data: string }) => void): void;
  close(): void;
}
type EventSourceFactory = (url: string) => EventSourceLike;
const SOURCE_OPEN = 1;

/** What the preload exposes in the desktop app (`window.chapar`). */
export type ChaparBridge = Transport & {
  /** The path of a file dropped on the window or picked in an <input type="file"> ('' when none). */
  pathForFile(file: unknown): string;
};

/**
 * Whether the core can be reached. 'offline': a call or the event stream found no server (it
 * stopped, the network is down, a proxy in front of it answers 502/503/504); the transport then
 * checks by itself until it answers again. 'online' again means: reached, and pushes made
 * meanwhile may have been missed, so what is on screen should be read again.
 */
export type ConnectionState = 'online' | 'offline';

export interface Connection {
  state(): ConnectionState;
  /** Called on every change of state; returns the unsubscribe function. */
  subscribe(listener: (state: ConnectionState) => void): () => void;
}

/**
 * A call that could not reach the core fails with this code (HTTP's "service unavailable") and
 * the reason 'offline' (IpcError.reason), which the UI translates; the core itself never answers
 * 503, so it cannot be mistaken for one of its refusals.
 */
export const OFFLINE_CODE = 503;
export const OFFLINE_REASON = 'offline';

/** Answers of a proxy (or a server starting) in front of the bridge: no core behind them yet. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

/** Waits between checks while offline: quick at first, then every few seconds. */
export const RECONNECT_DELAYS_MS = [500, 1000, 2000, 3000, 5000] as const;

export interface WebTransportOptions {
  /** Origin of the bridge; default: the page's own (relative URLs). */
  baseUrl?: string;
  /** Sent as `Authorization: Bearer` when given (scripts, tests); browsers use the cookie. */
  token?: string;
  fetch?: typeof fetch;
  eventSource?: EventSourceFactory;
  /** Waits between reconnection checks (tests shorten them); default RECONNECT_DELAYS_MS. */
  reconnectDelaysMs?: readonly number[];
  /**
   * The bridge refused this browser's session (401): called once. Calls keep answering the
   * refusal; the event stream is not opened again.
   */
  onSignedOut?: () => void;
}

export const BRIDGE_INVOKE_PATH = '/bridge/invoke/';
export const BRIDGE_EVENTS_PATH = '/bridge/events';
/** 204 while this browser's session is valid, 401 once it is not. */
export const BRIDGE_SESSION_PATH = '/bridge/session';
export const BRIDGE_SESSION_ROTATE_PATH = '/bridge/session/rotate';
/** The bridge's answer to a request without a valid session or token. */
const UNAUTHORIZED_STATUS = 401;
/** The API's health check (spec 4.5): the cheapest question to ask whether the server is back. */
export const HEALTH_PATH = '/health';

export type WebTransport = Transport & { readonly connection: Connection };

function offlineResult(): IpcResult<never> {
  return {
    ok: false,
    error: { code: OFFLINE_CODE, message: 'the connection to Chapar was lost', reason: OFFLINE_REASON },
  };
}

export function createWebTransport(options: WebTransportOptions = {}): WebTransport {
  const base = options.baseUrl ?? '';
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  const delays = options.reconnectDelaysMs ?? RECONNECT_DELAYS_MS;
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
  const headers = (type: string): Record<string, string> => ({
    'content-type': type,
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
  });

  // ---- the connection's state, and the checks that bring it back

  let state: ConnectionState = 'online';
  const watchers = new Set<(state: ConnectionState) => void>();
  let check: ReturnType<typeof setTimeout> | null = null;
  let attempt = 0;
  /** Signed out (onSignedOut only): no more checks, no stream opened again. */
  let signedOut = false;
  const signOut = () => {
    if (signedOut || !options.onSignedOut) return;
    signedOut = true;
    if (check !== null) clearTimeout(check);
    check = null;
    options.onSignedOut();
  };
  const setState = (next: ConnectionState) => {
    if (state === next) return;
    state = next;
    for (const watcher of [...watchers]) watcher(next);
  };
  const goOffline = () => {
    setState('offline');
    if (check === null) scheduleCheck();
  };
  const scheduleCheck = () => {
    const delay = delays[Math.min(attempt++, delays.length - 1)] ?? 5000;
    check = setTimeout(() => void probe(), delay);
  };
  const probe = async () => {
    let up = false;
    try {
      const response = await doFetch(`${base}${HEALTH_PATH}`);
      up = response.ok;
      // The server is there, but a stream refused with it would be opened again and again: ask
      // whether this browser is still signed in.
      if (up && options.onSignedOut) {
        const session = await doFetch(`${base}${BRIDGE_SESSION_PATH}`, { credentials: 'same-origin' });
        if (session.status === UNAUTHORIZED_STATUS) return signOut();
      }
    } catch {
      up = false;
    }
    check = null;
    if (signedOut) return;
    if (up) serverBack();
    else if (state === 'offline' || reopening !== null) scheduleCheck();
  };
  const goOnline = () => {
    if (check !== null) clearTimeout(check);
    check = null;
    attempt = 0;
    setState('online');
  };

  // ---- the event stream: one for all subscriptions, opened on the first and closed after the last

  const handlers = new Map<string, Set<(payload: unknown) => void>>();
  let source: EventSourceLike | null = null;
  /** A stream opened again after the server came back: online once it opens. */
  let reopening: EventSourceLike | null = null;
  const url = () => `${base}${BRIDGE_EVENTS_PATH}${options.token ? `?token=${encodeURIComponent(options.token)}` : ''}`;
  const listen = (target: EventSourceLike, event: string) =>
    target.addEventListener(event, (message) => {
      if (source !== target) return;
      const payload: unknown = JSON.parse(message.data);
      for (const handler of [...(handlers.get(event) ?? [])]) handler(payload);
    });
  const openSource = (): EventSourceLike => {
    const opened = makeSource(url());
    source = opened;
    for (const event of handlers.keys()) listen(opened, event);
    opened.addEventListener('open', () => {
      if (source !== opened) return;
      reopening = null;
      if (state === 'offline') goOnline();
    });
    // The stream broke (the browser retries by itself) or was refused (it gives up): either way
    // the server is not there as it was; the checks find out when it is.
    opened.addEventListener('error', () => {
      if (source !== opened) return;
      if (reopening === opened) reopening = null;
      goOffline();
    });
    return opened;
  };
  const closeSource = () => {
    source?.close();
    source = null;
    reopening = null;
  };

  /** The server answered: online, once the event stream (if one is wanted) is open again too. */
  const serverBack = () => {
    if (state === 'online') return;
    if (source === null || source.readyState === SOURCE_OPEN) return goOnline();
    if (reopening !== null) return;
    // Not waiting for the browser's own retry: a stream refused once is never retried.
    source.close();
    reopening = openSource();
  };

  return {
    connection: {
      state: () => state,
      subscribe(listener) {
        watchers.add(listener);
        return () => watchers.delete(listener);
      },
    },
    async invoke(channel, input) {
      let response: Awaited<ReturnType<typeof fetch>>;
      let text: string;
      try {
        response = await doFetch(`${base}${BRIDGE_INVOKE_PATH}${encodeURIComponent(channel)}`, {
          method: 'POST',
          headers: headers('application/json'),
          credentials: 'same-origin',
          body: JSON.stringify(input === undefined ? null : input),
        });
        text = await response.text();
      } catch {
        // fetch rejects only when no answer came at all ("Failed to fetch"): the server is gone.
        goOffline();
        return offlineResult();
      }
      try {
        const result = JSON.parse(text) as IpcResult<unknown>;
        if (result && typeof result === 'object' && 'ok' in result) {
          if (response.status === UNAUTHORIZED_STATUS && !result.ok) signOut();
          else serverBack();
          return result;
        }
      } catch {
        // not JSON: a proxy's page, or a server that is not the bridge
      }
      if (GATEWAY_STATUSES.has(response.status)) {
        goOffline();
        return offlineResult();
      }
      return {
        ok: false,
        error: { code: response.status || IpcErrorCode.Internal, message: text.slice(0, 200) || response.statusText },
      };
    },
    on(event, listener) {
      let set = handlers.get(event);
      if (!set) {
        handlers.set(event, (set = new Set()));
        if (source) listen(source, event);
      }
      set.add(listener);
      if (!source) openSource();
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        set.delete(listener);
        if ([...handlers.values()].every((each) => each.size === 0)) {
          handlers.clear();
          closeSource();
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
  file: UploadBody,
  options: Pick<WebTransportOptions, 'baseUrl' | 'token' | 'fetch'> = {},
): Promise<IpcResult<Backup>> {
  return postToBridge<Backup>(BRIDGE_BACKUPS_PATH, file, options);
}

export const BRIDGE_UPLOADS_PATH = '/bridge/uploads';

/**
 * Web mode: streams a spreadsheet (a File from a drop or an <input type="file">) to the server,
 * which keeps it for the import wizard; `file` in the answer is what imports:preview, imports:start
 * and optouts:import take. The browser never holds the file in memory (fetch streams a File body).
 */
export async function uploadSpreadsheet(
  file: UploadBody,
  name: string,
  options: Pick<WebTransportOptions, 'baseUrl' | 'token' | 'fetch'> = {},
): Promise<IpcResult<{ file: string; name: string; bytes: number }>> {
  return postToBridge(`${BRIDGE_UPLOADS_PATH}?name=${encodeURIComponent(name)}`, file, options);
}

type UploadBody = NonNullable<NonNullable<Parameters<typeof fetch>[1]>['body']>;

/**
 * A POST to one of the bridge's own paths (a file's bytes to an upload path, or no body); the answer
 * is the bridge's result. A network failure is the transport's offline error, an answer that is not
 * a result a transport error.
 */
async function postToBridge<T>(
  pathAndQuery: string,
  file: UploadBody | undefined,
  options: Pick<WebTransportOptions, 'baseUrl' | 'token' | 'fetch'>,
): Promise<IpcResult<T>> {
  const headers: Record<string, string> = file === undefined ? {} : { 'content-type': 'application/octet-stream' };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  let response: Awaited<ReturnType<typeof fetch>>;
  let text: string;
  try {
    response = await doFetch(`${options.baseUrl ?? ''}${pathAndQuery}`, {
      method: 'POST',
      headers,
      credentials: 'same-origin',
      body: file,
    });
    text = await response.text();
  } catch {
    return offlineResult();
  }
  try {
    return JSON.parse(text) as IpcResult<T>;
  } catch {
    return { ok: false, error: { code: response.status || IpcErrorCode.Internal, message: text.slice(0, 200) } };
  }
}

/**
 * Web mode: "sign out other browsers". Every session but this browser's ends (their pages show
 * the sign-in message); this browser gets a fresh session cookie in the answer and stays signed in.
 */
export async function signOutOtherBrowsers(
  options: Pick<WebTransportOptions, 'baseUrl' | 'token' | 'fetch'> = {},
): Promise<IpcResult<null>> {
  return postToBridge<null>(BRIDGE_SESSION_ROTATE_PATH, undefined, options);
}

/**
 * Electron's preload bridge when present (it cannot lose the core: no connection to watch), else
 * the HTTP bridge of the page's own origin; signed out there, the page reloads to the server's
 * sign-in message.
 */
export function defaultTransport(): Transport | WebTransport {
  const bridge = (globalThis as { chapar?: ChaparBridge }).chapar;
  if (bridge) return bridge;
  const page = (globalThis as { location?: { reload(): void } }).location;
  return createWebTransport({ onSignedOut: page ? () => page.reload() : undefined });
}
