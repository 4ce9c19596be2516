// Reader connections in worker threads (placeholder of issue 16: the pool's internals are being
// built; this version reads on the calling thread with its own read-only connection).
import Database from 'better-sqlite3';
import { nativeBinding } from './native';

export type SqlParam = string | number | bigint | null | Buffer;

export interface ReaderPoolOptions {
  /** The workspace's database file (WAL). */
  file: string;
  /** Worker threads, each with one read-only connection (default 2). */
  size?: number;
}

export class ReaderPool {
  private db: Database.Database | null = null;

  constructor(private readonly options: ReaderPoolOptions) {}

  private connection(): Database.Database {
    this.db ??= new Database(this.options.file, { readonly: true, fileMustExist: true, nativeBinding: nativeBinding() });
    return this.db;
  }

  /** Every row of a read-only statement. */
  all<T>(sql: string, params: readonly SqlParam[] = []): Promise<T[]> {
    return Promise.resolve(this.connection().prepare(sql).all(...params) as T[]);
  }

  /** The first row, or undefined. */
  get<T>(sql: string, params: readonly SqlParam[] = []): Promise<T | undefined> {
    return Promise.resolve(this.connection().prepare(sql).get(...params) as T | undefined);
  }

  close(): Promise<void> {
    this.db?.close();
    this.db = null;
    return Promise.resolve();
  }
}
