// PLACEHOLDER (lead's seam): the app's email sends through the relay client, written by its helper.
import type { Db } from '../../db/database';
import type { Clock } from '../../clock';
import type { Jobs } from '../../jobs/jobs';
import type { Segments } from '../../contacts';
import type { Settings } from '../../settings/settings';
import type { SecretStore } from '../../secrets';
import type { EmailRelay } from '../relay/relay';
import type { EmailSend } from '../../../../shared/ipc/contracts/email';

export interface EmailSendsOptions {
  db: Db;
  clock: Clock;
  jobs: Jobs;
  segments: Segments;
  settings: Settings;
  secrets: SecretStore;
  /** The embedded provider: the `sandbox` transport calls it in process. */
  relay: EmailRelay;
  /** A send's counts or state changed. */
  onProgress: (send: EmailSend) => void;
}

export class EmailSends {
  constructor(readonly options: EmailSendsOptions) {}
}
