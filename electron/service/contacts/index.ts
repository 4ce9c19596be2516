// The contacts domain wired together for Core: imports (worker-thread jobs), segments, uploads
// and opt-outs, and their two scheduler workers (import jobs, purge of removed segments).
import path from 'node:path';
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import type { Scheduler } from '../scheduler/scheduler';
import { Imports } from './imports';
import { Segments } from './segments';
import { Uploads } from './uploads';
import { OptOuts } from './optouts';

export { Imports, Segments, Uploads, OptOuts };

export interface Contacts {
  imports: Imports;
  segments: Segments;
  uploads: Uploads;
  optouts: OptOuts;
}

export function createContacts(db: Db, clock: Clock, dataDir: string, scheduler: Scheduler): Contacts {
  let segments: Segments | null = null;
  const imports = new Imports(
    db,
    clock,
    path.join(dataDir, 'chapar.db'),
    () => scheduler.poke(),
    () => {
      segments?.schedulePurge();
      scheduler.poke();
    },
  );
  segments = new Segments(db, clock, imports);
  const uploads = new Uploads(db, clock, dataDir, imports, () => scheduler.poke());
  const optouts = new OptOuts(db, clock, imports);
  // Jobs a crash left running continue from their last committed batch.
  imports.recover();
  scheduler.register(imports.schedulerWorker());
  scheduler.register(segments.purgeWorker());
  return { imports, segments, uploads, optouts };
}
