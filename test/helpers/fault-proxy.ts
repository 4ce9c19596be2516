// A real HTTP proxy on a free loopback port in front of a provider, whose behaviour a test switches
// while it runs: every request (or the next N of them, or only those a test picks) passes through,
// gets a 500 without reaching the provider, has its connection reset without reaching it, reaches
// the provider but its answer is dropped (the provider did the work, the caller never hears), is
// answered late, or gets a Kavenegar-style error in the v1 envelope without reaching the provider.
// It counts and logs what it did with each request, so a test can say how many calls the provider
// really received.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does with one request. */
export type Fault =
  /** Forwarded, and the provider's answer returned. */
  | { kind: 'pass' }
  /** Answered 500 (a plain body, no envelope) without forwarding. */
  | { kind: 'fail500' }
  /** The caller's connection is destroyed without forwarding (a reset after the request left): the provider never hears. */
  | { kind: 'reset' }
  /** Forwarded; once the provider answered, the caller's connection is destroyed instead of answered. */
  | { kind: 'drop' }
  /** Forwarded; the provider's answer is held `ms` before it is returned (if the caller still listens). */
  | { kind: 'delay'; ms: number }
  /** The v1 envelope `{"return":{"status":code,"message":…},"entries":null}` with HTTP status `code`, not forwarded. */
  | { kind: 'error'; code: number; message?: string };

export type FaultKind = Fault['kind'];

/** One request as the proxy saw it. */
export interface ProxiedRequest {
  seq: number;
  /** When it arrived (unix ms). */
  at: number;
  method: string;
  /** The path with a v1 key replaced by `{key}` (logs never hold the key). */
  path: string;
  /** What was done with it. */
  fault: FaultKind;
  /** Whether the provider received it. */
  forwarded: boolean;
  /** The provider's HTTP status, when it answered. */
  upstreamStatus: number | null;
  /** The request body as text (form or JSON), for tests that look at what was sent. */
  body: string;
}

/** Which requests a rule applies to: all when absent. */
export type Match = (request: { method: string; path: string; body: string }) => boolean;

interface Rule {
  fault: Fault;
  /** Requests left before the rule is spent; Infinity for `always`. */
  left: number;
  match: Match | undefined;
}

/** Persian words of the Kavenegar codes a test is likely to inject (reference/kavenegar-v1.md). */
const KAVENEGAR_WORDS: Record<number, string> = {
  418: 'اعتبار شما کافی نمی‌باشد',
  429: 'IP محدود شده است',
  451: 'فراخوانی بیش از حد در بازه زمانی مشخص IP محدود شده',
  403: 'کد شناسائی API-Key معتبر نمی‌باشد',
};

/** The largest request body the proxy reads (the provider's own limits are far below this). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;
/** The longest log kept: older entries are dropped (the counts stay exact). */
const MAX_LOG = 100_000;

/** Paths of the provider's calls that hand messages over (v1 send, sendarray; v2 send, send-p2p). */
export const isSendCall: Match = ({ path }) =>
  /\/sms\/(send|sendarray)\.json$/.test(path) || /^\/v2\/sms\/(send|send-p2p)$/.test(path);

/** Paths of the provider's status reads (v1 status, statuslocalmessageid; v2 status). */
export const isStatusCall: Match = ({ path }) =>
  /\/sms\/(status|statuslocalmessageid)\.json$/.test(path) || path === '/v2/sms/status';

export interface FaultProxy {
  /** The proxy's base address (http://127.0.0.1:PORT): a line's `base_url`. */
  url: string;
  /** From now on, every request (or those `match` picks) gets `fault`, until changed. Clears the queued rules. */
  always(fault: Fault, match?: Match): void;
  /** The next `count` requests (that `match` picks) get `fault`; queued after the rules already waiting. */
  next(count: number, fault: Fault, match?: Match): void;
  /** Queued rules with requests left (a test waits for its faults to be spent). */
  pending(): number;
  /** Requests received, forwarded, answered, and done per fault kind. */
  counts(): {
    received: number;
    forwarded: number;
    /** Requests the caller got an answer to (the provider's or the proxy's own). */
    answered: number;
    byFault: Record<FaultKind, number>;
  };
  /** The requests seen, oldest first (at most the last 100,000); `match` filters. */
  log(match?: Match): ProxiedRequest[];
  /** Resolves once `count` requests matching `match` have been received (or fails after `timeoutMs`). */
  waitFor(count: number, match?: Match, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** A Kavenegar v1 path's key (`/v1/{key}/{scope}/{method}.json`) replaced; other APIs' paths as they are. */
export function redactKey(path: string): string {
  return path.replace(/^\/v1\/[^/]+\/(?=[^/]+\/[^/]+\.json$)/, '/v1/{key}/');
}

/** Starts a proxy in front of `target` (http://127.0.0.1:PORT), passing everything through. */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  if (upstream.protocol !== 'http:') throw new Error('the fault proxy forwards to http:// only');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  let standing: Rule = { fault: { kind: 'pass' }, left: Infinity, match: undefined };
  let queue: Rule[] = [];
  const counts = {
    received: 0,
    forwarded: 0,
    answered: 0,
    byFault: { pass: 0, fail500: 0, reset: 0, drop: 0, delay: 0, error: 0 } as Record<FaultKind, number>,
  };
  const log: ProxiedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const waiters = new Set<() => void>();
  let closed = false;

  const choose = (request: { method: string; path: string; body: string }): Fault => {
    for (const rule of queue)
      if (rule.left > 0 && (!rule.match || rule.match(request))) {
        rule.left -= 1;
        queue = queue.filter((one) => one.left > 0);
        return rule.fault;
      }
    if (!standing.match || standing.match(request)) return standing.fault;
    return { kind: 'pass' };
  };

  const readBody = (request: http.IncomingMessage): Promise<Buffer> =>
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      request.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          reject(new Error('request body too large for the fault proxy'));
          request.destroy();
          return;
        }
        chunks.push(chunk);
      });
      request.on('end', () => resolve(Buffer.concat(chunks)));
      request.on('error', reject);
      // The caller went away before its body was complete (killed): nothing is forwarded.
      request.on('close', () => {
        if (!request.complete) reject(new Error('the caller went away before its request was complete'));
      });
    });

  const forward = (
    request: http.IncomingMessage,
    body: Buffer,
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const headers = { ...request.headers, host: upstream.host, 'content-length': String(body.length) };
      delete headers['transfer-encoding'];
      delete headers.connection;
      const outgoing = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: request.method,
          path: request.url,
          headers,
          agent,
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () =>
            resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: Buffer.concat(chunks) }),
          );
          answer.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });

  const reply = (
    response: http.ServerResponse,
    status: number,
    headers: http.OutgoingHttpHeaders,
    body: Buffer | string,
  ): void => {
    if (response.destroyed || response.writableEnded) return;
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    response.writeHead(status, { ...headers, 'content-length': String(bytes.length) });
    response.end(bytes);
    counts.answered += 1;
  };

  const server = http.createServer((request, response) => {
    void (async () => {
      const bodyBytes = await readBody(request);
      const method = request.method ?? 'GET';
      const path = new URL(request.url ?? '/', 'http://proxy').pathname;
      const body = bodyBytes.toString('utf8');
      const fault = choose({ method, path, body });
      counts.received += 1;
      counts.byFault[fault.kind] += 1;
      const entry: ProxiedRequest = {
        seq: counts.received,
        at: Date.now(),
        method,
        path: redactKey(path),
        fault: fault.kind,
        forwarded: false,
        upstreamStatus: null,
        body,
      };
      log.push(entry);
      if (log.length > MAX_LOG) log.splice(0, log.length - MAX_LOG);
      for (const wake of [...waiters]) wake();

      if (fault.kind === 'reset') {
        request.socket.destroy();
        return;
      }
      if (fault.kind === 'fail500') {
        reply(response, 500, { 'content-type': 'text/plain; charset=utf-8' }, 'Internal Server Error');
        return;
      }
      if (fault.kind === 'error') {
        const envelope = {
          return: { status: fault.code, message: fault.message ?? KAVENEGAR_WORDS[fault.code] ?? 'خطا' },
          entries: null,
        };
        reply(response, fault.code, { 'content-type': 'application/json; charset=utf-8' }, JSON.stringify(envelope));
        return;
      }
      counts.forwarded += 1;
      entry.forwarded = true;
      const answer = await forward(request, bodyBytes);
      entry.upstreamStatus = answer.status;
      const headers = { ...answer.headers };
      delete headers['content-length'];
      delete headers['transfer-encoding'];
      delete headers.connection;
      delete headers['keep-alive'];
      if (fault.kind === 'drop') {
        // The provider took the request and answered; the caller's connection goes away unanswered.
        request.socket.destroy();
        return;
      }
      if (fault.kind === 'delay') {
        const timer = setTimeout(() => {
          timers.delete(timer);
          reply(response, answer.status, headers, answer.body);
        }, fault.ms);
        timers.add(timer);
        return;
      }
      reply(response, answer.status, headers, answer.body);
    })().catch((error: unknown) => {
      // The provider could not be reached (stopped, killed): the caller gets a 502, as from a real proxy.
      if (!response.headersSent && !response.destroyed)
        reply(response, 502, { 'content-type': 'text/plain; charset=utf-8' }, `fault proxy: ${String(error)}`);
      else response.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  const matching = (match: Match | undefined) =>
    log.filter((entry) => !match || match({ method: entry.method, path: entry.path, body: entry.body }));

  return {
    url: `http://127.0.0.1:${port}`,
    always(fault, match) {
      standing = { fault, left: Infinity, match };
      queue = [];
    },
    next(count, fault, match) {
      if (!Number.isInteger(count) || count < 1) throw new Error('next() takes a positive count');
      queue.push({ fault, left: count, match });
    },
    pending: () => queue.reduce((sum, rule) => sum + rule.left, 0),
    counts: () => ({ ...counts, byFault: { ...counts.byFault } }),
    log: (match) => matching(match),
    waitFor(count, match, timeoutMs = 30_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (matching(match).length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`fault proxy: ${matching(match).length} of ${count} requests in ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      agent.destroy();
    },
  };
}
