// The HTTP API server (Fastify): JSON parsing that maps every failure to the envelope, the error
// and not-found handlers of spec 7, and the route modules. Listening is the caller's business.
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { Core } from '../core';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import { envelope, sendError } from './envelope';
import { v2SmsRoutes } from './routes/v2-sms';
import { fileRoutes } from './routes/files';
import { healthRoutes } from './routes/health';
import { contactsRoutes } from './routes/contacts';
import { campaignRoutes } from './routes/campaigns';
import { buildOpenApiDocument } from './openapi';

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

/** Spec 7: an unknown path gets the framework's plain text, not the envelope. */
export function sendPlainNotFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).type('text/plain; charset=utf-8').send('404 page not found');
}

/** Large enough for any legitimate request, small enough that a hostile body cannot exhaust memory. */
export const BODY_LIMIT_BYTES = 64 * 1024 * 1024;

export interface HttpOptions {
  core: Core;
  /** Extra route plugins (web UI bridge, later API generations), registered after the API's own. */
  plugins?: Array<(app: FastifyInstance) => Promise<void> | void>;
  logger?: boolean;
}

export async function buildHttpServer({ core, plugins = [], logger = false }: HttpOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    bodyLimit: BODY_LIMIT_BYTES,
    // Trailing slashes are routed too (an old SDK appends one).
    routerOptions: { ignoreTrailingSlash: true },
    return503OnClosing: false,
    forceCloseConnections: true,
    // A URL that cannot be decoded (`/%`) names no path of ours: the plain 404 of spec 7, not
    // Fastify's JSON error.
    frameworkErrors: (_error, request, reply) => notFound(request, reply),
    // A request Node's HTTP parser cannot read (a bad Content-Length, a broken chunk) never reaches
    // a route: it still gets the envelope's 400, not Fastify's own error body.
    clientErrorHandler: (error: NodeJS.ErrnoException, socket) => {
      if (error.code === 'ECONNRESET' || !socket.writable) return socket.destroy();
      const body = JSON.stringify(envelope(ApiCode.BadRequest, []));
      socket.end(
        'HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  });

  // JSON bodies: plain JSON.parse (fast, and our handlers never merge parsed objects into
  // prototypes). A body without a content type is tried as JSON too, as curl users expect.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  const parseJson = (_request: FastifyRequest, body: string, done: (err: Error | null, value?: unknown) => void) => {
    if (body.length === 0) return done(null, undefined);
    try {
      done(null, JSON.parse(body));
    } catch {
      done(new ServiceError(ApiCode.BadRequest, 'body is not valid JSON'));
    }
  };
  app.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string' }, parseJson);
  app.addContentTypeParser('*', { parseAs: 'string' }, parseJson);
  // Form bodies: repeated keys become arrays (campaign segments repeat). A JSON text sent with
  // curl's default form content type is taken as JSON, which is what its sender meant.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (/^\s*[[{]/.test(text)) return parseJson(request, text, done);
    done(null, parseForm(text));
  });
  await app.register(multipart, { limits: { fileSize: BODY_LIMIT_BYTES } });

  app.setErrorHandler((error: FastifyError | ServiceError, request, reply) => {
    // Unknown path or method: the body (malformed, too large) is not what is wrong (spec 7).
    if (request.is404) return notFound(request, reply);
    if (error instanceof ServiceError) return sendError(reply, error.code);
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
      case 'FST_REQ_FILE_TOO_LARGE':
      case 'FST_PARTS_LIMIT':
      case 'FST_FILES_LIMIT':
        return sendError(reply, ApiCode.TooLarge);
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      case 'FST_ERR_VALIDATION':
        return sendError(reply, ApiCode.BadRequest);
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
      return sendError(reply, ApiCode.BadRequest);
    request.log.error(error);
    return reply.code(500).send({ message: 'خطای داخلی سرور؛ لطفا بعدا دوباره تلاش کنید' });
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
  for (const plugin of plugins) await app.register(plugin);

  // Built after every plugin registered its schemas and paths.
  let openapi: Record<string, unknown> | undefined;
  app.get('/openapi.json', async () => (openapi ??= buildOpenApiDocument()));
  return app;
}
