// A long stream of commits (a campaign's batches, a retention run) with the checkpoint thread:
// the log is copied off the writer's thread, and between() keeps it from growing past its limit
// by more than one commit; every committed row is in the database file after a restart.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './database';
import { startBackgroundCheckpoint } from './background-checkpoint';
import { tempDir } from '../../../test/helpers/server';

const opened: Db[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

const MB = 1024 * 1024;

describe('the background checkpoint', () => {
  it('keeps the log under its limit through many commits when the writer calls between()', async () => {
    const file = path.join(tempDir('chapar-checkpoint-'), 'chapar.db');
    const db = openDatabase({ file });
    opened.push(db);
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE rows (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO rows (body) SELECT ? FROM json_each(?)');
    const limit = 2 * MB;
    const checkpoint = startBackgroundCheckpoint(db, 5, limit);
    const body = 'x'.repeat(200);
    const perCommit = JSON.stringify(Array.from({ length: 1_000 }, (_, i) => i));
    let peak = 0;
    // About 40 MB of rows in 200 commits, with the event loop let through between them.
    for (let commit = 0; commit < 200; commit++) {
      db.transaction(() => insert.run(body, perCommit))();
      checkpoint.between();
      peak = Math.max(peak, fs.statSync(`${file}-wal`).size);
      await new Promise((resolve) => setImmediate(resolve));
    }
    // The thread has exited once stop() resolves: nothing checkpoints under the reads below, nor
    // under afterEach's close.
    await checkpoint.stop();
    // One commit writes about 0.3 MB. The writer's PASSIVE copy gives way while the checkpoint
    // thread is copying (both cannot hold the checkpoint lock), so more commits may land before
    // the log starts over, the more so when the thread waits for a core: CI saw 3.6 MB, and
    // 9.6 MB with both cores busy with a second test suite. Without between() it passes 45 MB.
    expect(peak).toBeLessThan(limit + 14 * MB);
    expect(db.prepare('SELECT count(*) AS n FROM rows').get()).toEqual({ n: 200_000 });
  }, 60_000);
});
