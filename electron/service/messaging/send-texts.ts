// The send-text index: which sends' texts can hold a search term, without reading every text
// (issue 16). Texts live per send, so a text search starts from the sends; with two million sends
// of their own text (a shop's order and code messages) reading them all took 0.3-4 s, the longest
// when the term holds digits (each digit has two other spellings to fold). A send never writes it:
// a worker on the scheduler indexes whole blocks of 16 sends above a watermark, and a search reads
// the index below the watermark and the sends above it directly (as the receiver index does).
//
// The index only proposes: a block holding every trigram of the term. Each proposed send's own
// text is then compared with the term (db/text-match.ts, the one rule of a text search), so the
// answer is exactly what reading every send gives. Terms of one or two letters have no trigram:
// they read every send, as before (they match most texts anyway).
//
// NUMBERS (this machine, the scale benchmark's two million sends, 94 million characters):
//   - index size: a document per send 51.7 B/send (10.3 B/message); a block of 4 sends 39.5; of
//     16 sends 22.6 (4.5 B/message); built in 7-13 s. With positions (phrases) 144 B/send.
//   - a count of "shipped", in a fifth of the texts, is bound by checking those 400,000 texts: an
//     exact index with positions counts them in 55 ms but summing their sends' messages under an
//     account takes 170 ms; reading every text takes 150-320 ms. So a count of a term without
//     digits sums the text tallies (text-tallies.ts) instead, which this index's worker writes with
//     its blocks: 10-16 ms; the index serves the terms with digits and the lists.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/database';
import type { ReaderPool } from '../db/readers';
import type { Clock } from '../clock';
import type { Worker } from '../jobs/scheduler';
import { searchKey } from '../../../shared/search';
import { textMatch } from '../db/text-match';
import { fts5Merge, type Fts5Merge } from '../db/fts5-merge';
import { CHUNK, TextTallies, type TextCondition } from './text-tallies';

export type { TextCondition };

/** Sends per document (migration 0021's trigger says the same). */
export const BLOCK = 16;
/** Blocks per chunk of tallies. */
const PER_CHUNK = CHUNK / BLOCK;
/** Blocks written per worker run: about a thousand texts, a few milliseconds. */
const BLOCKS_PER_RUN = 64;
/** indexAll's transactions: one pass, no one waiting. */
const BULK_BLOCKS = 20_000;
/** Pages of FTS5 merging per worker step. */
const MERGE_PAGES = 32;
/**
 * A long term asks for this many of its trigrams, spread over it: each proposed text is checked
 * anyway, and each trigram more is one more list of blocks to read.
 */
const MAX_TRIGRAMS = 16;
/**
 * A count reads every send instead when the index proposes more than this share of its blocks
 * ("shipped" in a fifth of the texts is in nearly every block of 16): 440 ms through the index
 * against 370 reading them all, at two million sends.
 */
const BROAD_SHARE = 0.4;
/** A search takes the matching sends' ids first when there are at most this many (see sends()). */
export const MAX_SENDS = 5_000;

/**
 * The FTS5 query asking for every trigram of `key` (each one a quoted string, its quotes doubled),
 * or null when the key has fewer than three characters.
 */
export function trigramQuery(key: string): string | null {
  const chars = Array.from(key);
  if (chars.length < 3) return null;
  const trigrams = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) trigrams.add(chars.slice(i, i + 3).join(''));
  let chosen = [...trigrams];
  // A long term: trigrams spread over it, its ends included.
  if (chosen.length > MAX_TRIGRAMS) {
    const step = (chosen.length - 1) / (MAX_TRIGRAMS - 1);
    chosen = Array.from({ length: MAX_TRIGRAMS }, (_, i) => chosen[Math.round(i * step)]!);
  }
  return chosen.map((t) => `"${t.replaceAll('"', '""')}"`).join(' ');
}

/** A block's document: its sends' texts in search form, one per line. */
function blockDocument(texts: readonly string[]): string {
  return texts.map(searchKey).join('\n');
}

export class SendTextIndex {
  /** The background indexer, for the scheduler. */
  readonly worker: Worker;
  /** The templates' message counts, written with the blocks (text-tallies.ts). */
  readonly tallies: TextTallies;
  private restUntil = 0;
  /** Whether FTS5 has no merging left to do (checked once after a start). */
  private merged = false;
  private readonly merge: Fts5Merge;
  private readonly stmt: {
    top: Statement<[], number | null>;
    state: Statement<[], { upto: number; written: number }>;
    setState: Statement<[number, number]>;
    texts: Statement<[number, number], { id: number; text: string }>;
    insert: Statement<[number, string]>;
    remove: Statement<[number]>;
    merge: Statement<[]>;
    optimize: Statement<[]>;
  };

  private readonly broadShare: number;

  constructor(
    private readonly db: Db,
    private readonly readers: ReaderPool,
    private readonly clock: Clock,
    options: { broadShare?: number; maxTemplates?: number } = {},
  ) {
    this.broadShare = options.broadShare ?? BROAD_SHARE;
    this.merge = fts5Merge(db);
    this.tallies = new TextTallies(db, options.maxTemplates);
    this.stmt = {
      top: db.prepare<[], number | null>('SELECT MAX(id) FROM sends').pluck(),
      state: db.prepare('SELECT upto, written FROM send_text_index WHERE id = 1'),
      setState: db.prepare('UPDATE send_text_index SET upto = ?, written = ? WHERE id = 1'),
      texts: db.prepare('SELECT id, text FROM sends WHERE id >= ? AND id < ? ORDER BY id'),
      insert: db.prepare('INSERT INTO send_texts (rowid, text) VALUES (?, ?)'),
      remove: db.prepare('DELETE FROM send_texts WHERE rowid = ?'),
      // (FTS5 takes its commands' arguments as literals only.)
      merge: db.prepare(`INSERT INTO send_texts (send_texts, rank) VALUES ('merge', ${MERGE_PAGES})`),
      optimize: db.prepare(`INSERT INTO send_texts (send_texts) VALUES ('optimize')`),
    };
    this.worker = {
      name: 'send-text-index',
      // An index follows the sends: it waits out a flood of requests (jobs/scheduler.ts).
      givesWay: true,
      nextDueAt: () => this.dueAt(),
      runDue: () => this.runDue(),
    };
  }

  /**
   * A FROM clause of the sends (alias s) whose texts may hold `key` (in search form), for a count
   * that reads them all: null when reading every send is quicker (the key too short for trigrams,
   * or its blocks more than BROAD_SHARE of them: a check through the index costs about twice a
   * plain read of the same text). The caller checks each send's text.
   */
  async countCandidates(key: string): Promise<TextCondition | null> {
    const query = trigramQuery(key);
    if (query === null) return null;
    const blocks = this.upto() / BLOCK;
    const broad = Math.ceil(blocks * this.broadShare) + 1;
    const found = await this.readers.get<{ n: number }>(
      'SELECT count(*) AS n FROM (SELECT 1 FROM send_texts WHERE send_texts MATCH ? AND rowid < ? LIMIT ?)',
      [query, blocks, broad],
    );
    return found!.n >= broad ? null : this.candidates(key);
  }

  /**
   * A FROM clause of the sends (alias s) whose texts may hold `key` (in search form): those in the
   * index's blocks below the watermark and every send above it, read in one statement, so in one
   * snapshot. Null when the key is too short for trigrams. The caller checks each send's text.
   */
  private candidates(key: string): TextCondition | null {
    const query = trigramQuery(key);
    if (query === null) return null;
    // (CROSS JOIN: the ranges of ids lead, each one a seek into sends.)
    return {
      sql: `(SELECT rowid * ${BLOCK} AS lo, rowid * ${BLOCK} + ${BLOCK - 1} AS hi FROM send_texts
            WHERE send_texts MATCH ? AND rowid < (SELECT upto FROM send_text_index WHERE id = 1) / ${BLOCK}
          UNION ALL SELECT upto AS lo, ${Number.MAX_SAFE_INTEGER} AS hi FROM send_text_index WHERE id = 1) c
        CROSS JOIN sends s ON s.id BETWEEN c.lo AND c.hi`,
      params: [query],
    };
  }

  /**
   * SQL selecting the ids of the sends whose own text holds `key` (in search form): proposed by the
   * index, checked text by text. Without trigrams in the key, every send's text is read.
   */
  matching(key: string): TextCondition {
    const match = textMatch('s.text', key);
    const from = this.candidates(key) ?? { sql: 'sends s', params: [] };
    return { sql: `SELECT s.id FROM ${from.sql} WHERE ${match.sql}`, params: [...from.params, ...match.params] };
  }

  /**
   * The ids of the sends whose text holds `key`, read on a reader thread, when there are at most
   * `max` of them (a search then reads their messages through the send index instead of walking
   * every message); null when there are more, or the key is too short for the index.
   */
  async sends(key: string, max = MAX_SENDS): Promise<number[] | null> {
    if (trigramQuery(key) === null) return null;
    const matching = this.matching(key);
    const found = await this.readers.get<{ n: number; ids: string }>(
      `SELECT count(*) AS n, json_group_array(id) AS ids FROM (${matching.sql} LIMIT ?)`,
      [...matching.params, max + 1],
    );
    return found!.n > max ? null : (JSON.parse(found!.ids) as number[]);
  }

  /** Sends with ids below this one are in the index. */
  upto(): number {
    return this.stmt.state.get()!.upto;
  }

  /**
   * Writes the next `limit` whole blocks above the watermark in one transaction; returns how many
   * (0: none left). A block is whole once a send after it exists: ids are given in order, so no
   * send will come into it again (but after the newest sends went: migration 0021's trigger).
   */
  indexBlocks(limit = BLOCKS_PER_RUN): number {
    return this.db.transaction(() => {
      const { upto, written } = this.stmt.state.get()!;
      const whole = Math.floor(((this.stmt.top.get() ?? -1) + 1) / BLOCK);
      const first = upto / BLOCK;
      const end = Math.min(whole, first + limit);
      if (end <= first) return 0;
      const byBlock = new Map<number, string[]>();
      for (const { id, text } of this.stmt.texts.iterate(first * BLOCK, end * BLOCK)) {
        const block = Math.floor(id / BLOCK);
        let texts = byBlock.get(block);
        if (!texts) byBlock.set(block, (texts = []));
        texts.push(text);
      }
      // A block written before the newest sends went and their ids came again: the old document goes.
      for (let block = first; block < end; block++) this.write(block, byBlock.get(block), block < written);
      // The chunks of tallies these blocks complete.
      const known = new Map<string, number>();
      for (let chunk = Math.floor(first / PER_CHUNK); chunk < Math.floor(end / PER_CHUNK); chunk++)
        this.tallies.writeChunk(chunk, known);
      this.stmt.setState.run(end * BLOCK, Math.max(written, end));
      this.merged = false;
      return end - first;
    })();
  }

  /**
   * Sends went (retention): the indexed blocks that held them are written again from the sends
   * left, in the deleting transaction. Without it the index still answers right (each send it
   * proposes is read) but keeps their texts. Their whole chunks of tallies are written again too:
   * those must, or a count would still sum the sends that went.
   */
  forgetSends(ids: readonly number[]): void {
    const { upto } = this.stmt.state.get()!;
    const blocks = new Set(ids.filter((id) => id < upto).map((id) => Math.floor(id / BLOCK)));
    for (const block of blocks) {
      const texts = this.stmt.texts.all(block * BLOCK, (block + 1) * BLOCK).map((row) => row.text);
      this.write(block, texts, true);
    }
    if (blocks.size > 0) this.merged = false;
    const whole = Math.floor(upto / CHUNK);
    const known = new Map<string, number>();
    for (const chunk of new Set(ids.map((id) => Math.floor(id / CHUNK)).filter((chunk) => chunk < whole)))
      this.tallies.writeChunk(chunk, known);
  }

  /** A block's document, the old one removed first when it may have one. */
  private write(block: number, texts: readonly string[] | undefined, hadDocument: boolean): void {
    if (hadDocument) this.stmt.remove.run(block);
    if (texts && texts.length > 0) this.stmt.insert.run(block, blockDocument(texts));
  }

  /** Indexes every whole block now and merges the index: tests, and the benchmark's workspace builder. */
  indexAll(): void {
    while (this.indexBlocks(BULK_BLOCKS) > 0);
    this.stmt.optimize.run();
    this.merged = true;
  }

  /** One bounded step of FTS5 merging; false when there was none left to do. */
  mergeStep(): boolean {
    const worked = this.merge([this.stmt.merge]);
    this.merged = !worked;
    return worked;
  }

  private dueAt(): number | null {
    const { upto } = this.stmt.state.get()!;
    const whole = Math.floor(((this.stmt.top.get() ?? -1) + 1) / BLOCK);
    if (whole > upto / BLOCK) return Math.max(this.clock.now(), this.restUntil);
    return this.merged ? null : this.clock.now();
  }

  private runDue(): boolean {
    const started = this.clock.now();
    const due = this.dueAt();
    if (due === null || due > started) return false;
    const indexed = this.indexBlocks();
    const merging = this.merged ? false : this.mergeStep();
    // Catching up (a workspace from before the index): a quarter of the time, between the sends.
    this.restUntil = this.clock.now() + 3 * (this.clock.now() - started);
    return indexed > 0 || merging;
  }
}
