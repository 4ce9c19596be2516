// Runs one import through the real path in a fresh child process (bench/support/import-child.ts),
// so its peak RSS is the import's own.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../../test/helpers/server';

export interface ChildResult {
  ms: number;
  status: string;
  valid: number;
  invalid: number;
  total: number;
  peakRssMb: number;
  maxRssMb: number;
}

export function importInChild(dataDir: string, file: string): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'bench/support/import-child.ts'), dataDir, file],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout!.on('data', (data) => (out += data));
    child.stderr!.on('data', (data) => (err += data));
    child.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) return reject(new Error(`import child failed (${code}):\n${err}`));
      resolve(JSON.parse(line) as ChildResult);
    });
  });
}
