// Each message's status and account, two bytes in a row per 2,000 consecutive ids (migration 0023),
// for the status lookup (status.ts). A message's own row is wide, and in a large workspace ids
// that a program asks about are far apart: 10,000 of them spread over ten million messages landed
// on 10,000 pages of a 1.4 GB table (17-20 ms of page walks, against 6 for the newest 10,000).
// Here those ids fall in at most 5,000 rows of 4 KB, kept in memory once read, in one array
// indexed by id: a lookup of 10,000 ids is then a millisecond wherever they lie.
//
// The writers of messages call in inside their own transactions, as they do for the counts
// (counts.ts): Accept when a send adds its messages (a range of one account and status), the
// Lifecycle for each move (both written once per chunk at the end of their batch: a lifecycle
// step's, a group commit's dozen sends), retention before it deletes a range. A row is read and
// written whole; its cached copy is dropped, never patched, so a transaction that rolls back
// leaves nothing stale behind.
//
// A workspace upgraded to migration 0023 holds messages whose rows are not filled yet (the chunks
// from message_states_fill's next_chunk to its end_chunk). The fill worker writes them from the
// messages, a few chunks per transaction, at the first start after the upgrade (about 17 s in the
// background at ten million messages, instead of a start that long); until then a lookup reads
// those ids from the messages' own rows, and the writers leave those chunks alone (the fill reads
// the messages as they are when it gets there).
//
// Beside each state, the message's source (migration 0025): the code of the account, sender line
// and origin it was sent with, two bytes per message in rows of the same ids, written once by the
// send. With both, the messages of any id range are counted by account, status, sender and origin
// (a date range's ends, queries.ts) from a few hundred rows, at 750,000 messages in a few
// milliseconds instead of a scan of the messages (480 ms). Sources are kept with the states: the
// same chunks, the same fill after an upgrade, the same retention.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/database';
import type { Worker } from '../jobs/scheduler';
import type { IdBounds } from './created-order';
import type { CountKey } from './counts';
import { PendingBatch } from './pending-batch';
import { accountIdsSql } from '../accounts/accounts';

/** Messages per row: 4,000 bytes of states, one row filling one 4 KB page. */
export const STATES_CHUNK = 2000;

/** The account byte of a message whose account id is outside 1-254: its row says. */
const OTHER_ACCOUNT = 255;

const ROW_BYTES = STATES_CHUNK * 2;

/** The rows kept in memory: ids below 16 million, 32 MB at most (what was never read is never touched). */
const CACHED_ROWS = 8000;

const NO_STATES = Buffer.alloc(0);

/**
 * Chunks the fill worker writes per transaction: 4,000 messages' states and sources, about 15 ms
 * (a request waits for one at most).
 */
const FILL_CHUNKS = 2;

/** The code written for a source past the last one two bytes hold: its messages are read. */
const OTHER_SOURCE = 0xffff;

/** What a message's states and sources are written by (counts.ts' key but its time). */
export type MessageSource = Pick<CountKey, 'account_id' | 'sender' | 'origin'>;

/** A send's messages placed in the current batch: ids first..last, their account byte, state byte and source code. */
interface Placed {
  first: number;
  last: number;
  account: number;
  state: number;
  source: number;
}

/** What a batch recorded so far (an inner batch's start): a copy, for taking back what it adds. */
interface BatchMark {
  placed: number;
  moved: Map<number, [number, number]>;
  codes: Map<string, number>;
}

/** What one row gets at the end of a batch: placed ranges (offsets in the row) and moved ids. */
interface RowChanges {
  placed: Array<{ of: Placed; from: number; to: number }>;
  moved: number[];
  /** The last offset written in the states, and in the sources. */
  statesUpto: number;
  sourcesUpto: number;
}

/**
 * Writes the rows of `table` for the messages `values` gives (id and the hex of its two bytes), as
 * the writers keep them: the ids missing before each message in its chunk as zero bytes.
 */
function chunksFill(table: string, column: string, values: string): string {
  return `
INSERT INTO ${table} (chunk, ${column})
SELECT chunk, unhex(group_concat(part, '' ORDER BY id)) FROM (
  SELECT id, id / ${STATES_CHUNK} AS chunk,
    substr(hex(zeroblob(${ROW_BYTES})), 1, 4 * (id - coalesce(lag(id) OVER (PARTITION BY id / ${STATES_CHUNK} ORDER BY id), id / ${STATES_CHUNK} * ${STATES_CHUNK} - 1) - 1))
      || value AS part
  FROM (${values})
) GROUP BY chunk`;
}

/**
 * The statements that write the states and sources of every message, or (`range`) of those with
 * ids between two parameters (whole chunks): the sources' codes first, then both rows.
 */
function statesFill(range: boolean): string[] {
  const where = range ? 'WHERE m.id BETWEEN ? AND ?' : '';
  return [
    `INSERT OR IGNORE INTO send_sources (account_id, sender, origin) ${
      range
        ? `SELECT DISTINCT s.account_id, s.sender, s.origin FROM messages m JOIN sends s ON s.id = m.send_id ${where}`
        : 'SELECT DISTINCT account_id, sender, origin FROM sends'
    }`,
    chunksFill(
      'message_states',
      'states',
      `SELECT id, printf('%02X%02X', status + 1,
         CASE WHEN account_id BETWEEN 1 AND ${OTHER_ACCOUNT - 1} THEN account_id ELSE ${OTHER_ACCOUNT} END) AS value
       FROM messages m ${where}`,
    ),
    chunksFill(
      'message_sources',
      'sources',
      `SELECT m.id, printf('%04X', min(src.id, ${OTHER_SOURCE})) AS value
       FROM messages m JOIN sends s ON s.id = m.send_id
       JOIN send_sources src ON src.account_id = s.account_id AND src.sender = s.sender AND src.origin = s.origin ${where}`,
    ),
  ];
}

/** Every row again from the messages (the scale benchmark's workspace, the tests' scan). */
export const STATES_FILL = ['DELETE FROM message_states', 'DELETE FROM message_sources', ...statesFill(false)]
  .map((sql) => sql + ';\n')
  .join('');

/** A source as the batch's codes are kept by. */
function sourceKey(source: MessageSource): string {
  return `${source.account_id}\u0000${source.sender}\u0000${source.origin}`;
}

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

/** One table of two bytes per message in rows of STATES_CHUNK ids: the states, or the sources. */
class ChunkRows {
  readonly read: Statement<[number], Buffer | undefined>;
  private readonly write: Statement<[number, Buffer]>;
  private readonly drop: Statement<[number]>;

  constructor(
    db: Db,
    readonly table: string,
    column: string,
  ) {
    this.read = db.prepare<[number], Buffer | undefined>(`SELECT ${column} FROM ${table} WHERE chunk = ?`).pluck();
    this.write = db.prepare(
      `INSERT INTO ${table} (chunk, ${column}) VALUES (?, ?) ON CONFLICT (chunk) DO UPDATE SET ${column} = excluded.${column}`,
    );
    this.drop = db.prepare(`DELETE FROM ${table} WHERE chunk = ?`);
  }

  /**
   * Rewrites one row (`stored`: as read, when the caller has read it): `change` edits a copy at
   * least long enough for offset `upto`; the row ends at its last message (none: no row), as the
   * fill makes it.
   */
  edit(chunk: number, upto: number, change: (bytes: Buffer) => void, stored = this.read.get(chunk) ?? NO_STATES): void {
    const bytes = Buffer.alloc(Math.max(stored.length, upto * 2 + 2));
    stored.copy(bytes);
    change(bytes);
    let end = bytes.length;
    while (end > 0 && bytes[end - 2] === 0 && bytes[end - 1] === 0) end -= 2;
    if (end === 0) this.drop.run(chunk);
    else this.write.run(chunk, bytes.subarray(0, end));
  }
}

export class MessageStates {
  /** The states of ids below cached.length / 2, valid for the rows marked in `loaded`. */
  private cached = new Uint8Array(0);
  private loaded = new Uint8Array(0);
  /** Moves of the current batch: id -> [account, status]. */
  private pending = new Map<number, [number, number]>();
  /** Sends placed in the current batch: a group commit's dozen sends write each row once. */
  private placedRanges: Placed[] = [];
  /**
   * Source codes found or added in the current batch, by sourceKey(): a group's sends mostly share
   * one. Kept no longer than the batch, and taken back with an inner batch that threw (its
   * savepoint took back a code it added).
   */
  private codes = new Map<string, number>();
  private readonly batches = new PendingBatch<BatchMark>(
    () => this.flush(),
    () => this.forgetBatch(),
    () => ({ placed: this.placedRanges.length, moved: new Map(this.pending), codes: new Map(this.codes) }),
    (mark) => {
      this.placedRanges.length = mark.placed;
      this.pending = mark.moved;
      this.codes = mark.codes;
    },
  );
  private readonly states: ChunkRows;
  private readonly sources: ChunkRows;
  private readonly rowsStmt: Statement<[string], { chunk: number; states: Buffer }>;
  private readonly messagesStmt: Statement<[number, string], { id: number; status: number }>;
  private readonly sourceStmt: Statement<[number, string, string], number | undefined>;
  private readonly addSourceStmt: Statement<[number, string, string], number>;
  private readonly lastSourceStmt: Statement<[], number | null>;
  /** sourcesOf's statements, by the filter's columns. */
  private readonly sourcesStmts = new Map<string, Statement<unknown[], number>>();
  private readonly rangeStmt: Statement<[number, number], { chunk: number; states: Buffer; sources: Buffer | null }>;
  /** Chunks fillNext..fillEnd - 1 are not filled yet (see the top). */
  private fillNext = 0;
  private fillEnd = 0;
  private readonly fillStmt: Statement<[], { next_chunk: number; end_chunk: number }>;
  private readonly fillStep: (next: number, last: number) => void;
  /** The background fill of the chunks an upgrade left, for the scheduler. */
  readonly worker: Worker;

  constructor(
    private readonly db: Db,
    /** Rows kept in memory at most (tests make it small to reach the rows beyond). */
    private readonly cachedRows = CACHED_ROWS,
  ) {
    this.states = new ChunkRows(db, 'message_states', 'states');
    this.sources = new ChunkRows(db, 'message_sources', 'sources');
    this.rowsStmt = db.prepare(
      'SELECT chunk, states FROM message_states WHERE chunk IN (SELECT value FROM json_each(?))',
    );
    // The messages of an account outside 1-254, read from their rows (the account is checked on
    // the row found, never by walking the account's index).
    this.messagesStmt = db.prepare(
      'SELECT id, status FROM messages WHERE +account_id = ? AND id IN (SELECT value FROM json_each(?))',
    );
    this.sourceStmt = db
      .prepare<[number, string, string], number | undefined>(
        'SELECT id FROM send_sources WHERE account_id = ? AND sender = ? AND origin = ?',
      )
      .pluck();
    this.addSourceStmt = db
      .prepare<[number, string, string], number>(
        'INSERT INTO send_sources (account_id, sender, origin) VALUES (?, ?, ?) RETURNING id',
      )
      .pluck();
    this.lastSourceStmt = db.prepare<[], number | null>('SELECT max(id) FROM send_sources').pluck();
    // Both rows of each chunk of a range, in one statement.
    this.rangeStmt = db.prepare(
      `SELECT s.chunk, s.states, o.sources FROM message_states s LEFT JOIN message_sources o ON o.chunk = s.chunk
       WHERE s.chunk BETWEEN ? AND ?`,
    );
    this.fillStmt = db.prepare('SELECT next_chunk, end_chunk FROM message_states_fill WHERE id = 1');
    const clear = [this.states.table, this.sources.table].map((table) =>
      db.prepare<[number, number]>(`DELETE FROM ${table} WHERE chunk BETWEEN ? AND ?`),
    );
    const fill = statesFill(true).map((sql) => db.prepare<[number, number]>(sql));
    const advance = db.prepare<[number]>('UPDATE message_states_fill SET next_chunk = ? WHERE id = 1');
    const done = db.prepare('DELETE FROM message_states_fill');
    this.fillStep = db.transaction((next: number, last: number) => {
      for (const statement of clear) statement.run(next, last);
      for (const statement of fill) statement.run(next * STATES_CHUNK, (last + 1) * STATES_CHUNK - 1);
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

  /**
   * The codes of the sources of `filter`'s account, sender line and origin (each when given; only
   * accounts that exist, as the aggregates are read); null when some source's code did not fit in
   * two bytes (a count reads the messages then).
   */
  sourcesOf(filter: { account_id?: number; sender?: string; origin?: string }): number[] | null {
    if ((this.lastSourceStmt.get() ?? 0) >= OTHER_SOURCE) return null;
    const parts = [`account_id IN ${accountIdsSql()}`];
    const params: Array<number | string> = [];
    for (const [column, value] of [
      ['account_id', filter.account_id],
      ['sender', filter.sender],
      ['origin', filter.origin],
    ] as const)
      if (value !== undefined) {
        parts.push(`${column} = ?`);
        params.push(value);
      }
    const sql = `SELECT id FROM send_sources WHERE ${parts.join(' AND ')}`;
    let statement = this.sourcesStmts.get(sql);
    if (!statement) this.sourcesStmts.set(sql, (statement = this.db.prepare<unknown[], number>(sql).pluck()));
    return statement.all(...params);
  }

  /**
   * How many messages with ids firstId..lastId have one of `statuses` (any, when none is given) and
   * one of the `sources` (sourcesOf's codes), read from their rows: two bytes of each row per
   * message, a few milliseconds for 750,000. The ids in chunks not filled yet (after an upgrade)
   * are left out: `unread` is their range, for the caller to count from the messages.
   */
  count(
    firstId: number,
    lastId: number,
    statuses: readonly number[] | undefined,
    sources: readonly number[],
  ): { counted: number; unread: IdBounds | null } {
    // Wanted by their stored byte (a state is the status + 1; 0 is no message) and code.
    const wantedState = new Uint8Array(256).fill(statuses?.length ? 0 : 1, 1);
    for (const status of statuses ?? []) if (status >= 0 && status < 255) wantedState[status + 1] = 1;
    const wantedSource = new Uint8Array(OTHER_SOURCE + 1);
    for (const code of sources) wantedSource[code] = 1;
    let counted = 0;
    for (const row of this.rangeStmt.iterate(Math.floor(firstId / STATES_CHUNK), Math.floor(lastId / STATES_CHUNK))) {
      if (this.unfilled(row.chunk) || row.sources === null) continue;
      const { states, sources: codes } = row;
      const start = row.chunk * STATES_CHUNK;
      const end = Math.min((lastId - start) * 2 + 2, states.length, codes.length);
      for (let at = Math.max(firstId - start, 0) * 2; at < end; at += 2)
        if (wantedState[states[at]!] === 1 && wantedSource[(codes[at]! << 8) | codes[at + 1]!] === 1) counted++;
    }
    const unread = {
      lo: Math.max(firstId, this.fillNext * STATES_CHUNK),
      hi: Math.min(lastId, this.fillEnd * STATES_CHUNK - 1),
    };
    return { counted, unread: unread.lo <= unread.hi ? unread : null };
  }

  /**
   * A send's messages firstId..lastId, all of one source and status. Inside its transaction, and
   * inside a batch (written at its end, with the moves) or written at once.
   */
  placed(firstId: number, lastId: number, key: MessageSource & { status: number }): void {
    this.placedRanges.push({
      first: firstId,
      last: lastId,
      account: accountByte(key.account_id),
      state: key.status + 1,
      source: this.sourceCode(key),
    });
    this.batches.recorded();
  }

  /**
   * A source's code, added when new in the send's transaction (a send that rolls back takes it
   * back too: a code is kept in memory for the batch alone, and an inner batch that threw forgets
   * the codes it found).
   */
  private sourceCode(source: MessageSource): number {
    const key = sourceKey(source);
    let code = this.codes.get(key);
    if (code === undefined) {
      code =
        this.sourceStmt.get(source.account_id, source.sender, source.origin) ??
        this.addSourceStmt.get(source.account_id, source.sender, source.origin)!;
      this.codes.set(key, code);
    }
    return Math.min(code, OTHER_SOURCE);
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
      const clear = (bytes: Buffer) => bytes.fill(0, from * 2, Math.min(bytes.length, to * 2 + 2));
      const states = this.states.read.get(chunk);
      if (states) this.editStates(chunk, 0, clear, states);
      const sources = this.sources.read.get(chunk);
      if (sources) this.sources.edit(chunk, 0, clear, sources);
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

  /**
   * Writes the batch's placed sends and moves, each touched row once: the states (placed first,
   * then moved: a message moved in the batch that placed it ends moved) and the sources of the
   * placed ones.
   */
  private flush(): void {
    const rows = new Map<number, RowChanges>();
    const rowOf = (chunk: number): RowChanges => {
      let changes = rows.get(chunk);
      if (changes === undefined) rows.set(chunk, (changes = { placed: [], moved: [], statesUpto: 0, sourcesUpto: -1 }));
      return changes;
    };
    for (const placed of this.placedRanges)
      for (const { chunk, from, to } of rowsOf(placed.first, placed.last)) {
        const changes = rowOf(chunk);
        changes.placed.push({ of: placed, from, to });
        changes.statesUpto = Math.max(changes.statesUpto, to);
        changes.sourcesUpto = Math.max(changes.sourcesUpto, to);
      }
    for (const id of this.pending.keys()) {
      const changes = rowOf(Math.floor(id / STATES_CHUNK));
      changes.moved.push(id);
      changes.statesUpto = Math.max(changes.statesUpto, id % STATES_CHUNK);
    }
    for (const [chunk, changes] of rows) if (!this.unfilled(chunk)) this.writeRow(chunk, changes);
    this.forgetBatch();
  }

  /** One row's states and sources at the end of a batch. */
  private writeRow(chunk: number, changes: RowChanges): void {
    this.editStates(chunk, changes.statesUpto, (states) => {
      for (const { of, from, to } of changes.placed)
        for (let at = from * 2; at <= to * 2; at += 2) {
          states[at] = of.state;
          states[at + 1] = of.account;
        }
      for (const id of changes.moved) {
        const [account, state] = this.pending.get(id)!;
        const at = (id % STATES_CHUNK) * 2;
        states[at] = state;
        states[at + 1] = account;
      }
    });
    if (changes.placed.length > 0)
      this.sources.edit(chunk, changes.sourcesUpto, (sources) => {
        for (const { of, from, to } of changes.placed)
          for (let at = from * 2; at <= to * 2; at += 2) sources.writeUInt16BE(of.source, at);
      });
  }

  private forgetBatch(): void {
    this.pending.clear();
    this.placedRanges = [];
    this.codes.clear();
  }

  /** Rewrites one row of states (ChunkRows.edit), dropping the copy held in memory. */
  private editStates(chunk: number, upto: number, change: (states: Buffer) => void, stored?: Buffer): void {
    this.states.edit(chunk, upto, change, stored);
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
