// campaign1m: a campaign to two overlapping 600,000-member inclusion segments minus a
// 200,000-member exclusion segment (800,000 recipients), personalized with one column and one
// tracked link, from its due time to every message recorded, through the real path (scheduler,
// execution job: frozen audience, costs, reservation, batches through the acceptance path). Next to
// the floor measured in the same run: the same message rows written by one raw INSERT … SELECT.
// Each run in a fresh child process, so its peak RSS is the campaign's own.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../../test/helpers/server';
import { median, type BenchCase } from '../case';

const RUNS = 3;

interface ChildResult {
  ms: number;
  messages: number;
  peakRssMb: number;
  /** Its anonymous part (Linux; 0 elsewhere): the rest is the database file, memory-mapped. */
  peakAnonMb: number;
}

function child(dataDir: string, mode: 'case' | 'floor'): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'bench/support/campaign-child.ts'), dataDir, mode],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    proc.stdout!.on('data', (data) => (out += data));
    proc.stderr!.on('data', (data) => (err += data));
    proc.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) return reject(new Error(`campaign child failed (${code}):\n${err}`));
      resolve(JSON.parse(line) as ChildResult);
    });
  });
}

const campaign1m: BenchCase = {
  name: 'campaign1m',
  async run() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chapar-bench-campaign-'));
    try {
      const times: number[] = [];
      const floors: number[] = [];
      const peaks: number[] = [];
      const anonymous: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const result = await child(path.join(dir, `case-${run}`), 'case');
        const floor = await child(path.join(dir, `floor-${run}`), 'floor');
        if (result.messages !== 800_000 || floor.messages !== 800_000)
          throw new Error(`recorded ${result.messages}, floor ${floor.messages}`);
        times.push(result.ms);
        floors.push(floor.ms);
        peaks.push(result.peakRssMb);
        anonymous.push(result.peakAnonMb);
        fs.rmSync(path.join(dir, `case-${run}`), { recursive: true, force: true });
        fs.rmSync(path.join(dir, `floor-${run}`), { recursive: true, force: true });
      }
      const ms = median(times);
      const floorMs = median(floors);
      return {
        name: 'campaign1m',
        ms,
        floorMs,
        ratio: ms / floorMs,
        target: 'ratio <= 2.5, peak RSS < 500 MB (IPC p99 < 100 ms: the responsive case)',
        extra: {
          'messages/s': Math.round(800_000 / (ms / 1000)),
          'peak RSS MB': Math.round(Math.max(...peaks)),
          'of which anonymous MB': Math.round(Math.max(...anonymous)),
        },
      };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default campaign1m;
