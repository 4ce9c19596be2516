// Slow and numerous connections: a request's headers and body must arrive in bounded time, and the
// number of open connections is capped with a clear refusal, so a caller trickling bytes (with or
// without credentials) cannot hold the server's sockets and file handles until /health and real
// clients are turned away. Node's own defaults close slow headers only after 60 s + 30 s and never
// time out a trickled body; its requestTimeout is one value for every route, and uploads of
// gigabytes need another rule (a minimum rate) than a send of 100 KB (a deadline).
import fs from 'node:fs';
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface ConnectionLimits {
  /** Headers (and an idle new connection's first bytes) must arrive within this time. */
  headersTimeoutMs: number;
  /** A body (not an upload) must be complete this long after its headers. */
  bodyTimeoutMs: number;
  /** Uploads (routes with `config: { upload: true }`) must move at least this fast, averaged over a window. */
  uploadMinBytesPerSecond: number;
  uploadWindowMs: number;
  /** How often deadlines are checked: a violation is caught at most this late. */
  checkIntervalMs: number;
  /** An idle kept-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Connections beyond this are answered 503 and closed. */
  maxConnections: number;
  /** Request headers above this are refused by Node's parser (431-style, via the client error handler). */
  maxHeaderBytes: number;
}

/** Production values; tests pass shorter ones through buildHttpServer's `limits`. */
export const DEFAULT_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 30_000,
  // 16 KB/s over 30 s: a slow office link uploading a backup passes, a trickle of bytes does not.
  uploadMinBytesPerSecond: 16 * 1024,
  uploadWindowMs: 30_000,
  checkIntervalMs: 1_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: defaultMaxConnections(),
  maxHeaderBytes: 16 * 1024,
};

/**
 * 8,000 connections, or fewer when the process may open fewer files (each connection is one file
 * handle; the database, logs and uploads need some too). Linux tells its limit in /proc; elsewhere
 * Node has already raised the soft limit to the hard one at start.
 */
function defaultMaxConnections(): number {
  const wanted = 8_000;
  try {
    const limits = fs.readFileSync('/proc/self/limits', 'utf8');
    const match = /^Max open files\s+(\d+)/m.exec(limits);
    if (match) return Math.max(256, Math.min(wanted, Number(match[1]) - 1_024));
  } catch {
    // Not Linux: keep the default.
  }
  return wanted;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A streaming upload: held to a minimum transfer rate instead of the body deadline. */
    upload?: boolean;
  }
}

const REFUSAL_BODY = '503 too many connections; try again shortly';
const REFUSAL =
  'HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nRetry-After: 5\r\n' +
  `Content-Length: ${Buffer.byteLength(REFUSAL_BODY)}\r\nConnection: close\r\n\r\n${REFUSAL_BODY}`;

/**
 * Fastify's `serverFactory`: Node's HTTP server with the header deadline checked every
 * `checkIntervalMs`, and a gate in front of its connection handler that refuses connections
 * beyond the cap before any byte of theirs is parsed.
 */
export function guardedServerFactory(limits: ConnectionLimits) {
  return (handler: http.RequestListener): http.Server => {
    const server = http.createServer(
      {
        headersTimeout: limits.headersTimeoutMs,
        // Bodies are timed by the watchdog (per route); Node's one deadline would cut uploads.
        requestTimeout: 0,
        connectionsCheckingInterval: limits.checkIntervalMs,
        maxHeaderSize: limits.maxHeaderBytes,
        keepAliveTimeout: limits.keepAliveTimeoutMs,
      },
      handler,
    );
    const [accept] = server.listeners('connection') as Array<(socket: Socket) => void>;
    if (accept) {
      server.removeListener('connection', accept);
      let open = 0;
      server.on('connection', (socket: Socket) => {
        if (open >= limits.maxConnections) {
          socket.on('error', () => socket.destroy());
          socket.end(REFUSAL);
          // A client that never reads its refusal does not keep the handle either.
          setTimeout(() => socket.destroy(), 1_000).unref();
          return;
        }
        open++;
        socket.once('close', () => open--);
        lingerOnClose(socket, () => current.get(socket));
        accept.call(server, socket);
      });
    }
    const current = new WeakMap<Socket, http.IncomingMessage>();
    server.on('request', (request: http.IncomingMessage) => current.set(request.socket, request));
    return server;
  };
}

/** How long a connection closed after an early answer keeps reading what its client still sends. */
const LINGER_MS = 5_000;

/**
 * A lingering close, as nginx and Apache do it. An answer given before its body was read (a body
 * over its route's limit: the framework closes such a connection) used to be followed at once by
 * a close with the client's bytes still arriving, so the kernel reset the connection, and a client
 * that had not read its answer yet lost it: it saw "connection reset" instead of the 414. Node
 * closes after such an answer through `destroySoon`; here the server half-closes instead, reads
 * and drops the rest for at most LINGER_MS, and closes when the client does.
 */
function lingerOnClose(socket: Socket, request: () => http.IncomingMessage | undefined): void {
  const destroySoon = socket.destroySoon.bind(socket);
  socket.destroySoon = () => {
    const unread = request();
    if (!unread || unread.complete || !socket.writable) return destroySoon();
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('end', () => {
      clearTimeout(timer);
      socket.destroy();
    });
    socket.resume();
  };
}

interface Watched {
  startedAt: number;
  /** Its route streams an upload (read at the first check: Fastify's routeOptions builds an object). */
  upload: (() => boolean) | boolean;
  windowStart: number;
  windowBytes: number;
}

/**
 * The body watchdog: an onRequest hook notes each request whose body has not fully arrived, and
 * one timer destroys the socket of any that overstays: past `bodyTimeoutMs` for ordinary routes,
 * or slower than the minimum rate over a window for uploads. It reads `complete` and the socket's
 * `bytesRead` only: a 'data' listener would take the body's chunks from the route.
 */
export function installBodyWatchdog(app: FastifyInstance, limits: ConnectionLimits): void {
  const watched = new Map<http.IncomingMessage, Watched>();
  const check = () => {
    const now = Date.now();
    for (const [raw, entry] of watched) {
      const socket = raw.socket;
      if (raw.complete || !socket || socket.destroyed) {
        watched.delete(raw);
        continue;
      }
      if (typeof entry.upload === 'function') entry.upload = entry.upload();
      let late: boolean;
      if (!entry.upload) late = now - entry.startedAt > limits.bodyTimeoutMs;
      else if (now - entry.windowStart < limits.uploadWindowMs) continue;
      else {
        const moved = socket.bytesRead - entry.windowBytes;
        late = moved < (limits.uploadMinBytesPerSecond * (now - entry.windowStart)) / 1000;
        entry.windowStart = now;
        entry.windowBytes = socket.bytesRead;
      }
      if (late) {
        watched.delete(raw);
        socket.destroy();
      }
    }
  };
  let timer: NodeJS.Timeout | undefined;
  app.server.on('listening', () => {
    timer ??= setInterval(check, limits.checkIntervalMs);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
  app.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    const raw = request.raw;
    if (!raw.complete) {
      const now = Date.now();
      watched.set(raw, {
        startedAt: now,
        upload: () => request.routeOptions.config?.upload === true,
        windowStart: now,
        windowBytes: raw.socket?.bytesRead ?? 0,
      });
      // Let go of it once its body is in. Kept until the timer's sweep (checkIntervalMs), a busy
      // second's requests all outlived V8's young generation and were promoted, to be collected
      // again as old: the largest single cost a one-message send had (issue 34).
      raw.once('end', () => watched.delete(raw));
    }
    done();
  });
}
