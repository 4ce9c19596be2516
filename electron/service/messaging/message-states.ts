// Each message's status and account, two bytes in a row per 2,000 consecutive ids (migration 0023),
// for the status lookup (status.ts). A message's own row is wide, and in a large workspace ids
// that a program asks about are far apart: 10,000 of them spread over ten million messages landed
// on 10,000 pages of a 1.4 GB table (17-20 ms of page walks, against 6 for the newest 10,000).
// Here those ids fall in at most 5,000 rows of 4 KB, kept in memory once read, in one array
// indexed by id: a lookup of 10,000 ids is then a millisecond wherever they lie.
//
// The writers of messages call in inside their own transactions, as they do for the counts
// (counts.ts): Accept when a send adds its messages (a range of one account and status), the
// Lifecycle for each move (written once per chunk at the end of its batch), retention before it
// deletes a range. A row is read and written whole; its cached copy is dropped, never patched, so
// a transaction that rolls back leaves nothing stale behind.
//
// A workspace upgraded to migration 0023 holds messages whose rows are not filled yet (the chunks
// from message_states_fill's next_chunk to its end_chunk). The fill worker writes them from the
// messages, a few chunks per transaction, at the first start after the upgrade (about 17 s in the
// background at ten million messages, instead of a start that long); until then a lookup reads
// those ids from the messages' own rows, and the writers leave those chunks alone (the fill reads
// the messages as they are when it gets there).
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/database';
import type { Worker } from '../jobs/scheduler';
import { PendingBatch } from './pending-batch';

/** Messages per row: 4,000 bytes of states, one row filling one 4 KB page. */
export const STATES_CHUNK = 2000;

/** The account byte of a message whose account id is outside 1-254: its row says. */
const OTHER_ACCOUNT = 255;

const ROW_BYTES = STATES_CHUNK * 2;

/** The rows kept in memory: ids below 16 million, 32 MB at most (what was never read is never touched). */
const CACHED_ROWS = 8000;

const NO_STATES = Buffer.alloc(0);

/** Rows the fill worker writes per transaction: 8,000 messages, about 10 ms (a request waits for one at most). */
const FILL_CHUNKS = 4;

/**
 * Writes the rows of the messages the SELECT of `messages` gives (all of them, or a range of whole
 * chunks), as the writers keep them: the ids missing before each message in its chunk as zero bytes.
 */
function statesFill(messages: string): string {
  return `
INSERT INTO message_states (chunk, states)
SELECT chunk, unhex(group_concat(part, '' ORDER BY id)) FROM (
  SELECT id, id / ${STATES_CHUNK} AS chunk,
    substr(hex(zeroblob(${ROW_BYTES})), 1, 4 * (id - coalesce(lag(id) OVER (PARTITION BY id / ${STATES_CHUNK} ORDER BY id), id / ${STATES_CHUNK} * ${STATES_CHUNK} - 1) - 1))
      || printf('%02X%02X', status + 1, CASE WHEN account_id BETWEEN 1 AND ${OTHER_ACCOUNT - 1} THEN account_id ELSE ${OTHER_ACCOUNT} END) AS part
  FROM ${messages}
) GROUP BY chunk;
`;
}

/** Every row from the messages: into an empty table (the scale benchmark's workspace, the tests' scan). */
export const STATES_FILL = statesFill('messages');

function accountByte(accountId: number): number {
  return accountId >= 1 && accountId < OTHER_ACCOUNT ? accountId : OTHER_ACCOUNT;
}

/** The rows ids firstId..lastId fall in, each with the first and last of them as offsets in its row. */
function* rowsOf(firstId: number, lastId: number): Generator<{ chunk: number; from: number; to: number }> {
  for (let chunk = Math.floor(firstId / STATES_CHUNK); chunk * STATES_CHUNK <= lastId; chunk++)
    yield {
      chunk,
      from: Math.max(firstId, chunk * STATES_CHUNK) % STATES_CHUNK,
      to: Math.min(lastId, chunk * STATES_CHUNK + STATES_CHUNK - 1) % STATES_CHUNK,
    };
}

export class MessageStates {
  /** The states of ids below cached.length / 2, valid for the rows marked in `loaded`. */
  private cached = new Uint8Array(0);
  private loaded = new Uint8Array(0);
  /** Moves of the current batch: id -> [account, status]. */
  private readonly pending = new Map<number, [number, number]>();
  private readonly batches = new PendingBatch(
    () => this.flush(),
    () => this.pending.clear(),
  );
  private readonly rowStmt: Statement<[number], { states: Buffer }>;
  private readonly rowsStmt: Statement<[string], { chunk: number; states: Buffer }>;
  private readonly writeStmt: Statement<[number, Buffer]>;
  private readonly dropStmt: Statement<[number]>;
  private readonly messagesStmt: Statement<[number, string], { id: number; status: number }>;
  /** Chunks fillNext..fillEnd - 1 are not filled yet (see the top). */
  private fillNext = 0;
  private fillEnd = 0;
  private readonly fillStmt: Statement<[], { next_chunk: number; end_chunk: number }>;
  private readonly fillStep: (next: number, last: number) => void;
  /** The background fill of the chunks an upgrade left, for the scheduler. */
  readonly worker: Worker;

  constructor(
    db: Db,
    /** Rows kept in memory at most (tests make it small to reach the rows beyond). */
    private readonly cachedRows = CACHED_ROWS,
  ) {
    this.rowStmt = db.prepare('SELECT states FROM message_states WHERE chunk = ?');
    this.rowsStmt = db.prepare(
      'SELECT chunk, states FROM message_states WHERE chunk IN (SELECT value FROM json_each(?))',
    );
    this.writeStmt = db.prepare(
      'INSERT INTO message_states (chunk, states) VALUES (?, ?) ON CONFLICT (chunk) DO UPDATE SET states = excluded.states',
    );
    this.dropStmt = db.prepare('DELETE FROM message_states WHERE chunk = ?');
    // The messages of an account outside 1-254, read from their rows (the account is checked on
    // the row found, never by walking the account's index).
    this.messagesStmt = db.prepare(
      'SELECT id, status FROM messages WHERE +account_id = ? AND id IN (SELECT value FROM json_each(?))',
    );
    this.fillStmt = db.prepare('SELECT next_chunk, end_chunk FROM message_states_fill WHERE id = 1');
    const clear = db.prepare<[number, number]>('DELETE FROM message_states WHERE chunk BETWEEN ? AND ?');
    const fill = db.prepare<[number, number]>(statesFill('messages WHERE id BETWEEN ? AND ?'));
    const advance = db.prepare<[number]>('UPDATE message_states_fill SET next_chunk = ? WHERE id = 1');
    const done = db.prepare('DELETE FROM message_states_fill');
    this.fillStep = db.transaction((next: number, last: number) => {
      clear.run(next, last);
      fill.run(next * STATES_CHUNK, (last + 1) * STATES_CHUNK - 1);
      if (last + 1 < this.fillEnd) advance.run(last + 1);
      else done.run();
    });
    this.readFill();
    this.worker = {
      name: 'message-states-fill',
      nextDueAt: () => (this.fillNext < this.fillEnd ? 0 : null),
      runDue: () => this.fillSome(),
    };
  }

  /**
   * The statuses of the account's messages among `ids` (positive integers); an id of no message,
   * or of another account's, is not in the map.
   */
  lookup(accountId: number, ids: readonly number[]): Map<number, number> {
    const beyond = this.load(ids);
    const found = new Map<number, number>();
    const account = accountByte(accountId);
    // Ids of an account outside 1-254, or in a chunk not filled yet: their rows say.
    const unsure: number[] = [];
    const cached = this.cached;
    for (const id of ids) {
      if (this.unfilled(Math.floor(id / STATES_CHUNK))) {
        unsure.push(id);
        continue;
      }
      let states: Uint8Array = cached;
      let at = id * 2;
      if (at >= cached.length) {
        states = beyond.get(Math.floor(id / STATES_CHUNK))!;
        at = (id % STATES_CHUNK) * 2;
        if (at >= states.length) continue;
      }
      const state = states[at]!;
      if (state === 0) continue;
      const owner = states[at + 1]!;
      if (owner === OTHER_ACCOUNT) unsure.push(id);
      else if (owner === account) found.set(id, state - 1);
    }
    if (unsure.length > 0)
      for (const row of this.messagesStmt.all(accountId, JSON.stringify(unsure))) found.set(row.id, row.status);
    return found;
  }

  /** A send's messages firstId..lastId, all of one account and status. Inside its transaction. */
  placed(firstId: number, lastId: number, accountId: number, status: number): void {
    const account = accountByte(accountId);
    for (const { chunk, from, to } of rowsOf(firstId, lastId))
      if (!this.unfilled(chunk))
        this.edit(chunk, to, (states) => {
          for (let at = from * 2; at <= to * 2; at += 2) {
            states[at] = status + 1;
            states[at + 1] = account;
          }
        });
  }

  /**
   * Runs `work` (inside the caller's transaction) and writes the moves it recorded at the end of
   * the outermost batch, once per row; a batch that throws writes nothing.
   */
  batch<T>(work: () => T): T {
    return this.batches.run(work);
  }

  /** A message moved to `status`. Inside a batch (or written at once). */
  moved(id: number, accountId: number, status: number): void {
    this.pending.set(id, [accountByte(accountId), status + 1]);
    this.batches.recorded();
  }

  /** Forgets messages firstId..lastId before they are removed (retention). Inside the removal's transaction. */
  forget(firstId: number, lastId: number): void {
    for (const { chunk, from, to } of rowsOf(firstId, lastId)) {
      if (this.unfilled(chunk)) continue;
      const stored = this.rowStmt.get(chunk)?.states;
      if (stored) this.edit(chunk, 0, (copy) => copy.fill(0, from * 2, Math.min(copy.length, to * 2 + 2)), stored);
    }
  }

  /** Forgets what was read (the database was replaced by a restore, and migrated). */
  reset(): void {
    this.loaded.fill(0);
    this.readFill();
  }

  private readFill(): void {
    const fill = this.fillStmt.get();
    this.fillNext = fill?.next_chunk ?? 0;
    this.fillEnd = fill?.end_chunk ?? 0;
  }

  private unfilled(chunk: number): boolean {
    return chunk >= this.fillNext && chunk < this.fillEnd;
  }

  /** Fills the next few chunks an upgrade left (one transaction); false when none is left. */
  private fillSome(): boolean {
    if (this.fillNext >= this.fillEnd) return false;
    const last = Math.min(this.fillEnd, this.fillNext + FILL_CHUNKS) - 1;
    this.fillStep(this.fillNext, last);
    for (let chunk = this.fillNext; chunk <= last && chunk < this.loaded.length; chunk++) this.loaded[chunk] = 0;
    this.fillNext = last + 1;
    return true;
  }

  private flush(): void {
    const byChunk = new Map<number, number[]>();
    for (const id of this.pending.keys()) {
      const chunk = Math.floor(id / STATES_CHUNK);
      const ids = byChunk.get(chunk);
      if (ids) ids.push(id);
      else byChunk.set(chunk, [id]);
    }
    for (const [chunk, ids] of byChunk)
      if (!this.unfilled(chunk))
        this.edit(chunk, Math.max(...ids) % STATES_CHUNK, (states) => {
          for (const id of ids) {
            const [account, state] = this.pending.get(id)!;
            const at = (id % STATES_CHUNK) * 2;
            states[at] = state;
            states[at + 1] = account;
          }
        });
    this.pending.clear();
  }

  /**
   * Rewrites one row (`stored`: as read, when the caller has read it): `change` edits a copy at
   * least long enough for offset `upto`; the row ends at its last message (none: no row), as the
   * migration's fill makes it.
   */
  private edit(
    chunk: number,
    upto: number,
    change: (states: Buffer) => void,
    stored = this.rowStmt.get(chunk)?.states ?? NO_STATES,
  ): void {
    const states = Buffer.alloc(Math.max(stored.length, upto * 2 + 2));
    stored.copy(states);
    change(states);
    let end = states.length;
    while (end > 0 && states[end - 2] === 0) end -= 2;
    if (end === 0) this.dropStmt.run(chunk);
    else this.writeStmt.run(chunk, states.subarray(0, end));
    if (chunk < this.loaded.length) this.loaded[chunk] = 0;
  }

  /**
   * Reads the rows of the ids not in memory, in one statement: those of the first `cachedRows` rows into the
   * array, the others returned for this lookup alone (a missing row is an empty one).
   */
  private load(ids: readonly number[]): Map<number, Uint8Array> {
    const missing = new Set<number>();
    for (const id of ids) {
      const chunk = Math.floor(id / STATES_CHUNK);
      if (this.loaded[chunk] !== 1 && !this.unfilled(chunk)) missing.add(chunk);
    }
    const beyond = new Map<number, Uint8Array>();
    if (missing.size === 0) return beyond;
    let top = 0;
    for (const chunk of missing) top = Math.max(top, chunk);
    this.grow(Math.min(top + 1, this.cachedRows));
    for (const chunk of missing)
      if (chunk < this.loaded.length) this.cached.fill(0, chunk * ROW_BYTES, (chunk + 1) * ROW_BYTES);
      else beyond.set(chunk, NO_STATES);
    for (const row of this.rowsStmt.all(JSON.stringify([...missing])))
      if (row.chunk < this.loaded.length) this.cached.set(row.states, row.chunk * ROW_BYTES);
      else beyond.set(row.chunk, row.states);
    for (const chunk of missing) if (chunk < this.loaded.length) this.loaded[chunk] = 1;
    return beyond;
  }

  /** Makes room for `rows` rows in memory, doubling (what it holds is kept). */
  private grow(rows: number): void {
    if (rows <= this.loaded.length) return;
    const size = Math.min(this.cachedRows, Math.max(rows, this.loaded.length * 2));
    const cached = new Uint8Array(size * ROW_BYTES);
    cached.set(this.cached);
    const loaded = new Uint8Array(size);
    loaded.set(this.loaded);
    this.cached = cached;
    this.loaded = loaded;
  }
}
