// A campaign execution, run as a persisted job (type 'campaigns.execute') from its send time on:
//   1. start: RUNNING, the short link base and the segments' columns fixed for this run;
//   2. freeze: the audience (union of inclusion segments, minus exclusion segments, minus opt-outs,
//      one row per normalized number; no row of an import not done yet, contacts/audience.ts)
//      copied into campaign_recipients in chunks of phone ranges;
//   3. reserve: every recipient's text priced, the whole cost held (Credit.reserve); short of it,
//      the execution ends FAILED with the reason and nothing recorded;
//   4. record: batches of recipients personalized and accepted through the one acceptance path
//      (origin 'campaign'), each one send, due at its slot (send rate, quiet hours: status 2 until
//      then), paid from the reservation;
//   5. finish: the reservation's rest released; COMPLETED once no message waits in 1 or 2 (checked
//      again by a follow-up job at the last slot's time).
// Every step commits its checkpoint (freeze cursor, recipients recorded) in the transaction of the
// work it counts, and each step first reads where the last commit left: a crash at any point
// resumes with no recipient twice, none lost, and one debit per message. The loop yields to the
// event loop between transactions so the window and the API stay responsive.
import { z } from 'zod';
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import type { Jobs, JobContext, Job } from '../jobs/jobs';
import type { Accept } from '../messaging/accept';
import type { Lifecycle } from '../messaging/lifecycle';
import { RangeMessages } from '../messaging/id-ranges';
import type { Credit } from '../accounts/credit';
import type { Accounts } from '../accounts/accounts';
import type { Settings } from '../settings/settings';
import type { Segments } from '../contacts';
import { audienceSelect, audienceView, chunkEdge } from '../contacts/audience';
import type { AudienceFilter } from '../../../shared/audience-filter';
import type { Segment } from '../../../shared/contacts';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import { priceText, type PricedText } from '../../../shared/pricing';
import { FINAL_EXECUTION_STATUSES } from '../../../shared/campaigns';
import { CampaignStore, batchIds, quietHoursOf, type CampaignRow, type ExecutionRow } from './store';
import { compileTemplate, TextBuilder, untrackedLinks } from './template';
import { campaignUtm, LinkCodes, MAX_EXECUTION_FOR_LINKS, MAX_RECIPIENTS_FOR_LINKS } from './links';
import { linkReachFault } from './link-reach';
import { SendPlan } from './plan';
import { bothFilters } from './occurrences';
import { startBackgroundCheckpoint, type BackgroundCheckpoint } from '../db/background-checkpoint';

export const EXECUTE_JOB = 'campaigns.execute';
export const ExecutePayload = z.object({ executionId: z.number().int().positive() });

/** Members per inclusion segment in one freeze chunk. */
const FREEZE_CHUNK = 2_500;
/** Recipients per recorded batch (one send, one transaction). */
export const RECORD_BATCH = 2_500;

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface ExecutionDeps {
  db: Db;
  clock: Clock;
  jobs: Jobs;
  accept: Accept;
  lifecycle: Lifecycle;
  credit: Credit;
  accounts: Accounts;
  settings: Settings;
  segments: Segments;
  store: CampaignStore;
  codes: () => LinkCodes;
  linkBase: () => string;
  timeZone: (accountId: number) => string;
  /** After a commit that changed what a report shows. */
  onProgress: (executionId: number) => void;
}

interface Pricer {
  cost(segmentId: number, fields: string, phone: string): number;
}

/** What a series (series.ts) says of its occurrences' executions. */
export interface OccurrenceRules {
  /** Why a SCHEDULED occurrence must not start (its day passed entirely), or null. */
  missed(execution: ExecutionRow): string | null;
  /** The occurrence's own condition on the audience (a date trigger's anniversary), or null. */
  filter(execution: ExecutionRow): AudienceFilter | null;
}

/** Thrown inside a step when the execution was paused or cancelled meanwhile: the run ends quietly. */
class Stopped extends Error {}

export class Executions {
  private readonly db: Db;
  private readonly store: CampaignStore;
  /** Set while a freeze statement runs: what chapar_campaign_cost prices with. */
  private pricing: Pricer | null = null;
  /** Set by the series once it exists (it needs this class to make its executions). */
  occurrences: OccurrenceRules | null = null;

  private readonly setJobStmt;
  private readonly chunkCostStmt;
  private readonly recipientsStmt;
  private readonly insertBatchStmt;
  private readonly recordedStmt;

  constructor(private readonly deps: ExecutionDeps) {
    this.db = deps.db;
    this.store = deps.store;
    this.setJobStmt = this.db.prepare('UPDATE campaign_executions SET job_id = ? WHERE id = ?');
    this.chunkCostStmt = this.db
      .prepare<[number, number], number>(
        'SELECT total(cost_rials) FROM campaign_recipients WHERE execution_id = ? AND seq >= ?',
      )
      .pluck();
    this.recipientsStmt = this.db
      .prepare<[number, number, number], [string, number, string]>(
        'SELECT phone, segment_id, fields FROM campaign_recipients WHERE execution_id = ? AND seq >= ? ORDER BY seq LIMIT ?',
      )
      .raw();
    this.insertBatchStmt = this.db.prepare(
      `INSERT INTO campaign_batches (execution_id, first_seq, count, send_id, first_message_id, due_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.recordedStmt = this.db.prepare(
      'UPDATE campaign_executions SET recorded = ?, last_due_at = max(COALESCE(last_due_at, 0), ?) WHERE id = ?',
    );
    // The price of a frozen recipient's text, computed inside the freeze's INSERT … SELECT: no
    // second read of the rows just written (the statement runs with `pricing` set for its campaign).
    this.db.function('chapar_campaign_cost', { deterministic: false }, (segmentId, fields, phone) =>
      this.pricing!.cost(Number(segmentId), String(fields), String(phone)),
    );
    deps.jobs.register({
      type: EXECUTE_JOB,
      payload: ExecutePayload,
      // Two campaigns may run side by side; each yields between its transactions.
      concurrency: 2,
      // Crashes count as attempts: a run that keeps killing the process ends 'failed' eventually.
      maxAttempts: 20,
      backoff: { baseMs: 1_000, maxMs: 60_000 },
      run: (job, ctx) => this.run(job, ctx),
      failed: (job, error) => {
        const execution = this.store.execution.get(job.payload.executionId);
        if (execution && !FINAL_EXECUTION_STATUSES.includes(execution.status)) this.fail(execution, error);
      },
    });
  }

  /** Queues the run of an execution at `runAfter` (inside the caller's transaction) and remembers the job. */
  enqueue(executionId: number, runAfter: number): number {
    const jobId = this.deps.jobs.enqueue(EXECUTE_JOB, { executionId }, { runAfter });
    this.setJobStmt.run(jobId, executionId);
    return jobId;
  }

  private async run(job: Job<{ executionId: number }>, ctx: JobContext): Promise<void> {
    const id = job.payload.executionId;
    let checkpoint: BackgroundCheckpoint | null = null;
    try {
      let execution = this.current(id);
      if (execution === null) return;
      if (execution.status === 'CANCELLED') return await this.sweepCancelled(id, ctx);
      if (execution.status === 'SCHEDULED') {
        const missed = this.occurrences?.missed(execution) ?? null;
        if (missed !== null) return this.fail(execution, missed);
        execution = this.start(execution);
      }
      if (execution.audience === null || execution.recorded < execution.audience) {
        // The commits below are many and large: the WAL is copied into the database file by
        // another thread instead of inside them (SQLite's auto-checkpoint, off meanwhile).
        checkpoint = startBackgroundCheckpoint(this.db);
        this.db.pragma('wal_autocheckpoint = 0');
      }
      const campaign = this.store.campaign.get(execution.campaign_id)!;
      const builder = this.builder(execution, campaign);
      const pricer = execution.audience === null ? this.pricer(campaign, builder) : null;
      while (execution.audience === null) {
        this.check(ctx);
        this.freezeChunk(execution, campaign, pricer!);
        checkpoint?.between();
        execution = this.running(id);
        await yieldToLoop();
      }
      if (execution.reservation_id === null && execution.recorded === 0) {
        if (!this.reserve(execution, campaign)) return;
        execution = this.running(id);
      }
      const plan = this.plan(execution, campaign);
      const prices = new Map<string, PricedText>();
      while (execution.recorded < execution.audience!) {
        this.check(ctx);
        this.recordBatch(execution, campaign, builder, plan, prices);
        checkpoint?.between();
        execution = this.running(id);
        this.deps.onProgress(id);
        await yieldToLoop();
      }
      await this.finishWhenOut(execution, ctx);
    } catch (error) {
      if (error instanceof Stopped) return;
      // A refusal of the acceptance path (the line lost its permission, credit short after a price
      // change) will be the same on a retry: the execution ends with it.
      if (error instanceof ServiceError) {
        const execution = this.store.execution.get(id);
        if (execution && !FINAL_EXECUTION_STATUSES.includes(execution.status)) this.fail(execution, error.message);
        return;
      }
      throw error;
    } finally {
      if (checkpoint !== null) {
        await checkpoint.stop();
        this.db.pragma('wal_autocheckpoint = 1000');
      }
    }
  }

  /** The execution as stored; null (nothing to do) when it ended or is paused. */
  private current(id: number): ExecutionRow | null {
    const execution = this.store.execution.get(id);
    if (!execution) return null;
    if (execution.status === 'CANCELLED') return execution;
    if (FINAL_EXECUTION_STATUSES.includes(execution.status) || execution.paused === 1) return null;
    return execution;
  }

  /** Re-read between steps: a pause or a cancel committed meanwhile stops the run. */
  private running(id: number): ExecutionRow {
    const execution = this.store.execution.get(id)!;
    if (execution.status !== 'RUNNING' || execution.paused === 1) throw new Stopped();
    return execution;
  }

  private check(ctx: JobContext): void {
    if (ctx.signal.aborted) throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error('aborted');
  }

  /** SCHEDULED -> RUNNING: the link base and the segments' columns are fixed for the whole run. */
  private start(execution: ExecutionRow): ExecutionRow {
    const campaign = this.store.campaign.get(execution.campaign_id)!;
    const include = JSON.parse(campaign.inclusion_segments) as number[];
    const columns: Record<string, string[]> = {};
    for (const segmentId of include) columns[segmentId] = this.audienceSegment(execution, campaign, segmentId).columns;
    for (const segmentId of JSON.parse(campaign.exclusion_segments) as number[])
      this.audienceSegment(execution, campaign, segmentId);
    if (execution.id > MAX_EXECUTION_FOR_LINKS) {
      this.fail(execution, 'too many executions for short link codes');
      throw new Stopped();
    }
    // The base is fixed for the run here: it (or the line's gateway) may have changed since creation.
    const writesShortLinks = this.builder(execution, campaign).hasLinks;
    const line = this.deps.accounts.findLine(campaign.account_id, campaign.sender);
    const unreachable = linkReachFault(line, this.deps.linkBase(), writesShortLinks);
    if (unreachable !== null) {
      this.fail(execution, unreachable.detail!);
      throw new Stopped();
    }
    const now = this.deps.clock.now();
    this.db
      .prepare(
        `UPDATE campaign_executions SET status = 'RUNNING', started_at = ?, link_base = ?, segment_columns = ?
         WHERE id = ? AND status = 'SCHEDULED'`,
      )
      .run(Math.max(now, execution.send_at), this.deps.linkBase(), JSON.stringify(columns), execution.id);
    this.deps.onProgress(execution.id);
    return this.running(execution.id);
  }

  /**
   * A segment of the campaign as its audience sees it (contacts/audience.ts): one rows are being added
   * to is read as it was before. Still being created by an import: the run tries again shortly (the
   * job's backoff); gone or failed: the run cannot be made.
   */
  private audienceSegment(execution: ExecutionRow, campaign: CampaignRow, segmentId: number): Segment {
    const segment = this.deps.segments.find(campaign.account_id, segmentId);
    const view = segment === null ? null : audienceView(this.db, segment);
    if (view !== null) return view;
    if (segment?.status === 'importing') throw new Error(`segment ${segmentId} is still importing`);
    this.fail(execution, `segment ${segmentId} is not available`);
    throw new Stopped();
  }

  /**
   * One chunk of the audience: the phones after the cursor up to the FREEZE_CHUNK-th of the
   * inclusion segment that reaches it first (so no segment gives more than a chunk), merged,
   * deduplicated and filtered in one INSERT … SELECT. A number in several inclusion segments takes
   * its fields from the first of them in the request's order. The rows of imports pending at that
   * commit are left out (contacts/audience.ts): a cancel may take them out of their segment again. An
   * import done between two chunks is in the later ones: its rows are members for good by then.
   */
  private freezeChunk(execution: ExecutionRow, campaign: CampaignRow, pricer: Pricer): void {
    const include = JSON.parse(campaign.inclusion_segments) as number[];
    const exclude = JSON.parse(campaign.exclusion_segments) as number[];
    const after = execution.freeze_after ?? '';
    this.db.transaction(() => {
      if (include.length === 0) {
        this.db.prepare('UPDATE campaign_executions SET audience = 0 WHERE id = ?').run(execution.id);
        return;
      }
      const upTo = chunkEdge(this.db, include, after, FREEZE_CHUNK);
      // The audience rule's SQL, embedded: the chunk is still one statement.
      const own = campaign.filter === null ? null : (JSON.parse(campaign.filter) as AudienceFilter);
      // A date trigger's occurrence adds its anniversary to the campaign's own conditions.
      const filter = bothFilters(own, this.occurrences?.filter(execution) ?? null);
      const audience = audienceSelect(
        this.db,
        { include, exclude, accountId: campaign.account_id, filter },
        after,
        upTo,
      );
      const sql = `INSERT INTO campaign_recipients (execution_id, seq, phone, segment_id, fields, cost_rials)
        SELECT ?, ? + row_number() OVER (ORDER BY phone) - 1, phone, segment_id, fields,
          chapar_campaign_cost(segment_id, fields, phone) FROM (
          ${audience.sql}
        )`;
      const params: unknown[] = [execution.id, execution.frozen, ...audience.params];
      this.pricing = pricer;
      let added: number;
      try {
        added = this.db.prepare(sql).run(...params).changes;
      } finally {
        this.pricing = null;
      }
      const frozen = execution.frozen + added;
      if (frozen > MAX_RECIPIENTS_FOR_LINKS) throw new Error('audience too large');
      const priced = execution.priced_rials + this.chunkCostStmt.get(execution.id, execution.frozen)!;
      this.db
        .prepare(
          'UPDATE campaign_executions SET frozen = ?, freeze_after = ?, audience = ?, priced_rials = ? WHERE id = ?',
        )
        .run(frozen, upTo, upTo === null ? frozen : null, priced, execution.id);
    })();
  }

  /**
   * Prices a recipient's text as the acceptance path will (shared/pricing.ts on the final text,
   * short links at their full length). A text depends only on the segment's row of values (and
   * the number when the template shows it): each distinct text is priced once.
   */
  private pricer(campaign: CampaignRow, builder: TextBuilder): Pricer {
    // Costs by text: texts are cached string objects, so the lookups hash nothing.
    const costs = new Map<string, number>();
    const line = this.lineOf(campaign);
    const pricing = this.deps.settings.pricing();
    const shared = builder.shared ? priceText(campaign.template_body, line.provider, pricing).costRials : null;
    return {
      cost: (segmentId: number, fields: string, phone: string): number => {
        if (shared !== null) return shared;
        const text = builder.cachedText(phone, segmentId, fields);
        let cost = costs.get(text);
        if (cost === undefined) {
          if (costs.size > 100_000) costs.clear();
          costs.set(text, (cost = priceText(text, line.provider, pricing).costRials));
        }
        return cost;
      },
    };
  }

  private builder(execution: ExecutionRow, campaign: CampaignRow): TextBuilder {
    const links = this.store.linksOf(campaign.id);
    const compiled = compileTemplate(campaign.template_body, links);
    const template = campaign.track_links === 1 ? compiled : untrackedLinks(compiled, links, campaignUtm(campaign));
    return new TextBuilder(
      template,
      JSON.parse(execution.segment_columns ?? '{}') as Record<string, string[]>,
      execution.link_base ?? this.deps.linkBase(),
    );
  }

  private plan(execution: ExecutionRow, campaign: CampaignRow, start = execution.started_at!): SendPlan {
    return new SendPlan({
      start,
      sendRate: campaign.send_rate,
      quietHours: quietHoursOf(campaign),
      timeZone: this.deps.timeZone(campaign.account_id),
    });
  }

  /** Holds the audience's whole cost (priced while it was frozen). False when the run ended here. */
  private reserve(execution: ExecutionRow, campaign: CampaignRow): boolean {
    const audience = execution.audience!;
    const now = () => this.deps.clock.now();
    if (audience === 0) {
      this.db.transaction(() => this.store.finish(execution.id, 'COMPLETED', null, now()))();
      this.deps.onProgress(execution.id);
      return false;
    }
    const total = execution.priced_rials;
    this.db.transaction(() => {
      const fresh = this.running(execution.id);
      if (fresh.reservation_id !== null) return;
      try {
        const reservationId = this.deps.credit.reserve(
          campaign.account_id,
          total,
          `campaign execution ${execution.id}`,
        );
        this.db
          .prepare('UPDATE campaign_executions SET reservation_id = ?, reserved_rials = ? WHERE id = ?')
          .run(reservationId, total, execution.id);
      } catch (error) {
        if (!(error instanceof ServiceError) || error.code !== ApiCode.NoCredit) throw error;
        this.store.finish(
          execution.id,
          'FAILED',
          `credit: ${total} rials needed, ${this.deps.credit.available(campaign.account_id)} available`,
          now(),
        );
      }
    })();
    this.deps.onProgress(execution.id);
    return this.store.execution.get(execution.id)!.status === 'RUNNING';
  }

  private lineOf(campaign: CampaignRow) {
    return this.deps.accounts.senderLine(campaign.account_id, campaign.sender, 'campaign');
  }

  /** One batch: personalized, accepted (one send, paid from the reservation), and the checkpoint, in one transaction. */
  private recordBatch(
    execution: ExecutionRow,
    campaign: CampaignRow,
    builder: TextBuilder,
    plan: SendPlan,
    prices: Map<string, PricedText>,
  ): void {
    const first = execution.recorded;
    const count = Math.min(RECORD_BATCH, execution.audience! - first, plan.slotRoom(first));
    const dueAt = plan.dueOf(first);
    const rows = this.recipientsStmt.all(execution.id, first, count);
    const receivers = rows.map((row) => row[0]);
    const texts = builder.shared
      ? undefined
      : rows.map(([phone, segmentId, fields]) => builder.cachedText(phone, segmentId, fields));
    const codes = this.deps.codes();
    const fill = builder.hasLinks
      ? (n: number, finalText: string) =>
          builder.fillLinks(finalText, (link) => codes.encode({ executionId: execution.id, seq: first + n, link }))
      : undefined;
    this.db.transaction(() => {
      // The checkpoint is read again inside the transaction: only the run that owns it moves it.
      const fresh = this.running(execution.id);
      if (fresh.recorded !== first) throw new Stopped();
      const recorded = this.deps.accept.accept({
        accountId: campaign.account_id,
        origin: 'campaign',
        sender: campaign.sender,
        text: campaign.template_body,
        receivers,
        texts,
        fill,
        rule: 'strict',
        dueAt,
        reservationId: fresh.reservation_id,
        priceCache: prices,
      });
      // Every frozen number is a normalized, distinct one: all are accepted, in order.
      if (recorded.accepted !== count) throw new Error('a frozen recipient was not accepted');
      this.insertBatchStmt.run(execution.id, first, count, recorded.sendId, recorded.firstMessageId, dueAt);
      this.recordedStmt.run(first + count, dueAt, execution.id);
    })();
  }

  /**
   * Everything recorded: the reservation's rest goes back, and the execution is COMPLETED once no
   * message of it waits in 1 or 2; until then a follow-up run is queued for after the last slot.
   */
  private async finishWhenOut(execution: ExecutionRow, ctx: JobContext): Promise<void> {
    if (execution.reservation_id !== null)
      this.db.transaction(() => this.deps.credit.release(execution.reservation_id!))();
    const waiting = await this.firstWaiting(execution.id, ctx);
    const now = this.deps.clock.now();
    this.db.transaction(() => {
      this.running(execution.id);
      if (waiting === null) this.store.finish(execution.id, 'COMPLETED', null, now);
      else {
        const handoff = this.deps.settings.simulator().handoff_ms;
        this.enqueue(execution.id, Math.max(now, execution.last_due_at ?? now) + handoff + 1_000);
      }
    })();
    this.deps.onProgress(execution.id);
  }

  /** The first batch with a message still in 1 or 2, searched from the latest, a few batches per yield. */
  private async firstWaiting(executionId: number, ctx: JobContext): Promise<number | null> {
    const messages = new RangeMessages(this.db);
    const batches = this.store.batches.all(executionId).reverse();
    for (let i = 0; i < batches.length; i++) {
      const { first, last } = batchIds(batches[i]!);
      if (messages.anyWaiting(first, last)) return batches[i]!.first_seq;
      if (i % 20 === 19) {
        this.check(ctx);
        await yieldToLoop();
      }
    }
    return null;
  }

  /**
   * After a cancel: every message of the execution not handed over yet ends 13, refunded, a few
   * thousand per transaction; each step is one transaction, so a caller may yield between steps.
   */
  *sweepSteps(executionId: number): Generator<void> {
    for (const batch of this.store.batches.all(executionId)) {
      const { first, last } = batchIds(batch);
      this.db.transaction(() => this.deps.lifecycle.withdraw(first, last))();
      let from: number | null = first;
      while (from !== null) {
        from = this.deps.lifecycle.cancelRange(from, last).next;
        yield;
      }
    }
  }

  private async sweepCancelled(executionId: number, ctx: JobContext): Promise<void> {
    for (const _step of this.sweepSteps(executionId)) {
      this.check(ctx);
      await yieldToLoop();
    }
    this.deps.onProgress(executionId);
  }

  /** Ends a running or scheduled execution FAILED with its reason; what it still held goes back. */
  fail(execution: ExecutionRow, reason: string): void {
    this.db.transaction(() => {
      if (execution.reservation_id !== null) this.deps.credit.release(execution.reservation_id);
      this.store.finish(execution.id, 'FAILED', reason, this.deps.clock.now());
    })();
    this.deps.onProgress(execution.id);
  }

  /** Pause: the run stops after its current transaction; batches not yet due keep their messages in 2. */
  withdrawFuture(executionId: number, now: number): void {
    for (const batch of this.store.batches.all(executionId)) {
      if (batch.due_at <= now) continue;
      const { first, last } = batchIds(batch);
      this.deps.lifecycle.withdraw(first, last);
    }
  }

  /** Resume: the batches a pause held get new slots from now on (same rate and quiet hours), in order. */
  replanHeld(execution: ExecutionRow, campaign: CampaignRow, now: number): void {
    const held = this.store.batches
      .all(execution.id)
      .filter((batch) => execution.paused_at !== null && batch.due_at > execution.paused_at);
    if (held.length === 0) return;
    const plan = this.plan(execution, campaign, now);
    let n = 0;
    let lastDue = execution.last_due_at ?? now;
    const update = this.db.prepare('UPDATE campaign_batches SET due_at = ? WHERE execution_id = ? AND first_seq = ?');
    for (const batch of held) {
      const dueAt = plan.dueOf(n);
      const { first, last } = batchIds(batch);
      this.deps.lifecycle.schedule(dueAt, first, last);
      update.run(dueAt, execution.id, batch.first_seq);
      lastDue = dueAt;
      n += batch.count;
    }
    this.db.prepare('UPDATE campaign_executions SET last_due_at = ? WHERE id = ?').run(lastDue, execution.id);
  }

  /** When the last message is due by the plan: the recorded last slot, or the plan's for the whole audience. */
  estimateLast(execution: ExecutionRow, campaign: CampaignRow, audience: number): number | null {
    if (FINAL_EXECUTION_STATUSES.includes(execution.status)) return execution.last_due_at;
    if (audience === 0) return null;
    const start = execution.started_at ?? Math.max(execution.send_at, this.deps.clock.now());
    return this.plan(execution, campaign, start).dueOf(audience - 1);
  }
}
