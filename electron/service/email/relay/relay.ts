// PLACEHOLDER (lead's seam): the embedded email provider (spec 4.6), written by its helper.
import type { Db } from '../../db/database';
import type { Clock } from '../../clock';
import type { Scheduler } from '../../jobs/scheduler';

export interface EmailRelayOptions {
  db: Db;
  clock: Clock;
  scheduler: Scheduler;
  /** The stored form of a key given in clear (the same keyed hash as the SMS API's keys). */
  hashKey: (key: string) => string;
}

export class EmailRelay {
  constructor(readonly options: EmailRelayOptions) {}
}
