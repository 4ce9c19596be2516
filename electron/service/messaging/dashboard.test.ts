// The dashboard's "now" over IPC: every value its contract accepts answers figures (a `now` in the
// first week of 1970 or past JavaScript's last date once answered 500: its buckets started before
// the epoch or ended past exact integers); values that mean nothing are refused as input.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { createDispatcher, type IpcDispatcher } from '../ipc/dispatcher';
import { ipcCalls } from '../../../test/helpers/ipc';
import { contracts } from '../../../shared/ipc/contracts';

const DAY = 86_400_000;
let core: Core;
let dispatcher: IpcDispatcher;
const { ok, refused } = ipcCalls(() => dispatcher);

beforeEach(() => {
  core = new Core({ dataDir: tempDir('chapar-dashboard-'), clock: new ManualClock(Date.UTC(2026, 0, 5)) });
  applySeed(core, testSeed());
  dispatcher = createDispatcher(core, { mode: 'web' });
});
afterEach(async () => {
  dispatcher.close();
  await core.close();
});

describe('dashboard:stats now', () => {
  it('refuses a now whose week would start before 1970 or end past the last date', async () => {
    for (const now of [0, 1000, 7 * DAY, 8_640_000_000_000_000, Number.MAX_SAFE_INTEGER])
      expect((await refused('dashboard:stats', { now })).code, String(now)).toBe(400);
  });

  it('answers figures for the earliest and latest now it accepts, at every offset', async () => {
    const now = contracts['dashboard:stats'].input.shape.now.unwrap();
    const earliest = now.minValue!;
    const latest = now.maxValue!;
    for (const at of [earliest, latest])
      for (const utc_offset_minutes of [-840, 0, 210, 840, undefined]) {
        const stats = await ok('dashboard:stats', { now: at, utc_offset_minutes });
        expect(stats.daily[0]!.start).toBeGreaterThanOrEqual(0);
        expect(stats.hourly[23]!.end).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
        expect(stats.daily).toHaveLength(7);
      }
  });
});
