// The web UI of `serve`: the built renderer at `/` and the HTTP bridge carrying the IPC contracts
// (POST /bridge/invoke/:channel, server-sent events at GET /bridge/events, downloads of exports
// and backups at GET /bridge/exports/:file and /bridge/backups/:file, a backup upload at POST
// /bridge/backups, a spreadsheet upload for the import wizard at POST /bridge/uploads), all behind
// the start token. The API routes (/v2, /health, ...) are
// registered elsewhere and never see the token.
import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import type { Core } from '../../service/core';
import { createDispatcher, type IpcDispatcher } from '../../service/ipc/dispatcher';
import { sendPlainNotFound } from '../../service/http/server';
import { backupsDir, uploadedBackupPath } from '../../service/workspace/backup';
import { IpcErrorCode, type IpcResult } from '../../../shared/ipc/contract';
import { CONTENT_SECURITY_POLICY } from '../../../shared/security';
import { TOKEN_COOKIE, hasToken, sameToken } from './token';
import { MAX_SPREADSHEET_UPLOAD_BYTES, newUploadPath, sweepUploads, uploadedFile } from './spreadsheets';

/** Every SQLite database file starts with these 16 bytes. */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');
const MAX_BACKUP_UPLOAD_BYTES = 8 * 1024 * 1024 * 1024;

export interface WebUiOptions {
  core: Core;
  token: string;
  /** The built renderer (index.html and assets), or null when there is none. */
  rendererDir: string | null;
  /** Base URL of this server once listening (for settings:get). */
  url: () => string | null;
}

/**
 * Streams a request body into `partial` (never held in memory), refusing more than `maxBytes`;
 * the partial file is removed when it fails. Answers the size and the first 16 bytes.
 */
async function receiveFile(
  body: NodeJS.ReadableStream,
  partial: string,
  maxBytes: number,
): Promise<{ bytes: number; header: Buffer }> {
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
  try {
    await pipeline(body, limit, fs.createWriteStream(partial));
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
  return { bytes, header };
}

function unauthorized(reply: FastifyReply): FastifyReply {
  const result: IpcResult<never> = {
    ok: false,
    error: { code: IpcErrorCode.Unauthorized, message: 'open the web UI with the URL printed by serve (…/?token=…)' },
  };
  return reply.code(401).type('application/json; charset=utf-8').send(result);
}

/** A cross-site page cannot call the bridge: its Origin, when sent, must be this server's. */
function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (!origin) return true;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

function securityHeaders(reply: FastifyReply): void {
  reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-frame-options', 'DENY');
}

export function webUiPlugin(options: WebUiOptions) {
  return async function webUi(app: FastifyInstance): Promise<void> {
    const { core, token } = options;
    const exportsDir = path.join(core.dataDir, 'exports');
    sweepUploads(core);
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

    // ---- the page
    const indexFile = options.rendererDir ? path.join(options.rendererDir, 'index.html') : null;
    const page = async (request: FastifyRequest<{ Querystring: { token?: string } }>, reply: FastifyReply) => {
      securityHeaders(reply);
      const given = request.query.token;
      if (given !== undefined) {
        if (!sameToken(token, given)) return reply.code(401).type('text/plain; charset=utf-8').send('401 wrong token');
        // Trade the token in the address bar for a cookie, and drop it from the address.
        reply.setCookie(TOKEN_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'strict', secure: false });
        return reply.redirect('/', 302);
      }
      if (!hasToken(request, token))
        return reply
          .code(401)
          .type('text/plain; charset=utf-8')
          .send('401: open the web UI with the address serve printed (http://HOST:PORT/?token=...)');
      if (!indexFile || !fs.existsSync(indexFile))
        return reply.code(503).type('text/plain; charset=utf-8').send('503: the web UI is not built (npm run build)');
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
        // A body that is not JSON is a refused call, not the API's envelope.
        errorHandler: (_error, _request, reply) =>
          reply
            .code(400)
            .send({ ok: false, error: { code: IpcErrorCode.InvalidInput, message: 'the body is not valid JSON' } }),
      },
      async (request, reply) => {
        if (!hasToken(request, token) || !sameOrigin(request)) return unauthorized(reply);
        const result = await dispatcher.invoke(request.params.channel, request.body);
        const status = result.ok ? 200 : result.error.code >= 400 && result.error.code < 600 ? result.error.code : 400;
        return reply.code(status).header('cache-control', 'no-store').send(result);
      },
    );

    app.get('/bridge/events', async (request, reply) => {
      if (!hasToken(request, token, true) || !sameOrigin(request)) return unauthorized(reply);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      res.write('retry: 2000\n: connected\n\n');
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
      });
    });

    // Downloads of exports and backups: only plain names of files in those folders.
    const download = (dir: string, pattern: RegExp, type: (name: string) => string) =>
      async function (request: FastifyRequest<{ Params: { file: string } }>, reply: FastifyReply) {
        if (!hasToken(request, token) || !sameOrigin(request)) return unauthorized(reply);
        const name = path.basename(request.params.file);
        const file = path.join(dir, name);
        if (name !== request.params.file || !pattern.test(name) || !fs.existsSync(file))
          return sendPlainNotFound(reply);
        return reply
          .type(type(name))
          .header('content-disposition', `attachment; filename="${name}"`)
          .header('cache-control', 'no-store')
          .send(fs.createReadStream(file));
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
      uploads.post('/bridge/backups', async (request, reply) => {
        if (!hasToken(request, token) || !sameOrigin(request)) return unauthorized(reply);
        const body = request.body as NodeJS.ReadableStream | undefined;
        const refuse = (message: string) =>
          reply.code(400).send({ ok: false, error: { code: IpcErrorCode.InvalidInput, message } });
        if (!body || typeof body.pipe !== 'function') return refuse('send the backup file as application/octet-stream');
        const file = uploadedBackupPath(core);
        const partial = `${file}.part`;
        let received: { bytes: number; header: Buffer };
        try {
          received = await receiveFile(body, partial, MAX_BACKUP_UPLOAD_BYTES);
        } catch (error) {
          return refuse(error instanceof Error ? error.message : String(error));
        }
        const { bytes, header } = received;
        if (!header.equals(SQLITE_HEADER)) {
          fs.rmSync(partial, { force: true });
          return refuse('not a SQLite database');
        }
        fs.renameSync(partial, file);
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
      uploads.post<{ Querystring: { name?: string } }>('/bridge/uploads', async (request, reply) => {
        if (!hasToken(request, token) || !sameOrigin(request)) return unauthorized(reply);
        const body = request.body as NodeJS.ReadableStream | undefined;
        const refuse = (message: string) =>
          reply.code(400).send({ ok: false, error: { code: IpcErrorCode.InvalidInput, message } });
        if (!body || typeof body.pipe !== 'function') return refuse('send the file as application/octet-stream');
        const file = newUploadPath(core, request.query.name ?? 'spreadsheet');
        const partial = `${file}.part`;
        let bytes: number;
        try {
          ({ bytes } = await receiveFile(body, partial, MAX_SPREADSHEET_UPLOAD_BYTES));
        } catch (error) {
          return refuse(error instanceof Error ? error.message : String(error));
        }
        fs.renameSync(partial, file);
        const name = path.basename(file);
        return reply
          .header('cache-control', 'no-store')
          .send({ ok: true, value: { file: name, name: name.slice(17), bytes } });
      });
    });
  };
}
