// The web transport when the server goes away: calls fail as 'offline' (never "Failed to fetch"),
// watchers hear offline then online, the transport checks /health by itself, and the event stream
// is opened again with its subscribers once the server is back. Fake fetch and EventSource: the
// real server's side is test/e2e/offline.test.ts.
import { describe, expect, it, vi } from 'vitest';
import {
  createWebTransport,
  OFFLINE_CODE,
  OFFLINE_REASON,
  signOutOtherBrowsers,
  type ConnectionState,
} from './web-transport';

type Listener = (event: { data: string }) => void;

class FakeSource {
  readyState = 0;
  closed = false;
  private readonly listeners = new Map<string, Set<Listener>>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: Listener) {
    const set = this.listeners.get(type) ?? new Set();
    set.add(listener);
    this.listeners.set(type, set);
  }
  removeEventListener(type: string, listener: Listener) {
    this.listeners.get(type)?.delete(listener);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
  fire(type: string, data = '') {
    if (type === 'open') this.readyState = 1;
    // The browser's own retry: connecting again (a refused stream would be closed, 2).
    if (type === 'error' && this.readyState === 1) this.readyState = 0;
    for (const listener of this.listeners.get(type) ?? []) listener({ data });
  }
}

/** A server that is up or down; answers /health and the bridge. */
function fakeServer() {
  const server = { up: true, gateway: false, signedIn: true, calls: [] as string[] };
  const fetch = vi.fn(async (url: string) => {
    server.calls.push(url);
    if (!server.up) throw new TypeError('Failed to fetch');
    if (server.gateway) return new Response('<html>Bad Gateway</html>', { status: 502 });
    if (url.endsWith('/health')) return new Response('{"message":"ok"}', { status: 200 });
    if (url.endsWith('/bridge/session')) return new Response(null, { status: server.signedIn ? 204 : 401 });
    if (!server.signedIn)
      return new Response('{"ok":false,"error":{"code":401,"message":"x","reason":"signed_out"}}', { status: 401 });
    if (url.endsWith('/bridge/session/rotate')) return new Response('{"ok":true,"value":null}', { status: 200 });
    if (url.includes('refused'))
      return new Response('{"ok":false,"error":{"code":400,"message":"x"}}', { status: 400 });
    return new Response('{"ok":true,"value":42}', { status: 200 });
  });
  return { server, fetch: fetch as unknown as typeof globalThis.fetch };
}

function setup(onSignedOut?: () => void) {
  const { server, fetch } = fakeServer();
  const sources: FakeSource[] = [];
  const transport = createWebTransport({
    fetch,
    onSignedOut,
    eventSource: (url) => {
      const source = new FakeSource(url);
      sources.push(source);
      return source;
    },
    reconnectDelaysMs: [5, 10],
  });
  const states: ConnectionState[] = [];
  transport.connection.subscribe((state) => states.push(state));
  return { server, transport, sources, states };
}

describe('web transport offline', () => {
  it('turns an unreachable server into an offline error and comes back by checking /health', async () => {
    const { server, transport, states } = setup();
    server.up = false;
    const result = await transport.invoke('accounts:list', null);
    expect(result).toEqual({
      ok: false,
      error: { code: OFFLINE_CODE, message: expect.any(String), reason: OFFLINE_REASON },
    });
    expect(JSON.stringify(result)).not.toContain('Failed to fetch');
    expect(transport.connection.state()).toBe('offline');
    expect(states).toEqual(['offline']);
    // Still down: it keeps checking, and stays offline.
    await vi.waitFor(() => expect(server.calls.filter((url) => url.endsWith('/health')).length).toBeGreaterThan(1));
    expect(transport.connection.state()).toBe('offline');
    server.up = true;
    await vi.waitFor(() => expect(transport.connection.state()).toBe('online'));
    expect(states).toEqual(['offline', 'online']);
    expect(await transport.invoke('accounts:list', null)).toEqual({ ok: true, value: 42 });
  });

  it('takes a proxy’s 502 page for offline, but a refusal of the core for an answer', async () => {
    const { server, transport } = setup();
    expect(await transport.invoke('refused:call', null)).toMatchObject({ ok: false, error: { code: 400 } });
    expect(transport.connection.state()).toBe('online');
    server.gateway = true;
    expect(await transport.invoke('accounts:list', null)).toMatchObject({ error: { reason: OFFLINE_REASON } });
    expect(transport.connection.state()).toBe('offline');
    server.gateway = false;
    await vi.waitFor(() => expect(transport.connection.state()).toBe('online'));
  });

  it('opens the event stream again when the server is back, online once it is open', async () => {
    const { server, transport, sources, states } = setup();
    const received: unknown[] = [];
    transport.on('messages:status-changed', (payload) => received.push(payload));
    expect(sources).toHaveLength(1);
    sources[0]!.fire('open');
    sources[0]!.fire('messages:status-changed', '{"n":1}');

    server.up = false;
    sources[0]!.fire('error');
    expect(transport.connection.state()).toBe('offline');
    server.up = true;
    // The server answers /health: a new stream replaces the broken one.
    await vi.waitFor(() => expect(sources).toHaveLength(2));
    expect(sources[0]!.closed).toBe(true);
    expect(transport.connection.state()).toBe('offline');
    sources[1]!.fire('open');
    expect(states).toEqual(['offline', 'online']);
    // The subscriber hears the new stream, not the old one.
    sources[1]!.fire('messages:status-changed', '{"n":2}');
    sources[0]!.fire('messages:status-changed', '{"n":99}');
    expect(received).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('comes back when the browser’s own retry reopens the stream first', async () => {
    const { server, transport, sources, states } = setup();
    transport.on('import:progress', () => undefined);
    sources[0]!.fire('open');
    server.up = false;
    sources[0]!.fire('error');
    sources[0]!.fire('open');
    expect(states).toEqual(['offline', 'online']);
    expect(sources).toHaveLength(1);
  });

  it('closes the stream after the last subscriber and opens one for the next', () => {
    const { transport, sources } = setup();
    const stop = transport.on('import:progress', () => undefined);
    stop();
    expect(sources[0]!.closed).toBe(true);
    transport.on('import:progress', () => undefined);
    expect(sources).toHaveLength(2);
  });
});

describe('web transport signed out', () => {
  it('tells once when the bridge refuses the session, and answers the refusal', async () => {
    const signedOut = vi.fn();
    const { server, transport } = setup(signedOut);
    server.signedIn = false;
    const result = await transport.invoke('accounts:list', null);
    expect(result).toMatchObject({ ok: false, error: { code: 401, reason: 'signed_out' } });
    await transport.invoke('accounts:list', null);
    expect(signedOut).toHaveBeenCalledTimes(1);
  });

  it('asks whether it is still signed in when its stream broke and the server is there', async () => {
    const signedOut = vi.fn();
    const { server, transport, sources } = setup(signedOut);
    transport.on('import:progress', () => undefined);
    sources[0]!.fire('open');
    // Another browser signed this one out: the server ended its stream.
    server.signedIn = false;
    sources[0]!.fire('error');
    await vi.waitFor(() => expect(signedOut).toHaveBeenCalledTimes(1));
    // No stream opened again and again, no more checks.
    const checks = server.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.calls.length).toBe(checks);
    expect(sources).toHaveLength(1);
  });

  it('without onSignedOut (a script with the token) a 401 is only an answer', async () => {
    const { server, transport } = setup();
    server.signedIn = false;
    expect(await transport.invoke('accounts:list', null)).toMatchObject({ ok: false, error: { code: 401 } });
    server.up = false;
    await transport.invoke('accounts:list', null);
    server.up = true;
    server.signedIn = true;
    await vi.waitFor(() => expect(transport.connection.state()).toBe('online'));
  });

  it('signs out the other browsers with a POST to the session’s rotate path', async () => {
    const { server, fetch } = fakeServer();
    expect(await signOutOtherBrowsers({ fetch })).toEqual({ ok: true, value: null });
    expect(server.calls).toEqual(['/bridge/session/rotate']);
    server.up = false;
    expect(await signOutOtherBrowsers({ fetch })).toMatchObject({ ok: false, error: { reason: OFFLINE_REASON } });
  });
});
