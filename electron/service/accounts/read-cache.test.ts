// The accounts domain's read cache (read-cache.ts): kept between requests, never holding what a
// transaction that may still roll back wrote, and back in use once that transaction has ended.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ReadCache } from './read-cache';

const open: Database.Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

function setUp() {
  const db = new Database(':memory:');
  open.push(db);
  const cache = new ReadCache<string>(db);
  let loads = 0;
  const read = () =>
    cache.get('k', () => {
      loads++;
      return `value ${loads}`;
    });
  return { db, cache, read, loads: () => loads };
}

describe('read cache', () => {
  it('keeps what it loaded until the domain writes', () => {
    const { cache, read, loads } = setUp();
    expect([read(), read()]).toEqual(['value 1', 'value 1']);
    cache.changed();
    expect(read()).toBe('value 2');
    expect(loads()).toBe(2);
  });

  it('keeps nothing while a writing transaction is open, and is used again once it has ended', async () => {
    const { db, cache, read, loads } = setUp();
    read();
    db.transaction(() => {
      cache.changed();
      // Read inside the writing transaction: loaded each time, not kept.
      expect([read(), read()]).toEqual(['value 2', 'value 3']);
    })();
    // Only read inside later transactions (as a send's sender line is, in its group commit).
    await new Promise((resolve) => setImmediate(resolve));
    db.transaction(() => {
      expect([read(), read()]).toEqual(['value 4', 'value 4']);
    })();
    expect(loads()).toBe(4);
  });
});
