// Reader connections in worker threads. better-sqlite3 is synchronous: a long read on the main
// thread holds the HTTP API and IPC until it ends. The writer stays on the main thread; reads that
// may take long go to a small pool of threads, each with one read-only connection (as Signal
// Desktop's SQL layer does), and the main thread only waits for a message.
//
// Threads start on the first query that finds none idle (about 0.2 s of CPU under tsx, tens of
// milliseconds from the bundle), never more than `size`; an idle one is unreferenced, so it never holds the process
// open. Queries wait their turn in order. A thread that dies (a crash, terminate(), out of memory)
// is dropped and the query it ran is tried once more on a fresh thread: reads are idempotent.
import Database from 'better-sqlite3';
import type { Worker } from 'node:worker_threads';
import { nativeBinding } from './native';
import { startWorkerThread } from '../worker-thread';
import type { ReaderAnswer, ReaderBoot, ReaderRequest, SqlParam } from './reader-worker';

// Defined beside the thread's entry, which must not import the pool back.
export type { SqlParam };

export interface ReaderPoolOptions {
  /** The workspace's database file (WAL). */
  file: string;
  /** Worker threads, each with one read-only connection (default 2). */
  size?: number;
  /**
   * A query still running after this many milliseconds is rejected (code `reader_timeout`) and its
   * thread terminated (default: none). SQLite cannot be stopped mid-statement from outside: the
   * thread ends, and its CPU comes back, only when the statement returns.
   */
  timeoutMs?: number;
  /** Prepared statements kept per thread (default 200). */
  statements?: number;
}

/** The pool's own failures; a query's SQLite errors keep their class (Database.SqliteError) and code. */
export class ReaderError extends Error {
  override name = 'ReaderError';
  constructor(
    readonly code: 'reader_closed' | 'reader_died' | 'reader_timeout',
    message: string,
  ) {
    super(message);
  }
}

export interface ReaderStats {
  /** Threads alive in the pool now. */
  threads: number;
  /** Of them, running a query. */
  busy: number;
  /** Queries waiting for a thread. */
  queued: number;
  /** Threads started since the pool was made. */
  started: number;
  /** Threads that died under a query (replaced by the next query). */
  died: number;
}

interface Job {
  request: ReaderRequest;
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** Runs so far that ended in a dead thread. */
  deaths: number;
  timer?: NodeJS.Timeout;
}

interface Reader {
  worker: Worker;
  job: Job | null;
  /** Booted: a timeout counts the query's time, not the thread's boot. */
  ready: boolean;
  /** The thread's uncaught error, if any, named when its query is given up. */
  failure?: Error;
}

export class ReaderPool {
  private readonly size: number;
  private readonly readers: Reader[] = [];
  private readonly queue: Job[] = [];
  /** Threads being terminated that left the pool (a timed-out query): close() waits for them too. */
  private readonly leaving = new Set<Promise<number>>();
  private nextId = 1;
  private closed = false;
  private started = 0;
  private died = 0;

  constructor(private readonly options: ReaderPoolOptions) {
    this.size = Math.max(1, options.size ?? 2);
  }

  /** Every row of a read-only statement. */
  all<T>(sql: string, params: readonly SqlParam[] = []): Promise<T[]> {
    return this.run('all', sql, params) as Promise<T[]>;
  }

  /** The first row, or undefined. */
  get<T>(sql: string, params: readonly SqlParam[] = []): Promise<T | undefined> {
    return this.run('get', sql, params) as Promise<T | undefined>;
  }

  /**
   * A keyset query page by page, for reads too large for one message (exports): `params(last)`
   * binds the page after `last` (undefined for the first page), and the SQL returns at most
   * `pageSize` rows; a shorter page is the last. Each page is its own read transaction: a page
   * sees what was committed before it began.
   */
  async *pages<T>(
    sql: string,
    params: (last: T | undefined) => readonly SqlParam[],
    pageSize: number,
  ): AsyncGenerator<T[], void, undefined> {
    let last: T | undefined;
    for (;;) {
      const rows = await this.all<T>(sql, params(last));
      if (rows.length > 0) yield rows;
      if (rows.length < pageSize) return;
      last = rows[rows.length - 1];
    }
  }

  /** The live threads (for tests: one can be terminated to see the pool recover). */
  get threads(): readonly Worker[] {
    return this.readers.map((reader) => reader.worker);
  }

  stats(): ReaderStats {
    return {
      threads: this.readers.length,
      busy: this.readers.filter((reader) => reader.job).length,
      queued: this.queue.length,
      started: this.started,
      died: this.died,
    };
  }

  /** Rejects the queued and running queries, then ends every thread. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const closedError = () => new ReaderError('reader_closed', 'the reader pool is closed');
    for (const job of this.queue.splice(0)) this.settle(job, closedError());
    const exits: Promise<number>[] = [...this.leaving];
    for (const reader of this.readers.splice(0)) {
      if (reader.job) this.settle(reader.job, closedError());
      reader.job = null;
      exits.push(reader.worker.terminate());
    }
    await Promise.all(exits);
  }

  private run(kind: ReaderRequest['kind'], sql: string, params: readonly SqlParam[]): Promise<unknown> {
    if (this.closed) return Promise.reject(new ReaderError('reader_closed', 'the reader pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ request: { id: this.nextId++, kind, sql, params }, resolve, reject, deaths: 0 });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0 && !this.closed) {
      let reader = this.readers.find((candidate) => !candidate.job);
      try {
        reader ??= this.spawn();
      } catch (error) {
        // No thread can start (its entry is missing from a broken build): the query fails, loudly.
        this.settle(this.queue.shift()!, error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      if (!reader) return;
      this.assign(reader, this.queue.shift()!);
    }
  }

  private spawn(): Reader | undefined {
    if (this.readers.length >= this.size) return undefined;
    const boot: ReaderBoot = {
      file: this.options.file,
      nativeBinding: nativeBinding(),
      statements: this.options.statements ?? 200,
    };
    const reader: Reader = {
      worker: startWorkerThread('reader-worker', { workerData: boot }),
      job: null,
      ready: false,
    };
    this.started++;
    reader.worker.on('message', (answer: ReaderAnswer) => {
      if ('ready' in answer) {
        reader.ready = true;
        if (reader.job) this.startTimer(reader, reader.job);
      } else this.answered(reader, answer);
    });
    // Without a listener an uncaught error in the thread would be thrown on the main thread.
    reader.worker.on('error', (error) => (reader.failure = error));
    reader.worker.on('exit', (code) => this.exited(reader, code));
    this.readers.push(reader);
    return reader;
  }

  private assign(reader: Reader, job: Job): void {
    reader.job = job;
    reader.worker.ref();
    if (reader.ready) this.startTimer(reader, job);
    reader.worker.postMessage(job.request);
  }

  private startTimer(reader: Reader, job: Job): void {
    const { timeoutMs } = this.options;
    if (timeoutMs !== undefined) job.timer = setTimeout(() => this.timedOut(reader, job), timeoutMs);
  }

  private answered(reader: Reader, answer: Exclude<ReaderAnswer, { ready: true }>): void {
    const job = reader.job;
    if (!job || job.request.id !== answer.id) return;
    reader.job = null;
    reader.worker.unref();
    if ('error' in answer) this.settle(job, sqlError(answer.error));
    else if ('rows' in answer) this.settle(job, null, answer.blobs ? answer.rows.map(withBuffers) : answer.rows);
    else this.settle(job, null, answer.blobs ? withBuffers(answer.row) : answer.row);
    this.dispatch();
  }

  private exited(reader: Reader, code: number): void {
    const index = this.readers.indexOf(reader);
    if (index < 0) return; // closed, or left the pool on a timeout
    this.readers.splice(index, 1);
    const job = reader.job;
    reader.job = null;
    if (job) {
      this.died++;
      clearTimeout(job.timer);
      job.deaths++;
      if (job.deaths < 2) this.queue.unshift(job);
      else {
        const cause = reader.failure ? `: ${reader.failure.message}` : ` (exit code ${code})`;
        this.settle(job, new ReaderError('reader_died', `two reader threads died running this query${cause}`));
      }
    }
    this.dispatch();
  }

  private timedOut(reader: Reader, job: Job): void {
    if (reader.job !== job) return;
    const index = this.readers.indexOf(reader);
    if (index >= 0) this.readers.splice(index, 1);
    reader.job = null;
    this.settle(job, new ReaderError('reader_timeout', `the read took over ${this.options.timeoutMs} ms`));
    // It ends when its statement returns; it must not hold the process open meanwhile.
    reader.worker.unref();
    const exit = reader.worker.terminate();
    this.leaving.add(exit);
    void exit.finally(() => this.leaving.delete(exit));
    this.dispatch();
  }

  private settle(job: Job, error: Error | null, value?: unknown): void {
    clearTimeout(job.timer);
    if (error) job.reject(error);
    else job.resolve(value);
  }
}

/** A query's error as the writer's connection would have thrown it. */
function sqlError(error: { message: string; code: string | undefined; name: string }): Error {
  if (error.code) return new Database.SqliteError(error.message, error.code);
  const plain = new Error(error.message);
  plain.name = error.name;
  return plain;
}

/** Blobs come back from the thread as plain Uint8Arrays; the writer's connection gives Buffers. */
function withBuffers(row: unknown): unknown {
  if (row === null || typeof row !== 'object') return row;
  const record = row as Record<string, unknown>;
  for (const [key, value] of Object.entries(record))
    if (value instanceof Uint8Array && !Buffer.isBuffer(value))
      record[key] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  return row;
}
