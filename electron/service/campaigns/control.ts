// The controls of a running (or scheduled) execution: pause, resume and cancel. Each answers with
// the execution's report; an execution that has ended takes none (400).
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import type { Jobs } from '../jobs/jobs';
import type { Credit } from '../accounts/credit';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import { FINAL_EXECUTION_STATUSES, type ExecutionReport } from '../../../shared/campaigns';
import type { CampaignStore, ExecutionRow } from './store';
import type { Executions } from './execution';
import type { Reports } from './reports';

export interface ControlDeps {
  db: Db;
  clock: Clock;
  jobs: Jobs;
  credit: Credit;
  store: CampaignStore;
  executions: Executions;
  reports: Reports;
  /** After the execution's state changed. */
  onChange: (executionId: number) => void;
}

export class ExecutionControl {
  private readonly db: Db;

  constructor(private readonly deps: ControlDeps) {
    this.db = deps.db;
  }

  /** Stops sending: the run ends after its current batch, messages not yet due stay in 2 until resume. */
  pause(accountId: number, executionId: number): ExecutionReport {
    const execution = this.openExecution(accountId, executionId);
    if (execution.paused === 0) {
      const now = this.deps.clock.now();
      this.db.transaction(() => {
        this.db.prepare('UPDATE campaign_executions SET paused = 1, paused_at = ? WHERE id = ?').run(now, execution.id);
        this.deps.executions.withdrawFuture(execution.id, now);
      })();
      if (execution.job_id !== null) this.deps.jobs.cancel(execution.job_id);
      this.deps.onChange(execution.id);
    }
    return this.deps.reports.report(accountId, executionId);
  }

  resume(accountId: number, executionId: number): ExecutionReport {
    const execution = this.openExecution(accountId, executionId);
    if (execution.paused === 1) {
      const now = this.deps.clock.now();
      const campaign = this.deps.store.campaign.get(execution.campaign_id)!;
      this.db.transaction(() => {
        this.db.prepare('UPDATE campaign_executions SET paused = 0, paused_at = NULL WHERE id = ?').run(execution.id);
        this.deps.executions.replanHeld(execution, campaign, now);
        this.deps.executions.enqueue(execution.id, execution.status === 'SCHEDULED' ? execution.send_at : now);
      })();
      this.deps.onChange(execution.id);
    }
    return this.deps.reports.report(accountId, executionId);
  }

  /**
   * Ends the execution CANCELLED: nothing more is recorded, what it still held is released, and its
   * messages not handed to the carrier yet end 13, refunded (by a job, so a crash halfway finishes
   * the sweep on the next start; a small execution is swept at once).
   */
  cancel(accountId: number, executionId: number): ExecutionReport {
    const execution = this.openExecution(accountId, executionId);
    const { executions } = this.deps;
    const now = this.deps.clock.now();
    this.db.transaction(() => {
      if (execution.reservation_id !== null) this.deps.credit.release(execution.reservation_id);
      this.deps.store.finish(execution.id, 'CANCELLED', null, now);
      if (execution.job_id !== null) this.deps.jobs.cancel(execution.job_id);
      executions.enqueue(execution.id, now);
    })();
    // The queued sweep finds nothing left to do after this one.
    if (execution.recorded <= 20_000) for (const _step of executions.sweepSteps(execution.id));
    this.deps.onChange(execution.id);
    return this.deps.reports.report(accountId, executionId);
  }

  /** The account's execution, or 400 when unknown or ended. */
  private openExecution(accountId: number, executionId: number): ExecutionRow {
    const execution = this.deps.reports.execution(accountId, executionId);
    if (FINAL_EXECUTION_STATUSES.includes(execution.status))
      throw new ServiceError(
        ApiCode.BadRequest,
        `execution ${execution.id} has ended (${execution.status})`,
        'execution_ended',
      );
    return execution;
  }
}
