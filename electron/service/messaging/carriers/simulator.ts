// The simulator carrier (PRODUCT.md "Message lifecycle without a carrier"): every message handed
// over gets one final outcome delivery_ms later, drawn from the configured shares by a hash of
// (seed, message id), so a seed always gives the same outcomes. What it still has to report lives
// in simulator_due (ranges of ids, as the lifecycle's own due times), written in the hand-over's
// transaction, so a crash neither loses nor repeats a report.
// Replies too: a reply_share of the delivered messages get one reply_ms after the delivery, an
// optout_share of them asking to opt out, drawn by other hashes of the same (seed, id). A pending
// reply is a row of simulator_replies, written with the delivery's report and deleted with the
// reply's recording, each in one transaction. What it reads of the messages (which are still
// handed over, where a reply comes from) it asks messaging (CarrierMessages).
import type { Db } from '../../db/database';
import type { Clock } from '../../clock';
import type { Settings, SimulatorSettings } from '../../settings/settings';
import type { Worker } from '../../jobs/scheduler';
import { FINAL_STATUSES, MessageStatus } from '../../../../shared/lifecycle';
import { DueRanges, DueRuns } from '../due-ranges';
import { BATCH } from '../lifecycle';
import { DEFAULT_REPLY_MS } from '../../../../shared/ipc/contracts/settings';
import type { Carrier, CarrierMessages, CarrierReports, Handover, Outcome } from './carrier';

/** A deterministic uniform number in [0, 1) from (seed, id): splitmix32-style mixing. */
export function draw(seed: number, id: number): number {
  let h = (Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(id | 0, 0x85ebca6b) ^ Math.floor(id / 0x100000000)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 0x100000000;
}

/** The simulator ends every message in one of the final statuses, by the configured shares. */
export function outcomeFor(simulator: Pick<SimulatorSettings, 'seed' | 'outcomes'>, id: number): MessageStatus {
  const shares = FINAL_STATUSES.map((status) =>
    Math.max(0, simulator.outcomes[String(status) as keyof SimulatorSettings['outcomes']] ?? 0),
  );
  const total = shares.reduce((a, b) => a + b, 0);
  let x = draw(simulator.seed, id) * total;
  for (let i = 0; i < FINAL_STATUSES.length; i++) {
    x -= shares[i]!;
    if (x < 0) return FINAL_STATUSES[i]!;
  }
  return MessageStatus.Delivered;
}

// Other draws of the same (seed, id) than the outcome's: whether a reply comes, whether it opts out,
// and which text it has.
const REPLY_SALT = 0x2545f491;
const OPT_OUT_SALT = 0x68e31da4;
const TEXT_SALT = 0x1b873593;

/** What customers answer, in the ways they write. */
export const REPLY_TEXTS: readonly string[] = [
  'ممنون',
  'مرسی، دریافت شد',
  'سلام، قیمتش چنده؟',
  'کی ارسال میشه؟',
  'ساعت ۱۱ میام',
  'لطفا با من تماس بگیرید',
  'Thanks!',
  'ok',
];
/** How they ask to leave the list: Persian and Latin words, Persian, Arabic and Latin digits. */
export const OPT_OUT_TEXTS: readonly string[] = ['11', 'لغو', 'لغو۱۱', 'laghv', 'لغو 11', '١١'];

/** Whether a delivered message gets a reply (0 never does). */
export function repliesTo(simulator: SimulatorSettings, id: number): boolean {
  const share = simulator.reply_share ?? 0;
  return share > 0 && draw(simulator.seed ^ REPLY_SALT, id) < share;
}

/** The text of the reply to message `id`. */
export function replyText(simulator: SimulatorSettings, id: number): string {
  const texts = draw(simulator.seed ^ OPT_OUT_SALT, id) < (simulator.optout_share ?? 0) ? OPT_OUT_TEXTS : REPLY_TEXTS;
  return texts[Math.floor(draw(simulator.seed ^ TEXT_SALT, id) * texts.length)]!;
}

/** A reply the simulator makes a customer send. */
export interface SimulatedReply {
  accountId: number;
  lineNumber: string;
  sender: string;
  text: string;
  receivedAt: number;
  replyTo: number;
}

export class SimulatorCarrier implements Carrier {
  readonly name = 'simulator';
  readonly worker: Worker;
  private readonly pending: DueRanges;
  private readonly replyAddStmt;
  private readonly replyNextStmt;
  private readonly replyDueStmt;
  private readonly replyDropStmt;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly settings: Settings,
    private readonly reports: CarrierReports,
    /** The messages' reads (messaging's tables). */
    private readonly messages: CarrierMessages,
    /** Records replies (the Inbox), inside the simulator's transaction; without it, no replies. */
    private readonly replies?: (replies: SimulatedReply[]) => void,
  ) {
    this.pending = new DueRanges(db, 'simulator_due');
    this.replyAddStmt = db.prepare('INSERT OR IGNORE INTO simulator_replies (message_id, due_at) VALUES (?, ?)');
    this.replyNextStmt = db.prepare<[], number | null>('SELECT MIN(due_at) FROM simulator_replies').pluck();
    this.replyDueStmt = db
      .prepare<[number, number], number>(
        'SELECT message_id FROM simulator_replies WHERE due_at <= ? ORDER BY due_at, message_id LIMIT ?',
      )
      .pluck();
    this.replyDropStmt = db.prepare('DELETE FROM simulator_replies WHERE message_id = ?');
    this.worker = {
      name: 'simulator',
      nextDueAt: () => {
        const delivery = this.pending.nextDueAt();
        const reply = this.replyNextStmt.get() ?? null;
        return delivery === null ? reply : reply === null ? delivery : Math.min(delivery, reply);
      },
      runDue: () => this.deliver() || this.reply(),
    };
  }

  accept(batch: readonly Handover[], now: number): void {
    // A hand-over may gather several sends (several due ranges, maybe of other lines between them):
    // a run never passes over an id it was not given.
    const runs = new DueRuns(this.pending, false);
    const at = now + this.settings.simulator().delivery_ms;
    for (const message of batch) runs.push(message.id, at);
    runs.flush();
  }

  /** Retention deletes these (final) messages: their ranges, all reported, go with them. */
  forget(firstId: number, lastId: number): void {
    this.pending.withdraw(firstId, lastId);
  }

  /** Reports the outcomes of one due batch; false when nothing was due. */
  private deliver(): boolean {
    const simulator = this.settings.simulator();
    return this.db.transaction(() => {
      const ranges = this.pending.takeDue(
        this.clock.now(),
        BATCH,
        this.messages.handedOver,
        ([id]) => id,
        ([, range]) => range,
      );
      if (ranges === null) return false;
      const ids = ranges.flat().map(([id]) => id);
      const outcomes: Outcome[] = ids.map((id) => ({ id, status: outcomeFor(simulator, id) }));
      // Nested in this transaction: the reports, the replies they bring and the range taken off
      // commit together.
      const changes = this.reports.report(outcomes);
      if (this.replies) {
        const at = this.clock.now() + (simulator.reply_ms ?? DEFAULT_REPLY_MS);
        for (const change of changes)
          if (change.status === MessageStatus.Delivered && repliesTo(simulator, change.id))
            this.replyAddStmt.run(change.id, at);
      }
      return true;
    })();
  }

  /** Records one due batch of replies; false when none was due. */
  private reply(): boolean {
    const record = this.replies;
    if (!record) return false;
    const simulator = this.settings.simulator();
    return this.db.transaction(() => {
      const ids = this.replyDueStmt.all(this.clock.now(), BATCH);
      if (ids.length === 0) return false;
      const replies: SimulatedReply[] = [];
      for (const id of ids) {
        this.replyDropStmt.run(id);
        // A message deleted since (its account removed, retention) gets no reply.
        const message = this.messages.address(id);
        if (!message) continue;
        replies.push({
          accountId: message.account_id,
          lineNumber: message.sender,
          sender: message.receptor,
          text: replyText(simulator, id),
          receivedAt: this.clock.now(),
          replyTo: id,
        });
      }
      if (replies.length > 0) record(replies);
      return true;
    })();
  }
}
