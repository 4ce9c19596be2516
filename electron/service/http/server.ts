// The HTTP API server (Fastify): JSON parsing that maps every failure to the envelope, the error
// and not-found handlers of spec 7, and the route modules. Hostile traffic is bounded here too:
// deadlines and a cap on connections (connection-guard.ts), bodies read only once the path and the
// key are known and parsed only within their route's size and shape (json-body.ts), and every
// unexpected error logged with the request id its answer carries. Listening is the caller's business.
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import multipart from '@fastify/multipart';
import type { Logger } from 'pino';
import type { Core } from '../core';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import { envelope, refusalCode, sendError, sendInternalError } from './envelope';
import { BODY_LIMIT_BYTES, OUTBOX_PATH, sendPlainNotFound } from './context';
import { v2SmsRoutes } from './routes/v2-sms';
import { fileRoutes } from './routes/files';
import { healthRoutes } from './routes/health';
import { gatewayReportRoutes } from './routes/gateway-reports';
import { contactsRoutes } from './routes/contacts';
import { campaignRoutes } from './routes/campaigns';
import { v1ApiRoutes } from './v1';
import { v1Envelope } from './v1/envelope';
import { v3Routes } from './routes/v3';
import { emailRelayRoutes } from './email/routes';
import { buildOpenApiDocument } from './openapi';
import { DEFAULT_LIMITS, guardedServerFactory, installBodyWatchdog, type ConnectionLimits } from './connection-guard';
import {
  DEFAULT_JSON_SHAPE,
  OFF_THREAD_JSON_BYTES,
  UnparsedJson,
  checkShape,
  readJsonBytes,
  type BodyRefusal,
} from './json-body';
import { createLogger } from '../log';

export function parseForm(text: string): Record<string, string | string[]> {
  const form: Record<string, string | string[]> = Object.create(null);
  for (const [key, value] of new URLSearchParams(text)) {
    const existing = form[key];
    if (existing === undefined) form[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else form[key] = [existing, value];
  }
  return form;
}

/** `http://host:port/path?query` → `/path?query`; an origin-form target is returned as it is. */
export function originForm(url: string): string {
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url);
  if (!absolute) return url;
  const rest = url.slice(absolute[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

// Defined in context.ts, which the route modules import instead of this file.
export { BODY_LIMIT_BYTES, OUTBOX_PATH, sendPlainNotFound };

/**
 * Bodies read whole (JSON, forms) of routes that set no limit of their own: the bridge's calls, a
 * campaign's JSON. A send of 10,000 receivers is about 200 KB and sets 1 MB; the contact upload
 * sets more (routes/contacts.ts).
 */
export const DEFAULT_BODY_LIMIT_BYTES = 4 * 1024 * 1024;

const NOT_IMPLEMENTED = JSON.stringify({ error: 'not implemented yet' });

export interface HttpOptions {
  core: Core;
  /** Extra route plugins (web UI bridge, later API generations), registered after the API's own. */
  plugins?: Array<(app: FastifyInstance) => Promise<void> | void>;
  /** Where unexpected errors go (createLogger in ../log); silent when absent. */
  logger?: Logger;
  /** Deadlines and caps of connections; tests shorten them. */
  limits?: Partial<ConnectionLimits>;
}

/** The method and path of the request a parser error interrupted, when its first bytes are at hand. */
function requestLine(error: { rawPacket?: unknown }): { method: string; path: string } | null {
  if (!Buffer.isBuffer(error.rawPacket)) return null;
  const match = /^([A-Z]{1,20}) (\S+) HTTP\/1\.[01]\r?\n/.exec(error.rawPacket.subarray(0, 8192).toString('latin1'));
  return match ? { method: match[1]!, path: match[2]!.split('?')[0]! } : null;
}

/**
 * A whole response written on a socket Node's parser gave up on; HEAD gets the head only. The
 * socket is closed a moment later even if the client never closes its side (a slow-header
 * attacker would otherwise keep it half open).
 */
function rawAnswer(socket: Socket, method: string | undefined, status: string, type: string, body: string): void {
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${method === 'HEAD' ? '' : body}`,
  );
  setTimeout(() => socket.destroy(), RAW_ANSWER_GRACE_MS).unref();
}

/** Request ids come from a pool: a randomBytes() call per request was a system call, about 20 µs (profiled). */
const ID_BYTES = 6;
const ID_POOL = 4096;
let idPool = Buffer.alloc(0);
let idAt = 0;

/** 6 random bytes in hex, from a pool refilled 682 ids at a time. */
export function requestId(): string {
  if (idAt + ID_BYTES > idPool.length) {
    idPool = randomBytes(ID_POOL);
    idAt = 0;
  }
  idAt += ID_BYTES;
  return idPool.toString('hex', idAt - ID_BYTES, idAt);
}

/** Time a client has to read a raw answer before its socket is closed. */
const RAW_ANSWER_GRACE_MS = 1_000;

export async function buildHttpServer({ core, plugins = [], logger, limits }: HttpOptions): Promise<FastifyInstance> {
  const connectionLimits: ConnectionLimits = { ...DEFAULT_LIMITS, ...limits };
  const app = Fastify({
    loggerInstance: logger ?? createLogger({ kind: 'silent' }),
    // Only what goes wrong is logged: a line per request would bury the 500s (and name paths).
    logController: new LogController({ disableRequestLogging: true }),
    // Random, so the id a user quotes from `x-request-id` finds one line; never taken from the client.
    genReqId: requestId,
    requestIdHeader: false,
    serverFactory: guardedServerFactory(connectionLimits),
    bodyLimit: DEFAULT_BODY_LIMIT_BYTES,
    // Trailing slashes are routed too (an old SDK appends one).
    routerOptions: { ignoreTrailingSlash: true },
    // An absolute-form request target (`POST http://host/v1/...`, what the previous provider's Node
    // client sends) is routed by its path, as a server behind that host name would.
    rewriteUrl: (request) => originForm(request.url ?? '/'),
    return503OnClosing: false,
    forceCloseConnections: true,
    // A URL that cannot be decoded (`/%`) names no path of ours: the plain 404 of spec 7, not
    // Fastify's JSON error.
    frameworkErrors: (_error, request, reply) => notFound(request, reply),
    // A request Node's HTTP parser cannot read (a bad Content-Length, a broken chunk, headers too
    // large) never reaches a route: it still gets the envelope's 400, not Fastify's own error body;
    // the outbox keeps its 501 (spec 7) and HEAD gets no body.
    clientErrorHandler: (error: NodeJS.ErrnoException & { rawPacket?: unknown }, socket) => {
      if (error.code === 'ECONNRESET' || !socket.writable) return socket.destroy();
      const line = requestLine(error);
      if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
        return rawAnswer(
          socket,
          line?.method,
          '408 Request Timeout',
          'text/plain; charset=utf-8',
          '408 request timeout',
        );
      if (line?.method === 'POST' && line.path.replace(/\/$/, '') === OUTBOX_PATH)
        return rawAnswer(
          socket,
          line.method,
          '501 Not Implemented',
          'application/json; charset=utf-8',
          NOT_IMPLEMENTED,
        );
      // The embedded email provider answers its own bare {"message"}, not the envelope.
      if (line !== null && /^\/v2\/accounts\//.test(originForm(line.path)))
        return rawAnswer(
          socket,
          line.method,
          '400 Bad Request',
          'application/json; charset=utf-8',
          JSON.stringify({ message: 'the HTTP request could not be read' }),
        );
      // A version 1 path keeps that provider's error shape (a raw Persian letter in its query, say).
      const v1 = line !== null && /^\/v1\//.test(originForm(line.path));
      const body = JSON.stringify(v1 ? v1Envelope(ApiCode.BadRequest) : envelope(ApiCode.BadRequest, []));
      rawAnswer(socket, line?.method, '400 Bad Request', 'application/json; charset=utf-8', body);
    },
  }) as unknown as FastifyInstance;

  // Every answer carries its request id, so a user can quote it and the log line be found.
  // (Hooks on every request take a callback, not a promise: one microtask less each.)
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  installBodyWatchdog(app, connectionLimits);
  // An unknown path or method is answered before its body is read (spec 7: the plain 404/405 does
  // not depend on the body), so nobody can make the server read and parse a body for nothing.
  app.addHook('onRequest', (request, reply, done) => {
    // Answered here: a hook that answers does not go on (done is not called).
    if (request.is404) return void notFound(request, reply);
    done();
  });

  function refusal(verdict: BodyRefusal): ServiceError {
    if (verdict === 'too_large' || verdict === 'too_many')
      return new ServiceError(ApiCode.TooLarge, `body ${verdict.replace('_', ' ')}`);
    return new ServiceError(ApiCode.BadRequest, `body ${verdict.replace('_', ' ')}`);
  }

  // JSON bodies: plain JSON.parse (fast, and our handlers never merge parsed objects into
  // prototypes). A body without a content type is tried as JSON too, as curl users expect.
  // Read and counted as it arrives (json-body.ts): a body of too many values is refused before the
  // rest of it is read, and what is parsed is bounded by its route's shape.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  // A large body on a route that parses off the main thread reaches it unparsed (a text is counted
  // at two bytes a character, what Persian takes).
  const parseJson = (
    request: FastifyRequest,
    source: Buffer | string,
    done: (err: Error | null, value?: unknown) => void,
  ) => {
    const size = typeof source === 'string' ? source.length * 2 : source.length;
    // (Fastify's routeOptions is a getter that builds an object: read it only for a large body.)
    if (size > OFF_THREAD_JSON_BYTES && request.routeOptions.config?.jsonOffThread)
      return done(null, new UnparsedJson(source));
    if (source.length === 0) return done(null, undefined);
    try {
      done(null, JSON.parse(typeof source === 'string' ? source : source.toString('utf8')));
    } catch {
      done(new ServiceError(ApiCode.BadRequest, 'body is not valid JSON'));
    }
  };
  const readJson = (request: FastifyRequest, payload: Readable, done: (err: Error | null, value?: unknown) => void) => {
    const route = request.routeOptions;
    const limits = {
      maxBytes: route.bodyLimit ?? DEFAULT_BODY_LIMIT_BYTES,
      shape: route.config?.json ?? DEFAULT_JSON_SHAPE,
    };
    readJsonBytes(payload, Number(request.headers['content-length']), limits, (refused, bytes) => {
      if (refused) return done(refusal(refused));
      parseJson(request, bytes!, done);
    });
  };
  app.addContentTypeParser(['application/json', 'text/plain'], readJson);
  app.addContentTypeParser('*', readJson);
  // Form bodies: repeated keys become arrays (campaign segments repeat). A JSON text sent with
  // curl's default form content type is taken as JSON, which is what its sender meant.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (/^\s*[[{]/.test(text)) {
      const verdict = checkShape(text, request.routeOptions.config?.json ?? DEFAULT_JSON_SHAPE);
      return verdict === 'ok' ? parseJson(request, text, done) : done(refusal(verdict));
    }
    done(null, parseForm(text));
  });
  await app.register(multipart, { limits: { fileSize: BODY_LIMIT_BYTES } });

  app.setErrorHandler((error: FastifyError | ServiceError, request, reply) => {
    // Unknown path or method: the body (malformed, too large) is not what is wrong (spec 7).
    if (request.is404) return notFound(request, reply);
    const code = refusalCode(error);
    if (code !== null) return sendError(reply, code);
    request.log.error({ err: error, req: request }, 'unexpected error');
    return sendInternalError(reply);
  });

  // Spec 7: unknown paths and methods get the framework's plain text, not the envelope; a known
  // path asked with another method is 405 with the methods it does take.
  const routes: Array<{ method: string; pattern: RegExp }> = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const pattern = new RegExp(
      '^' +
        route.url
          .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
          .replace(/:[^/]+/g, '[^/]+')
          .replace(/\*/g, '.*') +
        '/?$',
    );
    for (const method of methods) routes.push({ method: String(method).toUpperCase(), pattern });
  });
  function notFound(request: FastifyRequest, reply: FastifyReply) {
    const path = request.url.split('?')[0]!;
    const allowed = [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))];
    if (allowed.length > 0 && !allowed.includes(request.method))
      return reply
        .code(405)
        .header('allow', allowed.join(', '))
        .type('text/plain; charset=utf-8')
        .send('405 method not allowed');
    return sendPlainNotFound(reply);
  }
  app.setNotFoundHandler(notFound);

  await app.register(healthRoutes);
  await app.register(v2SmsRoutes, { core });
  await app.register(fileRoutes, { core });
  await app.register(contactsRoutes, { core });
  await app.register(campaignRoutes, { core });
  await app.register(v1ApiRoutes, { core });
  await app.register(v3Routes, { core });
  await app.register(emailRelayRoutes, { core });
  await app.register(gatewayReportRoutes, { core });
  for (const plugin of plugins) await app.register(plugin);

  // Built after every plugin registered its schemas and paths.
  let openapi: Record<string, unknown> | undefined;
  app.get('/openapi.json', async () => (openapi ??= buildOpenApiDocument()));
  return app;
}
