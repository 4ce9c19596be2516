// The seam between the message lifecycle and whoever delivers. The lifecycle decides when a
// message is due, moves it 1 -> 4 and hands the batch over; a carrier takes the batch and reports
// each message's outcome later, asynchronously, through CarrierReports. The lifecycle applies the
// reported moves (guarded by the status they move from, refunds exactly once, pushes to the UI),
// so a carrier never writes a message's status itself.
//
// A new carrier (an HTTP upstream) implements `accept` by recording what it must deliver (e.g. a
// persisted hand-over job, enqueued in the same transaction), does its I/O in its own worker or
// job, and calls `reports.report()` as outcomes arrive (webhook or polling). What it reads of the
// messages it asks CarrierMessages (messaging owns those tables; a carrier names only its own), and
// what it keeps per message it drops in `forget` when retention removes those messages.
import type { Worker } from '../../jobs/scheduler';
import type { MessageStatus } from '../../../../shared/lifecycle';
import type { StatusChange } from '../status-change';
import type { DueRangesJson } from '../due-ranges';

/** A message just handed over (status 4). An upstream reads text and sender by id if it needs them. */
export interface Handover {
  id: number;
  account_id: number;
  receptor: string;
  /** The sender line's number (the gateway is the line's). */
  sender: string;
}

export interface Outcome {
  id: number;
  status: MessageStatus;
  /**
   * The provider gave the cost back (its 14, "blocked, refunded"): refunded even where the table's
   * move keeps it (a block the simulator reports was sent and stays paid). Exactly once, as always.
   */
  refund?: boolean;
}

/** What a provider charged for a message (its own `cost`), rials. */
export interface Charge {
  id: number;
  cost_rials: number;
}

export interface CarrierReports {
  /** Applies reported outcomes; returns the moves made (a move the lifecycle does not allow is ignored). */
  report(outcomes: readonly Outcome[]): StatusChange[];
  /**
   * The provider's own costs of messages it accepted: each message then costs what the provider
   * charged, the difference to our price given back (or taken) in the ledger, in one transaction.
   * A message already final keeps its cost (its refund, if any, was of that cost).
   */
  charged(charges: readonly Charge[]): void;
}

/** What a carrier may read of the messages (messaging's tables), given at construction. */
export interface CarrierMessages {
  /**
   * The messages of these due ranges still handed to the carrier (status 4), as [id, the range's
   * index]: each range's ascending, the ranges in their order, at most `limit` in all (a takeDue read).
   */
  handedOver(ranges: DueRangesJson, limit: number): [number, number][];
  /** Where message `id` went: its account, receiver and sender line; undefined when it is gone. */
  address(id: number): { account_id: number; receptor: string; sender: string } | undefined;
  /** What to hand over of these messages: receiver, final text and our price, by id (ids gone are left out). */
  outgoing(ids: readonly number[]): {
    id: number;
    receptor: string;
    text: string;
    status: MessageStatus;
    cost_rials: number;
    /** The messenger file its send attaches (Bale), or null. */
    file_id: string | null;
  }[];
}

export interface Carrier {
  readonly name: string;
  /**
   * Takes a batch of messages just moved to 4, inside the lifecycle's transaction: it must only
   * record (synchronously, in the same database) what it will deliver, so that a crash either
   * loses both the move and the record or neither. Delivery happens later.
   */
  accept(batch: readonly Handover[], now: number): void;
  /** The carrier's own timed work on the scheduler loop (deliveries, reports), if any. */
  readonly worker?: Worker;
  /**
   * Messages firstId..lastId are being deleted (retention: all final, so none still waits on the
   * carrier), inside messaging's transaction: drop what the carrier keeps for them (its queued
   * ranges lying inside), synchronously, in the same database. A carrier keeping nothing per
   * message needs none.
   */
  forget?(firstId: number, lastId: number): void;
}

export type CarrierFactory = (reports: CarrierReports, messages: CarrierMessages) => Carrier;
