// One temporary folder for a whole test run. Every test file, every `serve` it starts and every
// browser it drives makes its temporary folders under the system's temporary folder (os.tmpdir(),
// TMPDIR); pointed here, they are all removed when the run ends, whatever a test left behind
// (a failed test's workspace, a killed child's output). Without it a run of the suite left about
// 400 folders and 1.2 GB in the system's temporary folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Set while a run's folder is in use: each project of the run runs this setup, the first one makes it. */
const MARK = 'CHAPAR_SUITE_TMP';

export default function setup(): () => void {
  if (process.env[MARK]) return () => {};
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chapar-suite-'));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  process.env[MARK] = dir;
  return () => {
    delete process.env[MARK];
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  };
}
