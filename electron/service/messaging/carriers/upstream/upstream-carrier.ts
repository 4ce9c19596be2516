// The upstream carrier: hands the messages of lines whose gateway is a provider account
// (shared/gateways.ts) to that provider, follows their statuses, mirrors its costs and reads the
// replies. A persisted state machine per message (handovers.ts): `waiting` -> `handing_over`
// (committed before the call) -> `accepted` (the provider's id and cost stored in the same
// transaction as its answer) | `rejected` (its code and words; the message ends 13, refunded) |
// `unknown` (a timeout or a dropped connection: never failure nor success). An unknown message is
// never sent again blindly: where the provider keeps our ids (Kavenegar's localid) it is looked up
// and resent only when the provider does not know it, inside the window in which a resend with the
// same id is recognised; otherwise it waits for the user's review.
//
// Answers are classed by their code (upstreamErrorClass): retry later with backoff and jitter,
// pause the line (credit, key, IP allow-list: the user is told why), fail the messages with the
// provider's words, or split a batch the provider found too big. Calls are paced per line by a
// token bucket and a cap of calls in flight. Statuses are polled at growing intervals until final,
// or until the provider's window closes ("status unknown", never "failed").
//
// I/O happens outside the scheduler's step: runDue() starts calls and returns; each call's answer
// is applied in its own transaction, then the scheduler is poked. stop() waits for the calls.
import type { Db } from '../../../db/database';
import type { Clock } from '../../../clock';
import type { Settings } from '../../../settings/settings';
import type { Worker } from '../../../jobs/scheduler';
import type { Accounts, Line } from '../../../accounts/accounts';
import { lineKeySecret } from '../../../accounts/accounts';
import type { SecretStore } from '../../../secrets';
import type { Files } from '../../../files/files';
import { backoffDelay } from '../../../jobs/jobs';
import { MessageStatus } from '../../../../../shared/lifecycle';
import {
  GATEWAYS,
  isUpstream,
  upstreamErrorClass,
  type LinePause,
  type UpstreamKind,
  type UpstreamTiming,
} from '../../../../../shared/gateways';
import type { CarrierMessages, CarrierReports, Charge, Outcome } from '../carrier';
import type { CallResult, Endpoint, UpstreamClient, OutgoingMessage, UpstreamRecord } from './client';
import { kavenegarV1Client } from './kavenegar-v1';
import { najvaV2Client } from './najva-v2';
import { smsIrClient } from './smsir';
import { ippanelEdgeClient } from './ippanel-edge';
import { baleSafirClient } from './bale-safir';
import { httpGatewayClient } from './http-gateway';
import crypto from 'node:crypto';
import { Handovers, type CallMember } from './handovers';

/**
 * The provider's final statuses, as ours: the spec's numbering is Kavenegar's (reference/
 * kavenegar-v1.md §1.19), so each maps onto the status of the same number. Its 14 is refunded
 * by the provider [C-3p], so here too; its 6 is final there [C].
 */
const FINAL_AT_PROVIDER = new Map<number, { status: MessageStatus; refund?: boolean }>([
  [MessageStatus.SendError, { status: MessageStatus.SendError }],
  [MessageStatus.Delivered, { status: MessageStatus.Delivered }],
  [MessageStatus.Undelivered, { status: MessageStatus.Undelivered }],
  [MessageStatus.Cancelled, { status: MessageStatus.Cancelled }],
  [MessageStatus.Blocked, { status: MessageStatus.Blocked, refund: true }],
]);

/** Entries the provider answers for a receptor it took no message for (invalid, duplicate). */
const REFUSED_AT_PROVIDER = new Set<number>([MessageStatus.Invalid, MessageStatus.Duplicate]);

/** An inbox read goes back this far over what was read, for replies the provider recorded late. */
const INBOX_OVERLAP_MS = 10 * 60_000;
/** The paged read's longest range [3p: 2 days]; a first read starts a day back. */
const INBOX_MAX_RANGE_MS = 2 * 86_400_000 - 60_000;
const INBOX_FIRST_MS = 86_400_000;
const LOCAL_IDS_PER_SECOND = 2 ** 21;
/** How many times an unread cost is read again (one per status poll) before the price list's stands. */
const COST_READS = 5;
/** Each provider's client (client.ts): the one place a gateway kind meets its wire format. */
const CLIENTS: Readonly<Record<UpstreamKind, (endpoint: Endpoint) => UpstreamClient>> = {
  'kavenegar-v1': kavenegarV1Client,
  'najva-v2': najvaV2Client,
  smsir: smsIrClient,
  'ippanel-edge': ippanelEdgeClient,
  'bale-safir': baleSafirClient,
  'http-gateway': httpGatewayClient,
};

/** Retryable failures (network, 5xx, 409, 429, 451) are retried for a day, then left to the user. */
const GIVE_UP_AFTER_MS = 86_400_000;

export interface UpstreamReply {
  accountId: number;
  lineNumber: string;
  sender: string;
  text: string;
  receivedAt: number;
}

export interface UpstreamCarrierDeps {
  db: Db;
  clock: Clock;
  settings: Settings;
  accounts: Accounts;
  /** Messenger files, copied to a provider that carries them. */
  files: Pick<Files, 'read'>;
  secrets: SecretStore;
  reports: CarrierReports;
  messages: CarrierMessages;
  /** Wakes the scheduler after an answer was applied. */
  poke: () => void;
  /** Records replies (the Inbox, with its auto opt-out), inside the carrier's transaction. */
  recordReplies?: (replies: UpstreamReply[]) => void;
  /** A line paused or resumed (the banner). */
  onLineChanged?: (line: Line, pause: LinePause | null) => void;
  random?: () => number;
  /** Builds the client of a gateway (tests may point a kind elsewhere; the real ones by default). */
  client?: (kind: UpstreamKind, endpoint: Endpoint) => UpstreamClient;
}

type Activity = 'send' | 'poll' | 'reconcile' | 'inbox' | 'check';

/** A call recorded before it starts: its messages, in the batch the provider is sent, and its client. */
interface SendCall {
  id: number;
  batch: readonly (OutgoingMessage & { cost_rials: number; file_id: string | null })[];
  members: readonly CallMember[];
  client: UpstreamClient;
}

/** A messenger file's id at the provider, or why the upload did not give one. */
type UpstreamFile = string | Exclude<CallResult<string>, { kind: 'ok' }>;

export class UpstreamCarrier {
  readonly name = 'upstream';
  readonly worker: Worker;
  readonly handovers: Handovers;
  private readonly calls = new Set<Promise<void>>();
  private readonly busy = new Map<string, number>();
  private readonly buckets = new Map<number, { tokens: number; at: number }>();
  /** Messenger files being uploaded, by `line:file`: the provider gets each once (upstreamFile). */
  private readonly uploading = new Map<string, Promise<UpstreamFile>>();
  private readonly random: () => number;
  private stopped = false;
  private lastLocalId: number;
  /** The app's own server (report callbacks come to it); null until it listens. */
  private localAddress: string | null = null;

  constructor(private readonly deps: UpstreamCarrierDeps) {
    this.handovers = new Handovers(deps.db);
    this.random = deps.random ?? Math.random;
    // A call cut off by a crash or a kill may have reached the provider: unknown, reconciled first.
    this.recover();
    this.lastLocalId = this.handovers.lastLocalId();
    this.worker = {
      name: 'upstream',
      nextDueAt: () => this.nextDueAt(),
      runDue: () => this.runDue(),
    };
  }

  /**
   * Records messages just handed over as waiting for their line's provider (the gateway carrier
   * found each one's line). Inside the lifecycle's transaction.
   */
  accept(batch: readonly { id: number; account_id: number; line_id: number }[], now: number): void {
    this.handovers.addWaiting(batch, now);
  }

  /** Every call the database holds as in flight is not (none runs): its messages are unknown. */
  private recover(): void {
    const now = this.deps.clock.now();
    this.deps.db.transaction(() => this.handovers.recoverCalls(now))();
  }

  forget(firstId: number, lastId: number): void {
    this.handovers.forget(firstId, lastId);
  }

  /**
   * A message's id at the provider on our side (Kavenegar's localid, which the provider remembers
   * and answers a repeat of with its earlier message [3p]): the hand-over's second times 2^21 plus
   * a count within it, above every one given before. A restore brings message ids back, never these
   * (its clock has moved on), so a message id used again is never taken for an earlier message. A
   * number under 2^53, as a provider storing it as a number would.
   */
  private nextLocalId(now: number): number {
    this.lastLocalId = Math.max(this.lastLocalId + 1, Math.floor(now / 1000) * LOCAL_IDS_PER_SECOND);
    return this.lastLocalId;
  }

  /** Waits for the calls in flight (each bounded by its timeout); no new one starts. */
  async stop(): Promise<void> {
    this.stopped = true;
    while (this.calls.size > 0) await Promise.allSettled([...this.calls]);
  }

  /** As stop(), until release() (a restore replaces the database meanwhile). */
  hold(): Promise<void> {
    return this.stop();
  }

  /** Goes on after hold(): hand-overs the database holds as in a call no longer are (none is running). */
  release(): void {
    this.recover();
    this.lastLocalId = Math.max(this.lastLocalId, this.handovers.lastLocalId());
    this.stopped = false;
  }

  // ---- reports pushed by a gateway (http-gateway.ts: Kannel's dlr-url)

  /** The app's own address, where a gateway calls back with reports. */
  setLocalAddress(url: string): void {
    this.localAddress = url.replace(/\/+$/, '');
    // Lines whose gateway reports back waited for it (awaitsAddress).
    this.deps.poke();
  }

  /**
   * Whether a line's gateway reports by calling the app back and the app has no address yet (its
   * server not listening: at start, or with the desktop app's HTTP API off): its messages wait, as
   * a message handed over without a report address would never be reported.
   */
  private awaitsAddress(line: Line): boolean {
    return GATEWAYS[line.gateway.kind].reportsBack === true && this.localAddress === null;
  }

  /**
   * The token in a line's report address: made from its key, so nothing more is kept, nobody without
   * the key can report for the line, and a new key ends the old addresses.
   */
  private reportToken(line: Line): string | null {
    const key = this.deps.secrets.get(lineKeySecret(line.id));
    if (!key) return null;
    return crypto.createHmac('sha256', key).update(`reports:${line.id}`).digest('base64url').slice(0, 32);
  }

  /**
   * A report a gateway called back with: applied when the token is the line's and the message is
   * one of its own on its way (a report for a message the line never sent, or of a message id
   * that came back after a restore, changes nothing). A first report of a message whose answer was
   * lost proves the gateway took it.
   */
  reported(line: Line, token: string, query: Readonly<Record<string, string>>): 'applied' | 'ignored' | 'refused' {
    const expected = this.reportToken(line);
    const given = Buffer.from(token);
    if (!expected || given.length !== expected.length || !crypto.timingSafeEqual(given, Buffer.from(expected)))
      return 'refused';
    const report = this.clientOf(line)?.reportOf?.(query);
    if (!report) return 'ignored';
    const at = this.deps.clock.now();
    const timing = this.timing();
    return this.deps.db.transaction(() => {
      const row = this.handovers.get(report.messageId);
      // Before the answer of the call that carries it (no row yet, or still handing over): kept,
      // and applied with that answer (applyEarlyReports).
      if (!row || row.state === 'handing_over') {
        this.handovers.keepEarlyReport(line.id, report.messageId, report.localId, report.status, at);
        return 'applied';
      }
      if (row.line_id !== line.id || Number(row.local_id) !== report.localId) return 'ignored';
      if (row.state === 'unknown' || row.state === 'review') {
        this.handovers.accepted(row.message_id, String(report.localId), null, at, timing.poll_first_ms, 0);
        this.queueChanged(line);
      } else if (row.state !== 'accepted' && row.state !== 'expired') return 'ignored';
      const final = report.status === null ? undefined : FINAL_AT_PROVIDER.get(report.status);
      if (!final) return 'applied';
      this.handovers.move(row.message_id, 'final', at, null);
      this.deps.reports.report([{ id: row.message_id, ...final }]);
      return 'applied';
    })();
  }

  // ---- the user's actions (Settings → Lines)

  resume(line: Line): void {
    this.handovers.setPause(line.id, null);
    this.deps.onLineChanged?.(line, null);
    this.deps.poke();
  }

  /** Messages of the line in review (or these) go back to waiting: the user says the provider does not have them. */
  retry(line: Line, ids?: readonly number[]): void {
    const now = this.deps.clock.now();
    this.deps.db.transaction(() => {
      for (const id of ids ?? this.waitingForUser(line, ['review'])) {
        const row = this.handovers.get(id);
        if (row?.line_id === line.id && (row.state === 'review' || row.state === 'unknown'))
          this.handovers.move(id, 'waiting', now, now, { detail: 'sent again by the user' });
      }
    })();
    this.deps.poke();
  }

  /** Messages of the line in review or unknown (or these) end as failed, refunded: the user says they never went out. */
  markFailed(line: Line, ids?: readonly number[]): void {
    const now = this.deps.clock.now();
    this.deps.db.transaction(() => {
      const outcomes: Outcome[] = [];
      const candidates = ids ?? this.waitingForUser(line, ['review', 'unknown']);
      for (const id of candidates) {
        const row = this.handovers.get(id);
        if (row?.line_id !== line.id || (row.state !== 'review' && row.state !== 'unknown')) continue;
        this.handovers.move(id, 'rejected', now, null, { code: row.code, detail: 'marked as failed by the user' });
        outcomes.push({ id, status: MessageStatus.Cancelled });
      }
      this.deps.reports.report(outcomes);
    })();
  }

  private waitingForUser(line: Line, states: readonly ('review' | 'unknown')[]): number[] {
    return states.flatMap((state) => this.handovers.list(line.id, state, 1_000_000).map((row) => row.message_id));
  }

  /** The provider's answer to "who am I" with the line's settings: its credit, or its code and words. */
  async test(line: Line): ReturnType<UpstreamClient['info']> {
    const client = this.clientOf(line);
    if (!client) return { kind: 'error', code: 403, text: 'no API key is kept for this line' };
    const answer = await client.info();
    // Out of credit at the provider, and now there is credit for its next call again: the line goes
    // on by itself (less than that would only bring the 418 back, call after call).
    const pause = this.handovers.pause(line.id);
    if (
      answer.kind === 'ok' &&
      pause?.code === 418 &&
      (answer.value.creditRials ?? Infinity) >= this.nextCallCost(line)
    )
      this.resume(line);
    return answer;
  }

  /** What the line's next call costs at our prices (the provider's are close): its first waiting messages'. */
  private nextCallCost(line: Line): number {
    const info = GATEWAYS[line.gateway.kind];
    const cap = Math.min(info.maxPerSend, this.handovers.maxBatch(line.id) ?? info.maxPerSend);
    const ids = this.handovers.due(line.id, 'waiting', Number.MAX_SAFE_INTEGER, cap);
    const fresh = this.handovers.peekWaiting(line.id, cap - ids.length).map((m) => m.id);
    return this.deps.messages.outgoing([...ids, ...fresh]).reduce((sum, m) => sum + m.cost_rials, 0);
  }

  // ---- the worker

  private upstreamLines(): Line[] {
    return this.deps.accounts.upstreamLines();
  }

  private timing(): UpstreamTiming {
    return this.deps.settings.upstreamTiming();
  }

  private nextDueAt(): number | null {
    let next: number | null = null;
    const take = (at: number | null) => {
      if (at !== null && (next === null || at < next)) next = at;
    };
    const timing = this.timing();
    for (const line of this.upstreamLines()) {
      const pause = this.handovers.pause(line.id);
      if (pause) {
        if (pause.code === 418 && this.idle(line.id, 'check')) take(pause.at + timing.retry_max_ms);
        continue;
      }
      const token = this.tokenAt(line);
      const after = (at: number | null) => (at === null ? null : Math.max(at, token));
      // Without a key only waiting messages are work: the first of them pauses the line, saying why.
      if (this.running(line.id, 'send') < timing.concurrency && !this.awaitsAddress(line))
        take(after(this.handovers.nextWaiting(line.id)));
      if (!line.gateway.key_set) continue;
      if (this.idle(line.id, 'reconcile')) take(after(this.handovers.nextDue(line.id, 'unknown')));
      if (this.idle(line.id, 'poll')) take(after(this.handovers.nextDue(line.id, 'accepted')));
      if (GATEWAYS[line.gateway.kind].inbound && this.idle(line.id, 'inbox'))
        take(after(this.handovers.inbox(line.id).dueAt ?? this.deps.clock.now()));
    }
    return next;
  }

  private runDue(): boolean {
    if (this.stopped) return false;
    const now = this.deps.clock.now();
    const timing = this.timing();
    let started = false;
    for (const line of this.upstreamLines()) {
      const pause = this.handovers.pause(line.id);
      if (pause) {
        if (pause.code === 418 && this.idle(line.id, 'check') && now >= pause.at + timing.retry_max_ms)
          started = this.checkCredit(line) || started;
        continue;
      }
      if (this.maySend(line, now, timing)) started = this.startSend(line, now, timing) || started;
      // As nextDueAt: a line without a key has nothing else to do (each start below needs its client).
      if (!line.gateway.key_set) continue;
      if (this.idle(line.id, 'reconcile') && this.hasToken(line, now))
        started = this.startReconcile(line, now, timing) || started;
      if (this.idle(line.id, 'poll') && this.hasToken(line, now)) started = this.startPoll(line, now) || started;
      if (GATEWAYS[line.gateway.kind].inbound && this.idle(line.id, 'inbox') && this.hasToken(line, now)) {
        const due = this.handovers.inbox(line.id).dueAt;
        if (due === null || due <= now) started = this.startInbox(line, now, timing) || started;
      }
    }
    return started;
  }

  // ---- hand-over

  private startSend(line: Line, now: number, timing: UpstreamTiming): boolean {
    const call = this.recordCall(line, now);
    if (typeof call === 'boolean') return call;
    this.callProvider(line, call, timing);
    return true;
  }

  /**
   * The line's next call, recorded (its messages handing over) in a transaction of its own or the
   * caller's, which commits before callProvider() starts it. False when nothing waits; true when
   * something was done but no call is to start (the line paused, or nothing left to hand over).
   */
  private recordCall(line: Line, now: number): SendCall | boolean {
    const info = GATEWAYS[line.gateway.kind];
    const cap = Math.min(info.maxPerSend, this.handovers.maxBatch(line.id) ?? info.maxPerSend);
    // As many as one call takes: the largest group of one text among them goes as one shared-text call.
    // Messages sent again (their rows due) first, then those first handed over, in the order they came.
    const limit = Math.max(cap, info.maxPerArray);
    const again = this.handovers.due(line.id, 'waiting', now, limit);
    const fresh = this.handovers.peekWaiting(line.id, limit - again.length);
    if (again.length === 0 && fresh.length === 0) return false;
    const client = this.clientOf(line);
    if (!client) {
      this.pause(line, { code: 403, text: 'no API key is kept for this line', at: now });
      return true;
    }
    const outgoing = this.deps.messages.outgoing([...again, ...fresh.map((m) => m.id)]);
    const call = this.deps.db.transaction(() => {
      const members = this.handovers.members(again);
      if (fresh.length > 0) this.handovers.takeWaiting(line.id, fresh[fresh.length - 1]!.id);
      for (const m of fresh) members.set(m.id, [m.id, this.nextLocalId(now), m.account_id, m.handed_at]);
      if (fresh.length > 0) this.handovers.setLastLocalId(this.lastLocalId);
      const present = new Set(outgoing.map((m) => m.id));
      // A message gone from messaging meanwhile (its account removed) has nothing left to deliver.
      for (const id of again) if (!present.has(id)) this.handovers.drop(id);
      const handed = outgoing.filter((m) => m.status === MessageStatus.HandedToCarrier && members.has(m.id));
      const batch = callBatch(
        // Built field by field: a spread of a database row is several times slower.
        handed.map((m) => ({
          id: m.id,
          localId: members.get(m.id)![1],
          receptor: m.receptor,
          text: m.text,
          cost_rials: m.cost_rials,
          file_id: m.file_id,
        })),
        cap,
        Math.min(info.maxPerArray, cap),
      );
      // Messages moved on without us (none should): nothing to hand over.
      for (const m of outgoing)
        if (m.status !== MessageStatus.HandedToCarrier && this.handovers.get(m.id))
          this.handovers.move(m.id, 'final', now, null, { detail: 'no longer with the carrier' });
      // Those first handed over that this call does not take wait on as rows, due now.
      const inCall = new Set(batch.map((m) => m.id));
      this.handovers.materialize(
        line.id,
        handed.filter((m) => !inCall.has(m.id)).map((m) => members.get(m.id)!),
        'waiting',
        now,
        now,
      );
      // Recorded before the call starts: the call's row for all, the rows of those sent again moved.
      const sentAgain = new Set(again);
      this.handovers.moveAll(
        batch.filter((m) => sentAgain.has(m.id)).map((m) => m.id),
        'handing_over',
        now,
        null,
        { attempt: true },
      );
      const callMembers = batch.map((m) => members.get(m.id)!);
      return {
        batch,
        members: callMembers,
        id: batch.length > 0 ? this.handovers.startCall(line.id, now, callMembers) : 0,
      };
    })();
    if (call.batch.length === 0) return true;
    this.spend(line, now);
    return { ...call, client };
  }

  /** Starts a recorded call; its answer is applied, and the line's next call recorded, in one transaction. */
  private callProvider(line: Line, call: SendCall, timing: UpstreamTiming): void {
    const { batch, client } = call;
    this.launch(
      line.id,
      'send',
      async () => {
        const fileId = batch[0]!.file_id;
        const upstreamFileId = fileId ? await this.upstreamFile(line, client, fileId) : null;
        if (upstreamFileId !== null && typeof upstreamFileId !== 'string') {
          this.answered(line, call, upstreamFileId, timing);
          return;
        }
        const result = await client.send(
          batch.map((m) => ({ id: m.id, localId: m.localId, receptor: m.receptor, text: m.text, upstreamFileId })),
        );
        this.answered(line, call, result, timing);
      },
      () => this.sendNext(line),
    );
  }

  /**
   * Applies a call's answer and, in the same transaction, records the line's next call when it may
   * start now (the provider kept as busy as the line's pace allows, with one commit for both rather
   * than two). The next call starts once that commit is done.
   */
  private answered(line: Line, call: SendCall, result: CallResult<UpstreamRecord[]>, timing: UpstreamTiming): void {
    let next: SendCall | boolean = false;
    this.deps.db.transaction(() => {
      this.applySend(line, call, result, timing);
      // This call still counts as running until it returns.
      const now = this.deps.clock.now();
      if (this.stopped || this.handovers.pause(line.id) || !this.maySend(line, now, timing, 1)) return;
      try {
        next = this.recordCall(line, now);
      } catch (error) {
        // The answer is applied whatever became of the next call (its own savepoint, undone).
        console.error(`chapar: upstream send of line ${line.id}:`, error);
      }
    })();
    if (typeof next !== 'boolean') this.callProvider(line, next, timing);
  }

  /**
   * After a call, the line's next call starts from here (when answered() did not start it) rather
   * than on the scheduler's next round.
   */
  private sendNext(line: Line): void {
    if (this.stopped || this.handovers.pause(line.id)) return;
    const now = this.deps.clock.now();
    const timing = this.timing();
    if (this.maySend(line, now, timing)) this.startSend(line, now, timing);
  }

  /**
   * Whether a line (not paused) may start a call now: fewer in flight than its cap (`ending`: calls
   * counted as running that are being answered), a token in its bucket, and a report address if
   * its gateway needs one.
   */
  private maySend(line: Line, now: number, timing: UpstreamTiming, ending = 0): boolean {
    return (
      this.running(line.id, 'send') - ending < timing.concurrency &&
      this.hasToken(line, now) &&
      !this.awaitsAddress(line)
    );
  }

  /** A call's answer applied: the provider's ids and costs stored. Inside answered()'s transaction. */
  private applySend(line: Line, call: SendCall, result: CallResult<UpstreamRecord[]>, timing: UpstreamTiming): void {
    const now = this.deps.clock.now();
    const members = new Map(call.members.map((m) => [m[0], m]));
    // Our price of each message: only a provider's cost that differs changes anything.
    const prices = new Map(call.batch.map((m) => [m.id, m.cost_rials]));
    this.handovers.endCall(call.id);
    if (result.kind === 'ok') {
      const charges: Charge[] = [];
      const outcomes: Outcome[] = [];
      const taken: [number, string, number | null, number, number, number][] = [];
      const refused: UpstreamRecord[] = [];
      const finals: number[] = [];
      const notTaken = new Map<string, { result: NonNullable<UpstreamRecord['notTaken']>; ids: number[] }>();
      for (const record of result.value) {
        const member = members.get(record.id);
        if (!member) continue;
        if (record.notTaken) {
          const key = JSON.stringify(record.notTaken);
          const group = notTaken.get(key) ?? { result: record.notTaken, ids: [] };
          group.ids.push(record.id);
          notTaken.set(key, group);
          continue;
        }
        if (record.upstreamId === null || REFUSED_AT_PROVIDER.has(record.status)) {
          refused.push(record);
          continue;
        }
        taken.push([record.id, record.upstreamId, record.costRials, member[1], member[2], member[3]]);
        if (record.costRials !== null && record.costRials !== prices.get(record.id))
          charges.push({ id: record.id, cost_rials: record.costRials });
        const final = FINAL_AT_PROVIDER.get(record.status);
        if (final) {
          finals.push(record.id);
          outcomes.push({ id: record.id, ...final });
        }
      }
      // The provider's ids and costs stored in the transaction that applies its answer.
      this.handovers.acceptedAll(line.id, taken, now, timing.poll_first_ms);
      // An answer without costs, from a provider that tells them later (IPPanel's bulk report):
      // read with the statuses, as for a message found again by its local id.
      if (call.client.costs)
        this.handovers.readCosts(
          taken.filter((t) => t[2] === null).map((t) => t[0]),
          COST_READS,
        );
      this.handovers.materialize(
        line.id,
        refused.map((record) => members.get(record.id)!),
        'handing_over',
        null,
        now,
      );
      for (const record of refused) {
        this.handovers.move(record.id, 'rejected', now, null, {
          code: record.status,
          detail: 'the provider refused this receiver',
        });
        outcomes.push({ id: record.id, status: MessageStatus.Cancelled });
      }
      this.handovers.moveAll(finals, 'final', now, null);
      // A message the answer does not mention (a client's fault: each answers for all or is
      // unknown) may or may not have been taken: unknown, never dropped from sight.
      const answered = new Set(result.value.map((record) => record.id));
      const unanswered = call.members.filter((m) => !answered.has(m[0]));
      if (unanswered.length > 0) {
        this.handovers.materialize(line.id, unanswered, 'unknown', now + timing.reconcile_ms, now, 'not in the answer');
        this.queueChanged(line);
      }
      // Messages the provider did not take, for a reason of the line's: as that answer's class says.
      for (const { result: why, ids } of notTaken.values()) {
        this.handovers.materialize(
          line.id,
          ids.map((id) => members.get(id)!),
          'handing_over',
          null,
          now,
        );
        this.failed(line, ids, why, now, timing, 'send');
      }
      this.deps.reports.charged(charges);
      this.deps.reports.report(outcomes);
      if (call.client.reportOf) this.applyEarlyReports(line, call.members, now, timing);
      return;
    }
    this.handovers.materialize(line.id, call.members, 'handing_over', null, now);
    this.failed(
      line,
      call.members.map((m) => m[0]),
      result,
      now,
      timing,
      'send',
    );
    if (call.client.reportOf) this.applyEarlyReports(line, call.members, now, timing);
  }

  /**
   * Reports the gateway pushed while the call was running, applied now that its answer is: a report
   * proves the gateway took the message (also one the answer left unknown), and a final one ends it.
   * Also those of a call the app did not live to see answered (killed in between): applied when its
   * messages, unknown after the restart, are reconciled. Each member is [message id, local id, …].
   */
  private applyEarlyReports(
    line: Line,
    members: readonly (readonly [number, number, ...unknown[]])[],
    now: number,
    timing: UpstreamTiming,
  ): void {
    const outcomes: Outcome[] = [];
    const localIds = new Map(members.map((m) => [m[0], m[1]]));
    for (const early of this.handovers.takeEarlyReports(members.map((m) => m[0]))) {
      const row = this.handovers.get(early.message_id);
      if (!row || localIds.get(early.message_id) !== early.local_id) continue;
      if (row.state !== 'accepted' && row.state !== 'unknown' && row.state !== 'review' && row.state !== 'waiting')
        continue;
      if (row.state !== 'accepted')
        this.handovers.accepted(row.message_id, String(early.local_id), null, now, timing.poll_first_ms, 0);
      const final = early.status === null ? undefined : FINAL_AT_PROVIDER.get(early.status);
      if (!final) continue;
      this.handovers.move(row.message_id, 'final', now, null);
      outcomes.push({ id: row.message_id, ...final });
    }
    this.deps.reports.report(outcomes);
  }

  /**
   * The provider's id of a messenger file, uploaded the first time this line sends it; a failed
   * upload is answered as the call's failure (a file gone from the workspace fails its messages).
   */
  private async upstreamFile(line: Line, client: UpstreamClient, fileId: string): Promise<UpstreamFile> {
    const known = this.handovers.upstreamFile(line.id, fileId);
    if (known) return known;
    // Two calls of the line in flight with the same file (two sends of it) share one upload.
    const key = `${line.id}:${fileId}`;
    const inFlight = this.uploading.get(key);
    if (inFlight) return inFlight;
    const upload = (async () => {
      const file = this.deps.files.read(fileId);
      if (!client.uploadFile || !file)
        return { kind: 'error', code: 400, text: file ? 'this provider takes no files' : 'the file is gone' } as const;
      const uploaded = await client.uploadFile(file);
      if (uploaded.kind !== 'ok') return uploaded;
      this.handovers.setUpstreamFile(line.id, fileId, uploaded.value);
      return uploaded.value;
    })();
    this.uploading.set(key, upload);
    try {
      return await upload;
    } finally {
      this.uploading.delete(key);
    }
  }

  /** What a call that did not succeed means for its messages. Inside a transaction. */
  private failed(
    line: Line,
    ids: readonly number[],
    result: Exclude<CallResult<unknown>, { kind: 'ok' }>,
    now: number,
    timing: UpstreamTiming,
    during: 'send' | 'reconcile',
  ): void {
    const back = (
      state: 'waiting' | 'unknown',
      dueAt: number,
      why: { code?: number | null; detail?: string | null },
    ) => {
      for (const id of ids) this.handovers.move(id, state, now, dueAt, why);
    };
    const stayed: 'waiting' | 'unknown' = during === 'send' ? 'waiting' : 'unknown';
    // Retries back off with jitter; a message still failing a day after its hand-over began is
    // given to the user to decide, not retried for ever.
    const later = (why: { code?: number | null; detail: string }) => {
      for (const id of ids) {
        const row = this.handovers.get(id);
        const attempts = row?.attempts ?? 1;
        if (row && now - row.handed_at > GIVE_UP_AFTER_MS)
          this.handovers.move(id, 'review', now, null, {
            code: why.code,
            detail: `still failing after a day: ${why.detail}`,
          });
        else
          this.handovers.move(
            id,
            stayed,
            now,
            now + backoffDelay(attempts, { baseMs: timing.retry_base_ms, maxMs: timing.retry_max_ms }, this.random),
            why,
          );
      }
    };
    if (result.kind === 'unknown') {
      // The request may have reached the provider: found again before anything is sent again.
      back('unknown', now + timing.reconcile_ms, { detail: result.text });
      this.queueChanged(line);
      return;
    }
    if (result.kind === 'not-sent') {
      later({ detail: result.text });
      return;
    }
    const why = { code: result.code, detail: result.text };
    switch (upstreamErrorClass(result.code)) {
      case 'retry':
        later(why);
        return;
      case 'pause':
        back(stayed, now, why);
        this.pause(line, { code: result.code, text: result.text, at: now });
        return;
      case 'split':
        // Our batch was too big for the provider: half as many a call from now on, sent again at once.
        this.handovers.setMaxBatch(line.id, Math.max(1, Math.floor(ids.length / 2)));
        back(stayed, now, why);
        return;
      case 'fail': {
        if (during === 'reconcile') {
          back('unknown', now + timing.reconcile_ms, why);
          return;
        }
        for (const id of ids) this.handovers.move(id, 'rejected', now, null, why);
        this.deps.reports.report(ids.map((id) => ({ id, status: MessageStatus.Cancelled })));
      }
    }
  }

  /** Messages of the line came to need a look (unknown, in review): the window re-reads its queue. */
  private queueChanged(line: Line): void {
    this.deps.onLineChanged?.(line, this.handovers.pause(line.id));
  }

  private pause(line: Line, pause: LinePause): void {
    this.handovers.setPause(line.id, pause);
    this.deps.onLineChanged?.(line, pause);
  }

  // ---- unknown hand-overs

  private startReconcile(line: Line, now: number, timing: UpstreamTiming): boolean {
    const info = GATEWAYS[line.gateway.kind];
    const ids = this.handovers.due(line.id, 'unknown', now, info.maxPerStatus);
    if (ids.length === 0) return false;
    const client = this.clientOf(line);
    if (client?.idempotent) {
      // The provider sends nothing twice for the same id: asking again is the lookup.
      this.deps.db.transaction(() => {
        for (const id of ids)
          this.handovers.move(id, 'waiting', now, now, { detail: 'no answer came; asked again with the same id' });
      })();
      return true;
    }
    if (!client?.findByLocalIds && client?.findSent) return this.startOutboxSearch(line, client, ids, now, timing);
    if (!client?.findByLocalIds) {
      // No way to ask the provider about our ids: the user decides (resend, or mark failed), unless
      // the gateway's report came before the app lost the call (kept: it proves the gateway took it).
      this.deps.db.transaction(() => {
        if (client?.reportOf)
          this.applyEarlyReports(
            line,
            ids.map((id) => [id, Number(this.handovers.get(id)!.local_id)] as const),
            now,
            timing,
          );
        for (const id of ids) {
          if (this.handovers.get(id)?.state !== 'unknown') continue;
          this.handovers.move(id, 'review', now, null, {
            code: this.handovers.get(id)?.code ?? null,
            detail: 'no answer came; the provider cannot be asked whether it took the message',
          });
        }
        this.queueChanged(line);
      })();
      return true;
    }
    const find = client.findByLocalIds;
    this.spend(line, now);
    this.launch(line.id, 'reconcile', async () => {
      const result = await find(ids.map((id) => ({ id, localId: this.handovers.get(id)!.local_id })));
      // What the provider charged for those it has (the lookup by local id does not say): read
      // where it can be (a failed read keeps our price until the next status, which has none either).
      const known = result.kind === 'ok' ? result.value.filter((m) => m.upstreamId !== null) : [];
      const costs = new Map<string, number>();
      if (known.length > 0 && client.costs) {
        const read = await client.costs(known.map((m) => m.upstreamId!));
        if (read.kind === 'ok')
          for (const { upstreamId, costRials } of read.value) if (costRials !== null) costs.set(upstreamId, costRials);
      }
      const at = this.deps.clock.now();
      this.deps.db.transaction(() => {
        if (result.kind !== 'ok') {
          this.failed(line, ids, result, at, timing, 'reconcile');
          return;
        }
        const outcomes: Outcome[] = [];
        const prices = new Map(this.deps.messages.outgoing(known.map((m) => m.id)).map((m) => [m.id, m.cost_rials]));
        const charges: Charge[] = [];
        for (const found of result.value) {
          const row = this.handovers.get(found.id);
          if (row?.state !== 'unknown') continue;
          if (found.upstreamId !== null) {
            const cost = costs.get(found.upstreamId) ?? null;
            // Its cost unread: the polls read it again (a few times) before its outcome is final here.
            const costReads = cost === null && client.costs ? COST_READS : 0;
            this.handovers.accepted(found.id, found.upstreamId, cost, at, timing.poll_first_ms, costReads);
            if (cost !== null && cost !== prices.get(found.id)) charges.push({ id: found.id, cost_rials: cost });
            const final = FINAL_AT_PROVIDER.get(found.status);
            if (final && costReads === 0) {
              this.handovers.move(found.id, 'final', at, null);
              outcomes.push({ id: found.id, ...final });
            }
          } else if (at - row.handed_at < info.localIdWindowMs) {
            // The provider does not have it, and would still recognise a resend by its id: send.
            this.handovers.move(found.id, 'waiting', at, at, { detail: 'not found at the provider; sent again' });
          } else {
            this.handovers.move(found.id, 'review', at, null, {
              detail: 'not found at the provider, too late to send again safely',
            });
          }
        }
        if (result.value.some((m) => m.upstreamId === null)) this.queueChanged(line);
        // Costs first: a message the outcomes make final keeps the cost it has then.
        this.deps.reports.charged(charges);
        this.deps.reports.report(outcomes);
      })();
    });
    return true;
  }

  /**
   * A provider that keeps no ids of ours but lists what it sent (SMS.ir): each unknown message is
   * looked for there by line, receiver, text and time. Found: accepted with the provider's id, as
   * if its answer had come. Not there, with the whole outbox of that time read: it was never sent,
   * and goes back to waiting. Two sends that cannot be told apart, or an outbox that cannot be read
   * to the end: the user decides. Nothing is sent again before the search has answered.
   */
  private startOutboxSearch(
    line: Line,
    client: UpstreamClient,
    ids: readonly number[],
    now: number,
    timing: UpstreamTiming,
  ): boolean {
    const search = client.findSent!;
    const rows = ids.map((id) => this.handovers.get(id)!);
    const messages = this.deps.messages.outgoing(ids).map(({ id, receptor, text }) => ({ id, receptor, text }));
    const from = Math.min(...rows.map((row) => row.handed_at));
    this.spend(line, now);
    this.launch(line.id, 'reconcile', async () => {
      const result = await search({ messages, from, to: now });
      const at = this.deps.clock.now();
      this.deps.db.transaction(() => {
        if (result.kind !== 'ok') {
          this.failed(line, ids, result, at, timing, 'reconcile');
          return;
        }
        const outcomes: Outcome[] = [];
        let toUser = false;
        for (const found of result.value) {
          if (this.handovers.get(found.id)?.state !== 'unknown') continue;
          if (found.upstreamId !== null) {
            // Its cost, where the provider tells it (client.costs), read with the statuses first.
            const costReads = client.costs ? COST_READS : 0;
            this.handovers.accepted(found.id, found.upstreamId, null, at, timing.poll_first_ms, costReads);
            const final = FINAL_AT_PROVIDER.get(found.status);
            if (final && costReads === 0) {
              this.handovers.move(found.id, 'final', at, null);
              outcomes.push({ id: found.id, ...final });
            }
          } else if (found.ambiguous) {
            toUser = true;
            this.handovers.move(found.id, 'review', at, null, {
              detail: 'the same receiver and text went out more than once: which one was ours cannot be said',
            });
          } else {
            this.handovers.move(found.id, 'waiting', at, at, { detail: "not in the provider's outbox; sent again" });
          }
        }
        if (toUser) this.queueChanged(line);
        this.deps.reports.report(outcomes);
      })();
    });
    return true;
  }

  // ---- statuses

  private startPoll(line: Line, now: number): boolean {
    const info = GATEWAYS[line.gateway.kind];
    const ids = this.handovers.due(line.id, 'accepted', now, info.maxPerStatus);
    if (ids.length === 0) return false;
    const client = this.clientOf(line);
    if (!client) return false;
    const rows = ids.map((id) => this.handovers.get(id)!).filter((row) => row.upstream_id !== null);
    this.spend(line, now);
    this.launch(line.id, 'poll', async () => {
      // Costs still unread (messages found again by their local id) are read with the statuses.
      const unpriced = client.costs ? rows.filter((row) => row.cost_reads_left > 0) : [];
      const costRead = unpriced.length > 0 ? await client.costs!(unpriced.map((row) => row.upstream_id!)) : null;
      const result = await client.status(rows.map((row) => row.upstream_id!));
      const at = this.deps.clock.now();
      const timing = this.timing();
      this.deps.db.transaction(() => {
        const costs = new Map<string, number | null>(
          costRead?.kind === 'ok' ? costRead.value.map((c) => [c.upstreamId, c.costRials]) : [],
        );
        const prices = new Map(
          this.deps.messages.outgoing(unpriced.map((row) => row.message_id)).map((m) => [m.id, m.cost_rials]),
        );
        const charges: Charge[] = [];
        const stillUnpriced = new Set<number>();
        for (const row of unpriced) {
          const cost = costs.get(row.upstream_id!) ?? null;
          this.handovers.costRead(row.message_id, cost);
          if (cost !== null && cost !== prices.get(row.message_id))
            charges.push({ id: row.message_id, cost_rials: cost });
          if (cost === null && row.cost_reads_left > 1) stillUnpriced.add(row.message_id);
        }
        const statuses = new Map(result.kind === 'ok' ? result.value.map((s) => [s.upstreamId, s.status]) : []);
        if (result.kind === 'error' && upstreamErrorClass(result.code) === 'pause')
          this.pause(line, { code: result.code, text: result.text, at });
        const outcomes: Outcome[] = [];
        for (const row of rows) {
          const status = statuses.get(row.upstream_id!);
          const final = status === undefined ? undefined : FINAL_AT_PROVIDER.get(status);
          const expired = at - (row.accepted_at ?? row.handed_at) >= info.statusWindowMs;
          if (final && stillUnpriced.has(row.message_id) && !expired) {
            // Final there, its cost not read yet: looked at again soon, then final here with it.
            this.handovers.pollLater(row.message_id, at + timing.poll_first_ms, timing.poll_first_ms, at);
          } else if (final) {
            this.handovers.move(row.message_id, 'final', at, null);
            outcomes.push({ id: row.message_id, ...final });
          } else if (expired) {
            // Past the provider's window it answers nothing more about it: final for us, not failed.
            this.handovers.move(row.message_id, 'expired', at, null, {
              detail: 'status unknown: the provider no longer reports it',
            });
          } else {
            const pollMs = Math.min(timing.poll_max_ms, Math.max(timing.poll_first_ms, (row.poll_ms ?? 0) * 2));
            this.handovers.pollLater(row.message_id, at + pollMs, pollMs, at);
          }
        }
        // Costs first: a message the outcomes make final keeps the cost it has then.
        this.deps.reports.charged(charges);
        this.deps.reports.report(outcomes);
      })();
    });
    return true;
  }

  // ---- replies

  private startInbox(line: Line, now: number, timing: UpstreamTiming): boolean {
    const client = this.clientOf(line);
    const read = client?.inbox;
    if (!read) return false;
    const { readTo } = this.handovers.inbox(line.id);
    const from = Math.max(now - INBOX_MAX_RANGE_MS, (readTo ?? now - INBOX_FIRST_MS) - INBOX_OVERLAP_MS);
    this.spend(line, now);
    this.launch(line.id, 'inbox', async () => {
      let complete = true;
      for (let page = 1, pages = 1; page <= pages && !this.stopped; page++) {
        const result = await read(from, now, page);
        if (result.kind !== 'ok') {
          complete = false;
          break;
        }
        pages = result.value.totalPages;
        this.deps.db.transaction(() => {
          const replies: UpstreamReply[] = [];
          for (const item of result.value.items)
            if (item.upstreamId !== '' && this.handovers.firstSeen(line.id, item.upstreamId))
              replies.push({
                accountId: line.account_id,
                lineNumber: line.number,
                sender: item.sender,
                text: item.text,
                receivedAt: item.receivedAt || now,
              });
          if (replies.length > 0) this.deps.recordReplies?.(replies);
        })();
      }
      // Read to `now` only when every page came; else the same range is read again next time.
      this.handovers.setInbox(line.id, complete ? now : null, this.deps.clock.now() + timing.inbox_ms);
    });
    return true;
  }

  // ---- a paused line's credit

  private checkCredit(line: Line): boolean {
    this.launch(line.id, 'check', async () => {
      await this.test(line);
      // Not yet: look again after as long.
      const pause = this.handovers.pause(line.id);
      if (pause) this.handovers.setPause(line.id, { ...pause, at: this.deps.clock.now() });
    });
    return true;
  }

  // ---- pacing and calls in flight

  private clientOf(line: Line): UpstreamClient | null {
    if (!isUpstream(line.gateway.kind)) return null;
    const apiKey = this.deps.secrets.get(lineKeySecret(line.id));
    if (!apiKey) return null;
    const endpoint = {
      baseUrl: line.gateway.base_url ?? GATEWAYS[line.gateway.kind].defaultBaseUrl ?? '',
      apiKey,
      sender: line.gateway.sender ?? line.number,
      timeoutMs: this.timing().timeout_ms,
      reportBase: this.localAddress && `${this.localAddress}/gateway/reports/${line.id}/${this.reportToken(line)}`,
      http: line.gateway.http,
    };
    if (this.deps.client) return this.deps.client(line.gateway.kind, endpoint);
    return CLIENTS[line.gateway.kind](endpoint);
  }

  /** Whether a call handing messages over is in flight on any line. */
  sending(): boolean {
    for (const [key, n] of this.busy) if (n > 0 && key.endsWith(':send')) return true;
    return false;
  }

  private running(lineId: number, activity: Activity): number {
    return this.busy.get(`${lineId}:${activity}`) ?? 0;
  }

  private idle(lineId: number, activity: Activity): boolean {
    return this.running(lineId, activity) === 0;
  }

  private launch(lineId: number, activity: Activity, work: () => Promise<void>, then?: () => void): void {
    const key = `${lineId}:${activity}`;
    this.busy.set(key, (this.busy.get(key) ?? 0) + 1);
    const done = work()
      .catch((error: unknown) => {
        // An answer that could not be applied (the database closed under it): the state stays as
        // recorded before the call, and the next start takes it from there.
        if (!this.stopped) console.error(`chapar: upstream ${activity} of line ${lineId}:`, error);
      })
      .finally(() => {
        this.busy.set(key, (this.busy.get(key) ?? 1) - 1);
        this.calls.delete(done);
        if (this.stopped) return;
        try {
          then?.();
        } finally {
          this.deps.poke();
        }
      });
    this.calls.add(done);
  }

  /** A token bucket per line: `rate_per_second` calls a second, bursts of as many. */
  private refill(line: Line, now: number): { tokens: number; at: number } {
    const rate = line.gateway.rate_per_second;
    const bucket = this.buckets.get(line.id) ?? { tokens: Math.max(1, rate), at: now };
    bucket.tokens = Math.min(Math.max(1, rate), bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    this.buckets.set(line.id, bucket);
    return bucket;
  }

  private hasToken(line: Line, now: number): boolean {
    return this.refill(line, now).tokens >= 1;
  }

  private spend(line: Line, now: number): void {
    this.refill(line, now).tokens -= 1;
  }

  /** When the line's next call may start. */
  private tokenAt(line: Line): number {
    const now = this.deps.clock.now();
    const bucket = this.refill(line, now);
    return bucket.tokens >= 1 ? now : now + Math.ceil(((1 - bucket.tokens) / line.gateway.rate_per_second) * 1000);
  }
}

/**
 * The messages of one call, from those waiting (in order): the largest group sharing one text goes
 * as one shared-text send when more than one message shares it, else up to `perArray` messages with
 * their own texts; never one receptor twice in a call (the provider would take the second for a
 * duplicate).
 */
export function callBatch<M extends OutgoingMessage & { file_id?: string | null }>(
  waiting: readonly M[],
  perSend: number,
  perArray: number,
): M[] {
  if (waiting.length === 0) return [];
  // One call carries one messenger file (or none): a text is "the same" only with the same file.
  const byText = new Map<string, M[]>();
  for (const m of waiting) {
    const key = `${m.file_id ?? ''}\u0000${m.text}`;
    const group = byText.get(key);
    if (group) group.push(m);
    else byText.set(key, [m]);
  }
  let largest: M[] = [];
  for (const group of byText.values()) if (group.length > largest.length) largest = group;
  const distinct = (candidates: readonly M[], max: number) => {
    const seen = new Set<string>();
    const batch: M[] = [];
    for (const m of candidates) {
      if (batch.length >= max) break;
      if (seen.has(m.receptor)) continue;
      seen.add(m.receptor);
      batch.push(m);
    }
    return batch;
  };
  if (largest.length > 1) return distinct(largest, perSend);
  const file = waiting[0]!.file_id ?? null;
  return distinct(
    waiting.filter((m) => (m.file_id ?? null) === file),
    perArray,
  );
}
