// The contacts domain wired together for Core: imports (worker-thread jobs of the job layer),
// segments, uploads and opt-outs, and the scheduler worker that purges removed segments.
import path from 'node:path';
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import type { Scheduler } from '../jobs/scheduler';
import type { Jobs } from '../jobs/jobs';
import type { ReaderPool } from '../db/readers';
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

export function createContacts(
  db: Db,
  clock: Clock,
  dataDir: string,
  scheduler: Scheduler,
  jobs: Jobs,
  closing?: AbortSignal,
  readers?: ReaderPool,
): Contacts {
  let segments: Segments | null = null;
  const imports = new Imports(
    db,
    clock,
    path.join(dataDir, 'chapar.db'),
    jobs,
    () => {
      segments?.schedulePurge();
      scheduler.poke();
    },
    closing,
  );
  segments = new Segments(db, clock, imports, readers ?? null);
  const uploads = new Uploads(db, clock, dataDir, imports, () => scheduler.poke());
  const optouts = new OptOuts(db, clock, imports);
  // Imports a crash or a close interrupted show 'queued' again; core.jobs.recover() requeues their
  // jobs, which continue from the last committed batch.
  imports.recover();
  scheduler.register(segments.purgeWorker());
  return { imports, segments, uploads, optouts };
}
