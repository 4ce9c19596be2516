// The opt-out list of each account (PRODUCT.md): numbers on it are left out of uploads, imports
// and segment unions / differences, and of campaign audiences; a direct send to one ends as 14
// (the gateway reads the same table). Importable from a spreadsheet and exportable as CSV.
//
// Public API (core.optouts):
//   add(accountId, phones)                  -> {added, invalid: string[]} (lenient normalization)
//   remove(accountId, phones)               -> number removed
//   list(accountId, {offset, limit, search}) -> {total, items: {phone, created_at}[]} ordered by phone
//   count(accountId) / has(accountId, phone)
//   filter(accountId, phones)               -> the given (normalized) numbers that are opted out
//   importFile(accountId, request, onProgress?) -> Promise<{jobId}> (a worker-thread job; wait with core.imports.wait)
//   exportCsv(accountId, file) / export(accountId, file, 'csv' | 'xlsx') -> Promise<{rows}>
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import { normalizePhone, phoneSearchDigits } from '../../../shared/phone';
import { escapeLike } from '../db/text-match';
import type { ImportProgress, ImportRequest } from '../../../shared/contacts';
import type { Imports } from './imports';

/** IN lists are chunked (STYLE.md) well below SQLite's parameter limit. */
const CHUNK = 500;

export class OptOuts {
  private hasStmt: Statement<[number, string], number> | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly imports: Imports,
  ) {}

  add(accountId: number, phones: readonly string[]): { added: number; invalid: string[] } {
    const invalid: string[] = [];
    const insert = this.db.prepare('INSERT OR IGNORE INTO optouts (account_id, phone, created_at) VALUES (?, ?, ?)');
    const now = this.clock.now();
    let added = 0;
    this.db.transaction(() => {
      for (const raw of phones) {
        const phone = normalizePhone(raw);
        if (phone === null) invalid.push(raw);
        else added += insert.run(accountId, phone, now).changes;
      }
    })();
    return { added, invalid };
  }

  remove(accountId: number, phones: readonly string[]): number {
    const normalized = phones.map((raw) => normalizePhone(raw)).filter((phone): phone is string => phone !== null);
    let removed = 0;
    this.db.transaction(() => {
      for (let i = 0; i < normalized.length; i += CHUNK) {
        const chunk = normalized.slice(i, i + CHUNK);
        removed += this.db
          .prepare(`DELETE FROM optouts WHERE account_id = ? AND phone IN (${chunk.map(() => '?').join(',')})`)
          .run(accountId, ...chunk).changes;
      }
    })();
    return removed;
  }

  /** A page of the list in number order; `search` matches a part of the number in any digit form. */
  list(
    accountId: number,
    { offset = 0, limit = 100, search }: { offset?: number; limit?: number; search?: string } = {},
  ): { total: number; items: Array<{ phone: string; created_at: number }> } {
    const take = Math.min(Math.max(Math.trunc(limit), 0), 10_000);
    const skip = Math.max(Math.trunc(offset), 0);
    const term = search?.trim() ?? '';
    if (term === '') {
      const items = this.db
        .prepare<[number, number, number], { phone: string; created_at: number }>(
          'SELECT phone, created_at FROM optouts WHERE account_id = ? ORDER BY phone LIMIT ? OFFSET ?',
        )
        .all(accountId, take, skip);
      return { total: this.count(accountId), items };
    }
    // Not a number at all: nothing on the list can match.
    const digits = phoneSearchDigits(term);
    if (digits === null) return { total: 0, items: [] };
    const like = `%${escapeLike(digits)}%`;
    const total = this.db
      .prepare<[number, string], number>(
        "SELECT count(*) FROM optouts WHERE account_id = ? AND phone LIKE ? ESCAPE '\\'",
      )
      .pluck()
      .get(accountId, like)!;
    const items = this.db
      .prepare<[number, string, number, number], { phone: string; created_at: number }>(
        "SELECT phone, created_at FROM optouts WHERE account_id = ? AND phone LIKE ? ESCAPE '\\' ORDER BY phone LIMIT ? OFFSET ?",
      )
      .all(accountId, like, take, skip);
    return { total, items };
  }

  count(accountId: number): number {
    return (
      this.db.prepare<[number], number>('SELECT count(*) FROM optouts WHERE account_id = ?').pluck().get(accountId) ?? 0
    );
  }

  has(accountId: number, phone: string): boolean {
    const normalized = normalizePhone(phone);
    if (normalized === null) return false;
    // Asked for every message the lifecycle hands over: prepared once.
    this.hasStmt ??= this.db
      .prepare<[number, string], number>('SELECT 1 FROM optouts WHERE account_id = ? AND phone = ?')
      .pluck();
    return this.hasStmt.get(accountId, normalized) !== undefined;
  }

  filter(accountId: number, phones: readonly string[]): string[] {
    const found: string[] = [];
    for (let i = 0; i < phones.length; i += CHUNK) {
      const chunk = phones.slice(i, i + CHUNK);
      found.push(
        ...this.db
          .prepare<unknown[], string>(
            `SELECT phone FROM optouts WHERE account_id = ? AND phone IN (${chunk.map(() => '?').join(',')})`,
          )
          .pluck()
          .all(accountId, ...chunk),
      );
    }
    return found;
  }

  importFile(
    accountId: number,
    request: ImportRequest,
    onProgress?: (progress: ImportProgress) => void,
  ): Promise<{ jobId: number }> {
    return this.imports.startOptOuts(accountId, request, onProgress);
  }

  exportCsv(accountId: number, file: string, onProgress?: (rows: number) => void): Promise<{ rows: number }> {
    return this.export(accountId, file, 'csv', onProgress);
  }

  export(
    accountId: number,
    file: string,
    format: 'csv' | 'xlsx',
    onProgress?: (rows: number, total: number) => void,
  ): Promise<{ rows: number }> {
    const total = this.count(accountId);
    return this.imports.export({ kind: 'optouts', accountId, file, format }, (rows) => onProgress?.(rows, total));
  }
}
