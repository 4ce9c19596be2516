// Entry of a reader thread (readers.ts): one read-only connection to the workspace's database,
// answering one query at a time. Each query is its own read transaction on the WAL, so it sees
// what the writer committed before it began and nothing the writer has not committed yet.
// Kept to better-sqlite3 and the audience filter's function (a campaign's filtered count runs
// here): under tsx every module imported here adds to the thread's boot.
import Database from 'better-sqlite3';
import { registerFilterFunction } from '../contacts/filter-match';
import { parentPort, workerData } from 'node:worker_threads';

/** A bound value of a query (readers.ts takes these; this module imports nothing of the pool's). */
export type SqlParam = string | number | bigint | null | Buffer;

export interface ReaderBoot {
  file: string;
  /** Resolved by the main thread: a worker of Electron's main process may not see its resourcesPath. */
  nativeBinding: string | undefined;
  /** Prepared statements kept per thread, by SQL. */
  statements: number;
}

export interface ReaderRequest {
  id: number;
  kind: 'all' | 'get';
  sql: string;
  params: readonly SqlParam[];
}

/** `blobs` says some value is binary: the main thread then turns those back into Buffers. */
export type ReaderAnswer =
  /** Posted once, when the thread has booted. */
  | { ready: true }
  | { id: number; rows: unknown[]; blobs: boolean }
  | { id: number; row: unknown; blobs: boolean }
  | { id: number; error: { message: string; code: string | undefined; name: string } };

const boot = workerData as ReaderBoot;
let db: Database.Database | null = null;
const statements = new Map<string, Database.Statement>();

// Opened on the first query, so a missing file is that query's error (SQLITE_CANTOPEN), not a
// thread that dies at boot and gets replaced in a loop.
function connection(): Database.Database {
  if (db) return db;
  const opened = new Database(boot.file, { readonly: true, fileMustExist: true, nativeBinding: boot.nativeBinding });
  try {
    opened.pragma('busy_timeout = 5000');
    // The writer's page cache size (database.ts), per reader.
    opened.pragma('cache_size = -32000');
    // As the writer (db/database.ts MMAP_BYTES; this thread imports only better-sqlite3).
    opened.pragma('mmap_size = 2147418112');
    opened.pragma('temp_store = MEMORY');
    opened.pragma('query_only = ON');
    registerFilterFunction(opened);
  } catch (error) {
    opened.close();
    throw error;
  }
  return (db = opened);
}

function statement(sql: string): Database.Statement {
  let prepared = statements.get(sql);
  if (prepared) {
    // Most recently used last: the first key is the one to drop.
    statements.delete(sql);
  } else {
    prepared = connection().prepare(sql);
    if (statements.size >= boot.statements) statements.delete(statements.keys().next().value!);
  }
  statements.set(sql, prepared);
  return prepared;
}

/** Buffers arrive as plain Uint8Arrays (structured clone); SQLite binds Buffers as blobs. */
function bindable(params: readonly (SqlParam | Uint8Array)[]): SqlParam[] {
  return params.map((value) =>
    value instanceof Uint8Array && !Buffer.isBuffer(value)
      ? Buffer.from(value.buffer, value.byteOffset, value.byteLength)
      : value,
  );
}

function hasBlob(row: unknown): boolean {
  if (row === null || typeof row !== 'object') return false;
  for (const value of Object.values(row)) if (value instanceof Uint8Array) return true;
  return false;
}

function answer(request: ReaderRequest): ReaderAnswer {
  const { id } = request;
  try {
    const prepared = statement(request.sql);
    const params = bindable(request.params);
    if (request.kind === 'get') {
      const row = prepared.get(...params);
      return { id, row, blobs: hasBlob(row) };
    }
    const rows = prepared.all(...params);
    return { id, rows, blobs: rows.some(hasBlob) };
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    const code = (failure as { code?: unknown }).code;
    return {
      id,
      error: { message: failure.message, code: typeof code === 'string' ? code : undefined, name: failure.name },
    };
  }
}

parentPort!.on('message', (request: ReaderRequest) => parentPort!.postMessage(answer(request)));
parentPort!.postMessage({ ready: true } satisfies ReaderAnswer);
