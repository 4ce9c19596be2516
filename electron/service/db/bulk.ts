// Multi-row INSERT for bulk writes: one statement binds up to `rowsPerStatement` rows, which
// costs SQLite and the binding layer far less than one statement run per row. Statements are
// prepared once per chunk size and reused. Call inside the caller's transaction.
import type { Db } from './database';
import type Database from 'better-sqlite3';

export class BulkInsert {
  private readonly statements = new Map<number, Database.Statement>();
  private readonly rowsPerStatement: number;

  /**
   * @param head  `INSERT INTO table (a, b, c)` (or with OR IGNORE / OR REPLACE)
   * @param row   the VALUES tuple of one row, e.g. `(?, ?, 1, ?)`: literals keep the bound count down
   */
  constructor(
    private readonly db: Db,
    private readonly head: string,
    private readonly row: string,
    private readonly paramsPerRow: number,
    rowsPerStatement = 500,
  ) {
    // SQLite binds at most 32,766 parameters per statement.
    this.rowsPerStatement = Math.max(1, Math.min(rowsPerStatement, Math.floor(32_766 / paramsPerRow)));
  }

  /** Inserts rows given as one flat array of parameters (paramsPerRow per row); returns rows written. */
  run(flat: unknown[]): number {
    const rows = flat.length / this.paramsPerRow;
    if (!Number.isInteger(rows)) throw new Error('bulk insert: parameter count is not a multiple of the row width');
    let changes = 0;
    for (let first = 0; first < rows; first += this.rowsPerStatement) {
      const count = Math.min(this.rowsPerStatement, rows - first);
      const args = flat.slice(first * this.paramsPerRow, (first + count) * this.paramsPerRow);
      changes += this.statement(count).run(args).changes;
    }
    return changes;
  }

  private statement(rows: number): Database.Statement {
    let statement = this.statements.get(rows);
    if (!statement) {
      statement = this.db.prepare(`${this.head} VALUES ${new Array<string>(rows).fill(this.row).join(',')}`);
      this.statements.set(rows, statement);
    }
    return statement;
  }
}
