// The core as in-process tests make it: a temporary workspace, a manual clock, no scheduler and the
// test seed, closed after each test (a failed test included), so no test leaves a database open.
import { afterEach } from 'vitest';
import { Core } from '../../electron/service/core';
import { ManualClock } from '../../electron/service/clock';
import { applySeed, type Seed } from '../../electron/service/seed';
import { tempDir, testSeed } from './server';

export interface TestCoreOptions {
  /** A new temporary folder unless given (a restart opens the same one again). */
  dataDir?: string;
  /** A new ManualClock unless given. */
  clock?: ManualClock;
  startScheduler?: boolean;
  /** testSeed() unless given; false applies none. */
  seed?: Seed | false;
}

export interface TestCores {
  /** A core made as `options` say, closed after the test. */
  open(options?: TestCoreOptions): Core;
  /** Closes after the test a core the test made itself. */
  track(core: Core): Core;
  /** Forgets a core the test closes itself (a restart), so it is not closed twice. */
  release(core: Core): void;
}

/** Registers the afterEach that closes this file's cores; call once, at the top of the file. */
export function testCores(): TestCores {
  const cores: Core[] = [];
  afterEach(async () => {
    for (const core of cores.splice(0)) await core.close();
  });
  const track = (core: Core): Core => {
    cores.push(core);
    return core;
  };
  return {
    open(options = {}) {
      const core = track(
        new Core({
          dataDir: options.dataDir ?? tempDir(),
          clock: options.clock ?? new ManualClock(),
          startScheduler: options.startScheduler ?? false,
        }),
      );
      // Tracked before the seed: a seed that throws still leaves the core to be closed.
      if (options.seed !== false) applySeed(core, options.seed ?? testSeed());
      return core;
    },
    track,
    release(core) {
      const index = cores.indexOf(core);
      if (index >= 0) cores.splice(index, 1);
    },
  };
}
