// `npm run serve` on a workspace whose `messages` table was dropped behind the service's back: it
// exits non-zero with what is wrong and the safety backup to go back to, in words, never a bare
// SQLite message nor a stack trace, and leaves the database file as it was.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { Core } from '../electron/service/core';
import { applySeed } from '../electron/service/seed';
import { createBackup } from '../electron/service/workspace/backup';
import { ROOT, tempDir, testSeed } from './helpers/server';

const digest = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

it('serve says what is wrong and which backup to restore, and exits non-zero', async () => {
  const dataDir = tempDir('chapar-damaged-');
  const core = new Core({ dataDir, startScheduler: false });
  applySeed(core, testSeed());
  const backup = await createBackup(core);
  await core.close();
  const file = path.join(dataDir, 'chapar.db');
  const db = new Database(file);
  db.exec('DROP TABLE messages');
  db.close();
  const before = digest(file);

  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(ROOT, 'electron/cli/serve.ts'),
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--data',
      dataDir,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));

  expect(code, output).toBe(1);
  expect(output).toContain(`chapar: Chapar cannot use the workspace's database ${file}`);
  expect(output).toContain('table messages is missing');
  expect(output).toContain(`The newest safety backup is ${backup.path}.`);
  expect(output).toContain(`copy that backup to ${file}`);
  expect(output).not.toContain('listening on');
  expect(output).not.toMatch(/^\s+at /m);
  expect(output).not.toMatch(/^(chapar: )?(SqliteError|no such table)/m);
  expect(digest(file)).toBe(before);
});
