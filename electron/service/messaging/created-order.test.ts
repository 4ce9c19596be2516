import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase, type Db } from '../db/database';
import { CreatedOrder } from './created-order';
import { tempDir } from '../../../test/helpers/server';

let dir: string;
let db: Db;
beforeAll(() => {
  dir = tempDir('chapar-created-');
  db = openDatabase({ file: path.join(dir, 'chapar.db') });
});
afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function fill(createdAt: Array<[id: number, seconds: number]>) {
  db.exec(`DELETE FROM messages; DELETE FROM sends; DELETE FROM lines; DELETE FROM accounts;
    INSERT INTO accounts (id, name, created_at) VALUES (1, 'acme', 0);
    INSERT INTO lines (id, account_id, number, provider, created_at) VALUES (1, 1, '3000', 'sms', 0);
    INSERT INTO sends (id, account_id, line_id, sender, provider, text, pages, origin, message_count, total_rials, created_at)
      VALUES (1, 1, 1, '3000', 'sms', 'hi', 1, 'api', 1, 0, 0);`);
  const insert = db.prepare(
    "INSERT INTO messages (id, send_id, account_id, receptor, status, cost_rials, created_at) VALUES (?, 1, 1, '09120000000', 1, 0, ?)",
  );
  db.transaction(() => createdAt.forEach(([id, seconds]) => insert.run(id, seconds)))();
}

describe('ids in creation order', () => {
  it('finds the same bounds as a scan would, with gaps in ids and many messages per second', () => {
    // Ids with gaps (deleted messages), several messages per second, seconds skipped.
    const rows: Array<[number, number]> = [];
    let id = 5;
    let seconds = 1_000;
    for (let i = 0; i < 3_000; i++) {
      id += 1 + (i % 7 === 0 ? 40 : 0);
      if (i % 3 === 0) seconds += i % 11 === 0 ? 9 : 1;
      rows.push([id, seconds]);
    }
    fill(rows);
    const order = new CreatedOrder(db);
    const scanFirst = db.prepare<[number], { id: number | null }>(
      'SELECT MIN(id) AS id FROM messages WHERE created_at >= ?',
    );
    const scanLast = db.prepare<[number], { id: number | null }>(
      'SELECT MAX(id) AS id FROM messages WHERE created_at < ?',
    );
    for (let at = 990; at <= seconds + 3; at++) {
      expect(order.firstIdFrom(at), `from ${at}`).toBe(scanFirst.get(at)!.id);
      expect(order.lastIdBefore(at), `before ${at}`).toBe(scanLast.get(at)!.id);
    }
  });

  it('answers null on an empty table', () => {
    fill([]);
    const order = new CreatedOrder(db);
    expect(order.firstIdFrom(0)).toBeNull();
    expect(order.lastIdBefore(2_000_000_000)).toBeNull();
  });
});
