// What every API request reads of the accounts domain, kept in memory: the account of an API key
// and a line by its number. Read from SQLite, they were two point queries and the key's HMAC per
// request: about a sixth of a one-message send's time (profiled, issue 34). The domain's own
// writes, the only ones to accounts, api_keys and lines (the credit column aside, which nothing
// cached holds), clear it. A write inside a transaction that may still roll back turns the cache
// off until that transaction has ended, so it never keeps what was not committed.
import type { Db } from '../db/database';

/** Entries kept at most: a flood of distinct keys empties it rather than growing it. */
const MAX_ENTRIES = 10_000;

export class ReadCache<V> {
  private readonly entries = new Map<string, V>();
  /** A write was made inside a transaction not yet seen to end. */
  private unsettled = false;

  constructor(private readonly db: Db) {}

  /** The value under `key`, loaded (and kept, when found) on a miss. */
  get(key: string, load: () => V | undefined): V | undefined {
    if (this.unsettled) return load();
    const kept = this.entries.get(key);
    if (kept !== undefined) return kept;
    const value = load();
    if (value !== undefined) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, value);
    }
    return value;
  }

  /** The domain wrote: nothing kept holds any more. */
  changed(): void {
    this.entries.clear();
    if (this.db.inTransaction && !this.unsettled) {
      this.unsettled = true;
      this.settleLater();
    }
  }

  /**
   * Transactions here are synchronous (better-sqlite3): the one that wrote has ended, committed or
   * rolled back, by the next turn of the event loop (unless another is open then: it waits on).
   * Until then every read loads.
   */
  private settleLater(): void {
    setImmediate(() => {
      if (!this.db.open) return;
      if (this.db.inTransaction) return this.settleLater();
      this.unsettled = false;
    });
  }
}
