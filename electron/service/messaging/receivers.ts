// The receiver index: which messages went to a number, or to any number holding a part of one,
// without reading the messages table (issue 16). A send never writes it: an index on
// messages.receptor made a 10,000-receiver send 30 times slower (migration 0004). A worker on the
// scheduler indexes the messages above a persisted watermark instead, a chunk per transaction,
// when no message has come for a second (or the unindexed tail has grown large), and a search
// reads the index up to the watermark and the tail above it directly.
//
// Layout (migration 0019), chosen with the numbers below: each receiver's message ids live in a
// contentless FTS5 table (rowid = message id, the receptor its one token), so they are stored
// delta-encoded and the index grows by appending segments that FTS5 merges later, instead of
// rewriting a page per receiver. The distinct numbers sit in a trigram FTS5 table for parts of a
// number (3 digits or more); 1 or 2 digits, or a part held by too many numbers or messages, is
// too broad (null): a list walking newest first finds its page quickly when matches are dense.
//
// NUMBERS (this machine, 2 cores, WAL with its auto-checkpoint as the app runs).
// Layouts at 3,000,000 messages to 950,365 numbers (1,000,000 drawn uniformly), a chunk of 500 at
// the end, the same numbers' side for all three:
//   A. WITHOUT ROWID (receiver INTEGER, message_id)        16.6 B/message  chunk p50 15.6, p99 31 ms
//   B. a row per receiver, ids delta-encoded in a BLOB      7.9 B/message  chunk p50 15.6, p99 41 ms
//      (WITHOUT ROWID (receiver, first_id, ids), ids in rows of at most 240 bytes)
//   C. FTS5 postings (this), unmerged                       7.2 B/message  chunk p50  2.1, p99 19 ms
//   A and B write a B-tree page per receiver of the chunk; C writes a segment of a few pages.
//   The numbers' side: trigrams with detail=none are half of detail=full (17.8 against 35.9 MB
//   for 950,365 numbers), found again by checking each candidate's digits.
// At 10,000,000 messages to 1,000,000 numbers (the scale benchmark's workspace):
//   - bytes: receiver_messages 3.7 + receiver_digits 1.5 + receiver_keys 1.1 = 6.3 B/message
//     merged, 6.8 with 6 segments (400,000 messages later);
//   - indexed from scratch by the worker in 49 s (a chunk and a merge step per run: p50 1.3 ms,
//     p99 13, max 23, the long ones the WAL checkpoints that every writer meets); indexAll (the
//     benchmark's builder) 50 s;
//   - afterwards, 200,000 more (10% new numbers): runs p50 1.8 ms, p99 11, max 12 (without the
//     checkpoints p99 4);
//   - condition + list or count on the reader pool, 200 runs (today's scan: 714 and 617 ms):
//     a whole number p99 2 ms (33 ms for one with 180,000 messages); a 4-digit part (about 6,000
//     messages) p99 29 ms merged, 39 ms with 6 segments; 5 digits p99 6 ms; 3 digits, 0912: null;
//   - a part's numbers read one FTS5 lookup each: an OR of its 600 numbers took 24 ms p50, 281
//     max (FTS5 steps every term for each id); 13 and 46 ms at 12 segments; 1.4 and 16 at one;
//   - new numbers told by receiver_keys (a B-tree): asking receiver_messages instead saves 1.1
//     B/message but the catch-up took three times the CPU (193 s against 65 s), a run p50 11 ms;
//   - forget() of 5,000 messages: 2.5 ms in the retention's transaction.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/database';
import type { ReaderPool } from '../db/readers';
import type { Clock } from '../clock';
import type { Worker } from '../jobs/scheduler';
import { fts5Merge, type Fts5Merge } from '../db/fts5-merge';
import { CANONICAL_GLOB, isCanonical, keyReceptor, partQuery, receptorToken } from './receivers-match';

/** A WHERE fragment over alias `m` and its parameters. */
export interface ReceiverCondition {
  sql: string;
  params: Array<string | number>;
}

export interface ReceiverIndexOptions {
  /** Messages indexed per transaction by the worker. */
  chunk?: number;
  /** A part held by more numbers than this is too broad. */
  maxReceivers?: number;
  /** A part whose numbers have more indexed messages than this is too broad. */
  maxMessages?: number;
  /** With more messages than this not indexed yet, the index is no help: every search is too broad. */
  maxTail?: number;
  /** The worker's quiet time and large tail (QUIET_MS, LARGE_TAIL). */
  quietMs?: number;
  largeTail?: number;
  /**
   * Whether messages are being delivered right now (due for their next move, or in a call to a
   * provider): the worker waits meanwhile, as it waits while messages keep coming, unless half of
   * maxTail is not indexed yet. Delivery comes first: at 100,000 messages handed to a provider the
   * index took an eighth of the main thread (bench handover100k), and a search reads the tail
   * directly until the index catches up.
   */
  delivering?: () => boolean;
}

/** Messages per worker transaction: a millisecond or two (NUMBERS). */
export const CHUNK = 500;
/** The worker waits for this long without a new message... */
export const QUIET_MS = 1_000;
/** ...unless this many wait for it: then it works a quarter of the time, between the sends. */
export const LARGE_TAIL = 50_000;
/** Pages of FTS5 merging per step: a few milliseconds, and far more than a chunk adds. */
const MERGE_PAGES = 32;
/**
 * A part's lookup reads each of its numbers in every segment of receiver_messages: past this many
 * segments, a quiet worker merges them all into one (NUMBERS). Each chunk adds a segment and FTS5
 * folds them four by four, so this comes back every few dozen chunks; at ten million messages the
 * whole merge is a few hundred steps of a few milliseconds.
 */
const MAX_SEGMENTS = 6;
/** The shortest part the trigram index answers. */
const MIN_PART = 3;
const MAX_RECEIVERS = 2_000;
const MAX_MESSAGES = 20_000;
const MAX_TAIL = 1_000_000;
/** While delivering, the worker looks again this often. */
const DELIVERING_RECHECK_MS = 250;
/** indexAll's transactions: one pass, no worker, no one waiting. */
const BULK_CHUNK = 100_000;

export class ReceiverIndex {
  /** The background indexer, for the scheduler. */
  readonly worker: Worker;
  private readonly chunk: number;
  private readonly maxReceivers: number;
  private readonly maxMessages: number;
  private readonly maxTail: number;
  private readonly quietMs: number;
  private readonly largeTail: number;
  private readonly delivering: () => boolean;
  /** The newest message id seen, and when it changed: "quiet" is a second without a new one. */
  private lastTop: number | null = null;
  private topChangedAt = 0;
  /** Under load, the worker rests three times as long as its last run took. */
  private restUntil = 0;
  /** Whether FTS5 has no merging left to do (checked once after a start). */
  private merged = false;
  private readonly merge: Fts5Merge;
  private readonly stmt: {
    top: Statement<[], number | null>;
    watermark: Statement<[], number>;
    setWatermark: Statement<[number]>;
    chunkEnd: Statement<[number, number], number | null>;
    postings: Statement<[number, number]>;
    odd: Statement<[number, number]>;
    newNumbers: Statement<[number, number]>;
    keys: Statement<[number, number]>;
    mergeMessages: Statement<[]>;
    mergeDigits: Statement<[]>;
    mergeAll: Statement<[]>;
    segments: Statement<[], number>;
    forgetPostings: Statement<[number, number]>;
    forgetOdd: Statement<[number, number]>;
  };

  constructor(
    private readonly db: Db,
    private readonly readers: ReaderPool,
    private readonly clock: Clock,
    options: ReceiverIndexOptions = {},
  ) {
    this.chunk = options.chunk ?? CHUNK;
    this.maxReceivers = options.maxReceivers ?? MAX_RECEIVERS;
    this.maxMessages = options.maxMessages ?? MAX_MESSAGES;
    this.maxTail = options.maxTail ?? MAX_TAIL;
    this.quietMs = options.quietMs ?? QUIET_MS;
    this.largeTail = options.largeTail ?? LARGE_TAIL;
    this.delivering = options.delivering ?? (() => false);
    this.merge = fts5Merge(db);
    const canonical = (column: string) => `${column} GLOB '${CANONICAL_GLOB}'`;
    this.stmt = {
      top: db.prepare<[], number | null>('SELECT MAX(id) FROM messages').pluck(),
      watermark: db.prepare<[], number>('SELECT watermark FROM receiver_index WHERE id = 1').pluck(),
      setWatermark: db.prepare('UPDATE receiver_index SET watermark = ? WHERE id = 1'),
      chunkEnd: db
        .prepare<[number, number], number | null>(
          'SELECT MAX(id) FROM (SELECT id FROM messages WHERE id > ? ORDER BY id LIMIT ?)',
        )
        .pluck(),
      postings: db.prepare(
        `INSERT INTO receiver_messages (rowid, receiver)
         SELECT id, receptor FROM messages WHERE id > ? AND id <= ? AND ${canonical('receptor')}`,
      ),
      odd: db.prepare(
        `INSERT INTO receiver_odd (message_id)
         SELECT id FROM messages WHERE id > ? AND id <= ? AND NOT ${canonical('receptor')}`,
      ),
      // The chunk's numbers not seen before get their trigrams; receiver_keys remembers the numbers
      // seen. (Asking receiver_messages instead saves its 1.1 bytes a message but costs a lookup
      // per number in every segment: a catch-up three times the work, NUMBERS.)
      newNumbers: db.prepare(
        `INSERT INTO receiver_digits (rowid, digits)
         SELECT DISTINCT CAST(m.receptor AS INTEGER), m.receptor FROM messages m
         WHERE m.id > ? AND m.id <= ? AND ${canonical('m.receptor')}
           AND NOT EXISTS (SELECT 1 FROM receiver_keys k WHERE k.key = CAST(m.receptor AS INTEGER))`,
      ),
      keys: db.prepare(
        `INSERT OR IGNORE INTO receiver_keys (key)
         SELECT CAST(receptor AS INTEGER) FROM messages WHERE id > ? AND id <= ? AND ${canonical('receptor')}`,
      ),
      // (FTS5 takes its commands' arguments as literals only.)
      mergeMessages: db.prepare(
        `INSERT INTO receiver_messages (receiver_messages, rank) VALUES ('merge', ${MERGE_PAGES})`,
      ),
      mergeDigits: db.prepare(`INSERT INTO receiver_digits (receiver_digits, rank) VALUES ('merge', ${MERGE_PAGES})`),
      // A negative count merges every segment into one, as 'optimize' does, a step at a time.
      mergeAll: db.prepare(`INSERT INTO receiver_messages (receiver_messages, rank) VALUES ('merge', -${MERGE_PAGES})`),
      // FTS5 lists every segment's leaves in its %_idx table.
      segments: db.prepare<[], number>('SELECT count(DISTINCT segid) FROM receiver_messages_idx').pluck(),
      forgetPostings: db.prepare(
        `INSERT INTO receiver_messages (receiver_messages, rowid, receiver)
         SELECT 'delete', id, receptor FROM messages
         WHERE id BETWEEN ? AND ? AND id <= (SELECT watermark FROM receiver_index WHERE id = 1)
           AND ${canonical('receptor')}`,
      ),
      forgetOdd: db.prepare('DELETE FROM receiver_odd WHERE message_id BETWEEN ? AND ?'),
    };
    this.worker = {
      name: 'receiver-index',
      // An index follows the sends: it waits out a flood of requests (jobs/scheduler.ts).
      givesWay: true,
      nextDueAt: () => this.dueAt(),
      runDue: () => this.runDue(),
    };
  }

  /**
   * A WHERE fragment over alias `m` selecting exactly the messages whose receptor contains `digits`
   * (11 digits: equal to them), or null when the part is too broad for the index (1 or 2 digits,
   * too many numbers or messages, or too much not indexed yet). The unindexed tail (ids above the
   * watermark) is read directly, and only it. Run the query on the reader pool: a part's messages
   * can be tens of thousands.
   */
  async condition(digits: string): Promise<ReceiverCondition | null> {
    if (!/^[0-9]+$/.test(digits)) throw new Error('the receiver index looks up digits');
    if (this.tail() > this.maxTail) return null;
    if (digits.length === 11) return this.whole(digits);
    if (digits.length < MIN_PART) return null;
    return this.part(digits);
  }

  /** A whole number: its own token, and the tail compared by equality, in one statement (one snapshot). */
  private whole(receptor: string): ReceiverCondition {
    const tail = `SELECT id FROM messages WHERE id > (SELECT watermark FROM receiver_index WHERE id = 1) AND receptor = ?`;
    // The index proposes, the message decides: an id the index still holds for a message that
    // went (retention without forget()) or came back under another number selects nothing.
    if (isCanonical(receptor))
      return {
        sql: `(m.id IN (SELECT rowid FROM receiver_messages WHERE receiver_messages MATCH ? UNION ALL ${tail}) AND m.receptor = ?)`,
        params: [receptorToken(receptor), receptor, receptor],
      };
    return {
      sql: `(m.id IN (SELECT message_id FROM receiver_odd UNION ALL ${tail}) AND m.receptor = ?)`,
      params: [receptor, receptor],
    };
  }

  /**
   * A part: the numbers holding it come from the trigram index on a reader, with the watermark of
   * the same snapshot, so a number first indexed after that read has its messages above that
   * watermark, in the tail the condition reads.
   */
  private async part(digits: string): Promise<ReceiverCondition | null> {
    // The trigram index over-selects a little (no positions): room for those before the check.
    const candidates = this.maxReceivers * 2;
    const found = await this.readers.get<{ watermark: number; keys: string }>(
      `SELECT (SELECT watermark FROM receiver_index WHERE id = 1) AS watermark,
         (SELECT json_group_array(rowid) FROM
           (SELECT rowid FROM receiver_digits WHERE receiver_digits MATCH ? LIMIT ?)) AS keys`,
      [partQuery(digits), candidates + 1],
    );
    const keys = JSON.parse(found!.keys) as number[];
    if (keys.length > candidates) return null;
    const receptors = keys.map(keyReceptor).filter((receptor) => receptor.includes(digits));
    if (receptors.length > this.maxReceivers) return null;
    // Their messages, read once here and handed over as JSON: one FTS5 lookup per number (an OR of
    // hundreds of terms costs FTS5 a pass over all of them per message: 10 times slower).
    let ids = '[]';
    if (receptors.length > 0) {
      const messages = await this.readers.get<{ n: number; ids: string }>(
        `SELECT count(*) AS n, json_group_array(id) AS ids FROM (
           SELECT f.rowid AS id FROM json_each(?) j, receiver_messages(j.value) f LIMIT ?)`,
        [JSON.stringify(receptors.map(receptorToken)), this.maxMessages + 1],
      );
      if (messages!.n > this.maxMessages) return null;
      ids = messages!.ids;
    }
    return {
      sql: `(m.id IN (SELECT value FROM json_each(?)
          UNION ALL SELECT id FROM messages WHERE id > ? AND instr(receptor, ?) > 0
          UNION ALL SELECT message_id FROM receiver_odd)
        AND instr(m.receptor, ?) > 0)`,
      params: [ids, found!.watermark, digits, digits],
    };
  }

  /** Messages with ids up to this one are in the index. */
  watermark(): number {
    return this.stmt.watermark.get()!;
  }

  /** About how many messages are not indexed yet (ids above the watermark). */
  tail(): number {
    return Math.max(0, (this.stmt.top.get() ?? 0) - this.watermark());
  }

  /**
   * Indexes the next `limit` messages above the watermark in one transaction; returns how many
   * (0: none left). The worker's unit of work.
   */
  indexChunk(limit = this.chunk): number {
    return this.db.transaction(() => {
      const from = this.stmt.watermark.get()!;
      const to = this.stmt.chunkEnd.get(from, limit);
      if (to === null || to === undefined) return 0;
      this.stmt.newNumbers.run(from, to);
      this.stmt.keys.run(from, to);
      const indexed = this.stmt.postings.run(from, to).changes + this.stmt.odd.run(from, to).changes;
      this.stmt.setWatermark.run(to);
      this.merged = false;
      return indexed;
    })();
  }

  /** Indexes everything now and merges the index whole: tests, and the benchmark's workspace builder. */
  indexAll(): void {
    while (this.indexChunk(BULK_CHUNK) > 0);
    this.db.exec(`INSERT INTO receiver_messages (receiver_messages) VALUES ('optimize');
      INSERT INTO receiver_digits (receiver_digits) VALUES ('optimize');`);
    this.merged = true;
  }

  /**
   * The messages with ids firstId..lastId are about to be deleted (retention): their ids leave the
   * index too. Call it inside the deleting transaction, before the DELETE: it reads their
   * receptors. Without it the index still answers right (a condition selects only messages that
   * exist) but keeps their ids, about 4 bytes each.
   */
  forget(firstId: number, lastId: number): void {
    this.stmt.forgetPostings.run(firstId, lastId);
    this.stmt.forgetOdd.run(firstId, lastId);
    this.merged = false;
  }

  /**
   * One bounded step of FTS5 merging (a few milliseconds); false when there is none left to do.
   * FTS5's own merges first (segments of a level four by four); then, with `whole` and past
   * MAX_SEGMENTS, all of receiver_messages into one (a few hundred steps at ten million messages).
   */
  mergeStep(whole = true): boolean {
    let worked = this.merge([this.stmt.mergeMessages, this.stmt.mergeDigits]);
    if (!worked && whole && this.stmt.segments.get()! > MAX_SEGMENTS) worked = this.merge([this.stmt.mergeAll]);
    this.merged = !worked && whole;
    return worked;
  }

  /** When the worker has work: null for none. Also notes when the newest message changed. */
  private dueAt(): number | null {
    const due = this.workDueAt();
    if (due === null || !this.delivering()) return due;
    const tail = (this.stmt.top.get() ?? 0) - this.stmt.watermark.get()!;
    return tail > this.maxTail / 2 ? due : Math.max(due, this.clock.now() + DELIVERING_RECHECK_MS);
  }

  private workDueAt(): number | null {
    const now = this.clock.now();
    const top = this.stmt.top.get() ?? 0;
    if (top !== this.lastTop) {
      this.lastTop = top;
      this.topChangedAt = now;
    }
    const watermark = this.stmt.watermark.get()!;
    // The newest messages went (retention never takes the newest): their ids will be given again.
    if (top < watermark) return now;
    const quietAt = this.topChangedAt + this.quietMs;
    if (top === watermark) return this.merged ? null : quietAt;
    if (top - watermark > this.largeTail) return Math.min(quietAt, this.restUntil);
    return quietAt;
  }

  private runDue(): boolean {
    const due = this.dueAt();
    const started = this.clock.now();
    if (due === null || due > started) return false;
    const top = this.stmt.top.get() ?? 0;
    const watermark = this.stmt.watermark.get()!;
    if (top < watermark) {
      // Their postings stay; a condition checks every message it selects against its receptor.
      this.stmt.setWatermark.run(top);
      return true;
    }
    // A merge step after each chunk keeps FTS5's segments few (its own "crisis" merges, which can
    // be large, never come), and takes far less than a chunk adds. The whole index is merged into
    // one only once the tail is in: during a catch-up that would be redone again and again.
    const indexed = top > watermark ? this.indexChunk() : 0;
    const merging = this.merged ? false : this.mergeStep(indexed === 0);
    this.restUntil = this.clock.now() + 3 * (this.clock.now() - started);
    return indexed > 0 || merging;
  }
}
