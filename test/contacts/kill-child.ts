// Child process of the crash test: opens a Core on the given data folder, starts importing the
// given file and prints each progress event as a JSON line, until the test kills it (SIGKILL).
import { Core } from '../../electron/service/core';
import { applySeed } from '../../electron/service/seed';
import { testSeed } from '../helpers/server';

const [dataDir, file] = process.argv.slice(2);
if (!dataDir || !file) throw new Error('usage: kill-child.ts DATA_DIR FILE');
const core = new Core({ dataDir });
applySeed(core, testSeed());
const account = core.accounts.findByName('acme')!;
const started = await core.imports.start(account.id, { file, name: 'big' }, (progress) => {
  process.stdout.write(JSON.stringify(progress) + '\n');
});
process.stdout.write(JSON.stringify({ started }) + '\n');
