// The web UI of `serve`: the built renderer at `/` and the HTTP bridge carrying the IPC contracts
// (POST /bridge/invoke/:channel, server-sent events at GET /bridge/events, downloads of exports
// and backups at GET /bridge/exports/:file and /bridge/backups/:file, a backup upload at POST
// /bridge/backups, a spreadsheet upload for the import wizard at POST /bridge/uploads, and the
// browser's session at /bridge/session), all behind the start token or a browser session derived
// from it (token.ts). The API routes (/v2, /health, ...) are registered elsewhere and never see
// the token.
//
// Every refusal happens in an onRequest hook, before a byte of the body is read: a request for
// another host name (DNS rebinding), without credentials, from another site, or an invoke that is
// not JSON costs the server nothing, however large its body.
import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import type { Core } from '../../service/core';
import { ServiceError } from '../../service/errors';
import { createDispatcher, type IpcDispatcher } from '../../service/ipc/dispatcher';
import { sendPlainNotFound } from '../../service/http/server';
import { escapeHtml, requestLanguage, visitorPage, type VisitorLanguage } from '../../service/http/dead-link-page';
import { backupsDir, uploadedBackupPath } from '../../service/workspace/backup';
import { discardPartial } from '../../service/files/partial-file';
import { IpcErrorCode, type IpcResult } from '../../../shared/ipc/contract';
import { ApiCode } from '../../../shared/status';
import { CONTENT_SECURITY_POLICY } from '../../../shared/security';
import { SESSION_COOKIE, WebSessions, bearerToken, sameToken } from './token';
import { MAX_SPREADSHEET_UPLOAD_BYTES, newUploadPath, sweepUploads, uploadedFile } from './spreadsheets';

/** Every SQLite database file starts with these 16 bytes. */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');
const MAX_BACKUP_UPLOAD_BYTES = 8 * 1024 * 1024 * 1024;

/**
 * The largest invoke body. The largest legitimate input is a compose of 100,000 pasted numbers in
 * their longest common form (`+۹۸ ۹۱۲ ۱۲۳۴۵۶۷`: Persian digits, one a line), about 2.9 MB as JSON
 * (test/web-security.test.ts sends it); every other contract is bounded far below that.
 */
export const BRIDGE_BODY_LIMIT_BYTES = 4 * 1024 * 1024;

/** The names every server answers to, whatever address it was started for. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '::1'];

const PLAIN_TEXT = 'text/plain; charset=utf-8';
/**
 * What a browser without a valid session is shown: a page in its language (the web UI's language
 * cookie, else Accept-Language), Persian right to left, saying which address signs it in; the
 * address itself reads left to right in either. `wrong`: it came with a token that is not this
 * workspace's (an address from another data folder, or mistyped).
 */
export function signInPage(language: VisitorLanguage, host: string, wrong = false): string {
  const address = `http://${escapeHtml(host || 'HOST:PORT')}/?token=…`;
  return language === 'fa'
    ? visitorPage('fa', wrong ? 'این نشانی برای ورود درست نیست' : 'این مرورگر وارد نشده است', {
        paragraphs: ['پنل را با نشانی‌ای باز کنید که چاپار هنگام شروع چاپ کرد:'],
        address,
        hint: 'این نشانی برای هر پوشهٔ داده یکی است و با شروع دوبارهٔ چاپار عوض نمی‌شود. هر ورود ۳۰ روز می‌ماند، مگر آنکه در مرورگر دیگری «خروج مرورگرهای دیگر» زده شود.',
      })
    : visitorPage('en', wrong ? 'This address does not sign in' : 'This browser is not signed in', {
        paragraphs: ['Open the web UI with the address Chapar printed when it started:'],
        address,
        hint: 'That address stays the same for a data folder when Chapar restarts. A sign-in lasts 30 days, unless "Sign out other browsers" is used in another browser.',
      });
}

export interface WebUiOptions {
  core: Core;
  token: string;
  /** The address the server was started for (serve --host); loopback names are always allowed. */
  host?: string;
  /** The built renderer (index.html and assets), or null when there is none. */
  rendererDir: string | null;
  /** Base URL of this server once listening (for settings:get). */
  url: () => string | null;
  /** How long a browser stays signed in (default 30 days); tests shorten it. */
  sessionLifetimeMs?: number;
  /** Wall time for sessions (tests move it). */
  now?: () => number;
}

/**
 * Streams an upload's body into `file`: as `file.part`, renamed once whole and accepted by
 * `check` (which throws what is wrong). The workspace's close waits for it, or stops it and the
 * part is closed, then removed (workspace/writers.ts). Resolves with the bytes received.
 */
function receiveFile(
  core: Core,
  body: NodeJS.ReadableStream,
  file: string,
  maxBytes: number,
  check: (header: Buffer) => void = () => undefined,
): Promise<number> {
  return core.writers.run(async (signal) => {
    const partial = `${file}.part`;
    fs.mkdirSync(path.dirname(partial), { recursive: true });
    let bytes = 0;
    let header = Buffer.alloc(0);
    const limit = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        if (header.length < 16) header = Buffer.concat([header, chunk]).subarray(0, 16);
        callback(bytes > maxBytes ? new Error('the file is too large (too_large)') : null, chunk);
      },
    });
    const written = fs.createWriteStream(partial);
    try {
      await pipeline(body, limit, written, { signal });
      check(header);
    } catch (error) {
      await discardPartial(written, partial);
      throw error;
    }
    fs.renameSync(partial, file);
    return bytes;
  });
}

/** A refusal in the bridge's own shape (the transport hands it to the caller as the call's error). */
function refuse(reply: FastifyReply, status: number, code: number, message: string, reason?: string): FastifyReply {
  const result: IpcResult<never> = { ok: false, error: { code, message, ...(reason ? { reason } : {}) } };
  return reply.code(status).type('application/json; charset=utf-8').header('cache-control', 'no-store').send(result);
}

function unauthorized(reply: FastifyReply): FastifyReply {
  return refuse(
    reply,
    401,
    IpcErrorCode.Unauthorized,
    'this browser is not signed in: open the web UI with the URL printed by serve (…/?token=…)',
    'signed_out',
  );
}

/** The host name of a Host header, without its port, lower case; '' when there is none. */
export function hostName(header: string | undefined): string {
  if (!header) return '';
  const host = header.trim().toLowerCase();
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d*$/, '');
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

/**
 * The host names this server answers to: loopback, and the address it was started for. Started
 * for every address (0.0.0.0, ::), those are the addresses of this machine's interfaces. A DNS
 * rebinding attack comes with the attacker's own domain name as its Host, never one of these.
 */
function allowedHostNames(configured: string | undefined): () => Set<string> {
  const fixed = new Set(LOOPBACK_NAMES);
  const host = configured ? hostName(configured.includes(':') ? `[${configured}]` : configured) : '';
  if (host) fixed.add(host);
  if (host !== '0.0.0.0' && host !== '::') return () => fixed;
  return () => {
    const names = new Set(fixed);
    for (const addresses of Object.values(os.networkInterfaces()))
      for (const address of addresses ?? []) names.add(address.address.toLowerCase().replace(/%.*$/, ''));
    return names;
  };
}

/** A cross-site page cannot call the bridge: its Origin must be this server's. */
function sameOrigin(origin: string, host: string | undefined): boolean {
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

/** An invoke's body: JSON only (forms and plain text are what another site's page can post). */
function isJson(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

function securityHeaders(reply: FastifyReply): void {
  reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-frame-options', 'DENY');
}

/** Bodies stream in, past the request's usual time limit (the HTTP server's upload mode). */
const UPLOAD = { config: { upload: true } };

export function webUiPlugin(options: WebUiOptions) {
  return async function webUi(app: FastifyInstance): Promise<void> {
    const { core, token } = options;
    const exportsDir = path.join(core.dataDir, 'exports');
    sweepUploads(core);
    const sessions = new WebSessions({
      token,
      dataDir: core.dataDir,
      lifetimeMs: options.sessionLifetimeMs,
      now: options.now,
    });
    const dispatcher: IpcDispatcher = createDispatcher(core, {
      mode: 'web',
      uploadedFile: (name) => uploadedFile(core, name),
      exportUrl: (fileName) => `/bridge/exports/${encodeURIComponent(fileName)}`,
      backupUrl: (fileName) => `/bridge/backups/${encodeURIComponent(fileName)}`,
      httpApi: { url: options.url, canToggle: false },
      log: (message, error) => app.log.error({ err: error }, message),
    });
    app.addHook('onClose', async () => dispatcher.close());

    await app.register(cookie);

    const signedIn = (request: FastifyRequest) => sessions.valid(request.cookies[SESSION_COOKIE]);
    const setSession = (reply: FastifyReply) =>
      reply.setCookie(SESSION_COOKIE, sessions.issue(), {
        path: '/',
        httpOnly: true,
        sameSite: 'strict',
        secure: false,
        maxAge: Math.floor(sessions.lifetimeMs / 1000),
      });

    // ---- the gate: the page, the assets and the bridge, before any body is read
    const hostNames = allowedHostNames(options.host);
    app.addHook('onRequest', async (request, reply) => {
      if (!hostNames().has(hostName(request.headers.host)))
        return reply
          .code(421)
          .type(PLAIN_TEXT)
          .send('421: this server does not answer to that host name; use the address Chapar printed.\n');
      // The route, not the URL: a path written another way (`/%62ridge/...`) reaches the same route.
      const route = request.routeOptions.url ?? '';
      if (!route.startsWith('/bridge/')) return;
      const { origin, authorization } = request.headers;
      if (origin !== undefined && !sameOrigin(origin, request.headers.host))
        return refuse(reply, 403, 403, 'a request from another site');
      const bearer = bearerToken(authorization, token);
      const query = request.query as Record<string, unknown> | undefined;
      // EventSource cannot send headers: scripts holding the token may pass it in the query.
      const queryToken =
        route === '/bridge/events' && typeof query?.['token'] === 'string' ? sameToken(token, query['token']) : false;
      if (!bearer && !queryToken && !signedIn(request)) return unauthorized(reply);
      // A change made with the cookie alone must come from a page: browsers send Origin with
      // every POST, so one without it is a tool replaying a stolen cookie, or worse.
      if (request.method !== 'GET' && request.method !== 'HEAD' && !bearer && origin === undefined)
        return refuse(reply, 403, 403, 'a change with the session cookie needs the Origin header');
      if (route === '/bridge/invoke/:channel' && !isJson(request.headers['content-type']))
        return refuse(reply, 415, IpcErrorCode.InvalidInput, 'send the input as application/json');
    });

    // ---- the page
    const indexFile = options.rendererDir ? path.join(options.rendererDir, 'index.html') : null;
    const signIn = (request: FastifyRequest, reply: FastifyReply, wrong: boolean) => {
      const language = requestLanguage(request.headers);
      return reply
        .code(401)
        .type('text/html; charset=utf-8')
        .header('content-language', language)
        .header('vary', 'accept-language, cookie')
        .header('cache-control', 'no-store')
        .send(signInPage(language, request.headers.host ?? '', wrong));
    };
    const page = async (request: FastifyRequest<{ Querystring: { token?: string } }>, reply: FastifyReply) => {
      securityHeaders(reply);
      const given = request.query.token;
      if (given !== undefined) {
        if (!sameToken(token, given)) return signIn(request, reply, true);
        // Trade the token in the address bar for a session cookie, and drop it from the address.
        setSession(reply);
        return reply.redirect('/', 302);
      }
      if (!signedIn(request) && !bearerToken(request.headers.authorization, token))
        return signIn(request, reply, false);
      if (!indexFile || !fs.existsSync(indexFile))
        return reply.code(503).type(PLAIN_TEXT).send('503: the web UI is not built (npm run build)');
      reply.header('cache-control', 'no-store');
      return reply.type('text/html; charset=utf-8').send(fs.createReadStream(indexFile));
    };
    app.get('/', page);
    app.get('/index.html', page);

    // ---- the renderer's assets: public (no data in them); one route per file, so the API's
    // unknown-path answers stay as the spec wants them.
    if (options.rendererDir && fs.existsSync(options.rendererDir)) {
      await app.register(fastifyStatic, {
        root: options.rendererDir,
        prefix: '/',
        wildcard: false,
        index: false,
        globIgnore: ['index.html', '**/.*'],
        decorateReply: false,
        setHeaders: (reply) => {
          reply.header('x-content-type-options', 'nosniff');
        },
      });
    }

    // ---- the bridge
    app.post<{ Params: { channel: string } }>(
      '/bridge/invoke/:channel',
      {
        bodyLimit: BRIDGE_BODY_LIMIT_BYTES,
        // A body that is not JSON (or too large) is a refused call, not the API's envelope.
        errorHandler: (error: { statusCode?: number }, _request, reply) =>
          error.statusCode === 413 || (error instanceof ServiceError && error.code === ApiCode.TooLarge)
            ? refuse(reply, 413, ApiCode.TooLarge, 'the input is too large')
            : refuse(reply, 400, IpcErrorCode.InvalidInput, 'the body is not valid JSON'),
      },
      async (request, reply) => {
        const result = await dispatcher.invoke(request.params.channel, request.body, (message, error) =>
          request.log.error({ err: error }, message),
        );
        const status = result.ok ? 200 : result.error.code >= 400 && result.error.code < 600 ? result.error.code : 400;
        return reply.code(status).header('cache-control', 'no-store').send(result);
      },
    );

    // The event streams open now, with the session cookie each came with (null: the token).
    const streams = new Map<ServerResponse, string | null>();
    app.get('/bridge/events', async (request, reply) => {
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      res.write('retry: 2000\n: connected\n\n');
      const session = signedIn(request) ? request.cookies[SESSION_COOKIE]! : null;
      streams.set(res, session);
      const unsubscribe = dispatcher.services.events.subscribe((event, payload) => {
        // A client that stopped reading is dropped rather than buffered without bound.
        if (res.writableLength > 32 * 1024 * 1024) return res.destroy();
        res.write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`);
      });
      const heartbeat = setInterval(() => res.write(': ping\n\n'), 15_000);
      heartbeat.unref();
      res.on('close', () => {
        clearInterval(heartbeat);
        unsubscribe();
        streams.delete(res);
      });
    });

    // ---- the browser's session: whether it is signed in (the transport asks when its event
    // stream breaks and the server is there), and "sign out other browsers".
    app.get('/bridge/session', async (_request, reply) => reply.code(204).header('cache-control', 'no-store').send());
    app.post('/bridge/session/rotate', async (request, reply) => {
      const mine = request.cookies[SESSION_COOKIE];
      sessions.rotate();
      // The other browsers' event streams end now (this browser's stays: its pages hold it).
      for (const [stream, session] of streams) if (session !== null && session !== mine) stream.end();
      setSession(reply);
      return reply.header('cache-control', 'no-store').send({ ok: true, value: null });
    });

    // Downloads of exports and backups: only plain names of files in those folders.
    const download = (dir: string, pattern: RegExp, type: (name: string) => string) =>
      async function (request: FastifyRequest<{ Params: { file: string } }>, reply: FastifyReply) {
        const name = path.basename(request.params.file);
        const file = path.join(dir, name);
        if (name !== request.params.file || !pattern.test(name) || !fs.existsSync(file))
          return sendPlainNotFound(reply);
        return (
          reply
            .type(type(name))
            // A name beyond ASCII (a Persian campaign's report) goes as RFC 6266's filename*.
            .header(
              'content-disposition',
              `attachment; filename="${name.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
            )
            .header('cache-control', 'no-store')
            .send(fs.createReadStream(file))
        );
      };
    app.get(
      '/bridge/exports/:file',
      download(exportsDir, /\.(csv|xlsx)$/, (name) =>
        name.endsWith('.csv')
          ? 'text/csv; charset=utf-8'
          : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      ),
    );
    app.get(
      '/bridge/backups/:file',
      download(backupsDir(core), /\.db$/, () => 'application/vnd.sqlite3'),
    );

    // A backup from another computer: the raw file as the body, written to the backups folder
    // (restored afterwards with backup:restore, which checks it). Streamed, never held in memory.
    await app.register(async (uploads) => {
      uploads.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));
      uploads.post('/bridge/backups', UPLOAD, async (request, reply) => {
        const body = request.body as NodeJS.ReadableStream | undefined;
        const invalid = (message: string) => refuse(reply, 400, IpcErrorCode.InvalidInput, message);
        if (!body || typeof body.pipe !== 'function')
          return invalid('send the backup file as application/octet-stream');
        const file = uploadedBackupPath(core);
        let bytes: number;
        try {
          bytes = await receiveFile(core, body, file, MAX_BACKUP_UPLOAD_BYTES, (header) => {
            if (!header.equals(SQLITE_HEADER)) throw new Error('not a SQLite database');
          });
        } catch (error) {
          return invalid(error instanceof Error ? error.message : String(error));
        }
        const value = {
          path: file,
          bytes,
          created_at: core.clock.now(),
          url: `/bridge/backups/${encodeURIComponent(path.basename(file))}`,
        };
        return reply.header('cache-control', 'no-store').send({ ok: true, value });
      });

      // A spreadsheet for the import wizard: the raw file as the body, its name in ?name=. The
      // answer's `file` is what imports:preview / imports:start / optouts:import take.
      uploads.post<{ Querystring: { name?: string } }>('/bridge/uploads', UPLOAD, async (request, reply) => {
        const body = request.body as NodeJS.ReadableStream | undefined;
        const invalid = (message: string) => refuse(reply, 400, IpcErrorCode.InvalidInput, message);
        if (!body || typeof body.pipe !== 'function') return invalid('send the file as application/octet-stream');
        const file = newUploadPath(core, request.query.name ?? 'spreadsheet');
        let bytes: number;
        try {
          bytes = await receiveFile(core, body, file, MAX_SPREADSHEET_UPLOAD_BYTES);
        } catch (error) {
          return invalid(error instanceof Error ? error.message : String(error));
        }
        const name = path.basename(file);
        return reply
          .header('cache-control', 'no-store')
          .send({ ok: true, value: { file: name, name: name.slice(17), bytes } });
      });
    });
  };
}
