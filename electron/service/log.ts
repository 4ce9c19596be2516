// The service's log: one line per event on the console in `serve`, a rotating file in the workspace
// in the desktop app. Unexpected errors (every 500) land here with the request id the client got in
// `x-request-id`. Secrets never do: authorization headers, cookies, API keys and the web token are
// redacted, URLs lose their query, and request bodies (message texts) are not logged at all.
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { createStream } from 'rotating-file-stream';

export type LogTarget = { kind: 'console' } | { kind: 'file'; dir: string } | { kind: 'silent' };

export const LOG_FILE = 'chapar.log';

/** Paths pino blanks wherever an object carrying them is logged. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'authorization',
  'cookie',
  'token',
  'key',
  'api_key',
  'apiKey',
  'password',
  'body',
  'message_text',
];

interface RequestLike {
  id?: unknown;
  method?: string;
  url?: string;
}

/**
 * A URL without its query: `?token=` (the web UI's start address) and any other parameter stay out;
 * and without a version 1 caller's key, which that API carries in the path (`/v1/{key}/...`).
 */
export function pathOnly(url: string | undefined): string | undefined {
  return url?.split('?')[0]!.replace(/^((?:https?:\/\/[^/]+)?\/v1\/)[^/]+\//, '$1[redacted]/');
}

const serializers = {
  req: (request: RequestLike) => ({ id: request.id, method: request.method, path: pathOnly(request.url) }),
  res: (reply: { statusCode?: number }) => ({ status: reply.statusCode }),
  err: pino.stdSerializers.err,
};

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** `12:00:01 ERROR [req a1b2c3] GET /path: message`, then the error's stack, for people reading a terminal. */
export function conciseLine(record: Record<string, unknown>): string {
  const time = new Date(Number(record['time'])).toISOString().slice(11, 19);
  const level = LEVELS[Number(record['level'])] ?? String(record['level']);
  const req = record['req'] as { method?: string; path?: string } | undefined;
  const reqId = record['reqId'] ?? (record['req'] as { id?: unknown } | undefined)?.id;
  const err = record['err'] as { type?: string; message?: string; stack?: string } | undefined;
  const parts = [time, level];
  if (reqId !== undefined) parts.push(`[req ${String(reqId)}]`);
  if (req?.method) parts.push(`${req.method} ${req.path ?? ''}`);
  let line = parts.join(' ') + `: ${String(record['msg'] ?? '')}`;
  if (err?.message && err.message !== record['msg']) line += ` (${err.message})`;
  if (err?.stack)
    line +=
      '\n  ' +
      err.stack
        .split('\n')
        .slice(1, 6)
        .map((frame) => frame.trim())
        .join('\n  ');
  return line + '\n';
}

export function createLogger(target: LogTarget): Logger {
  const options = {
    level: target.kind === 'silent' ? 'silent' : 'info',
    redact: { paths: REDACT, censor: '[redacted]' },
    serializers,
    base: undefined,
  };
  if (target.kind === 'silent') return pino(options);
  if (target.kind === 'console') {
    const destination = {
      write(line: string) {
        try {
          process.stdout.write(conciseLine(JSON.parse(line) as Record<string, unknown>));
        } catch {
          process.stdout.write(line);
        }
      },
    };
    return pino(options, destination);
  }
  // JSON lines, 5 MB per file, the newest five kept: enough history to find an error a user quotes.
  const stream = createStream(LOG_FILE, { path: path.resolve(target.dir), size: '5M', maxFiles: 5 });
  return pino(options, stream);
}
