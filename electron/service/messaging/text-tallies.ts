// The text tallies: how a count of a common word ("shipped", in a fifth of two million texts) is
// answered without reading every text (issue 16). A shop's sends come from a few templates whose
// only difference is a number (an order, a code, an amount), so each text is kept once as its
// template: its search form (shared/search.ts) with every run of digits made one U+E000. A term
// without digits is in a text exactly when it is in the text's template (it cannot meet a digit,
// and the rest of the two is the same), so the messages of the matching texts are the sums of
// the templates that hold the term: a few hundred rows per account, whatever the sends.
//
// The send-text index's worker writes them with its blocks (send-texts.ts), off the send path: per
// chunk of 256 consecutive send ids below its watermark, the messages of each template, account,
// line and origin. A count sums the whole chunks inside its range (from the oldest send with
// messages, as retention left them, and the dates', to the dates' end and the watermark) and reads
// the sends of the rest: the part of a chunk at each end, and any chunk holding a text the bounded
// list of templates has no room for (then a count is as slow as before, never wrong).
//
// NUMBERS (this machine, the scale benchmark's 2,001,908 sends, 26 templates): chunks of 256 give
// 138,842 rows in 4.3 MB (0.43 B/message; 1.9 MB without line and origin) and a count of "shipped"
// takes 11-13 ms through the bridge; chunks of 16 (the index's blocks) gave 1,030,639 rows, 14.4 MB
// and 48 ms for the sum alone. Reading every text takes 160-300 ms.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/database';
import { searchKey } from '../../../shared/search';

/**
 * A condition on sends as SQL with its parameters (the send-text index's answers, send-texts.ts);
 * defined here, below the index, so the two modules do not import each other.
 */
export interface TextCondition {
  sql: string;
  params: Array<string | number>;
}

/** Send ids per chunk; a multiple of the send-text index's block. */
export const CHUNK = 256;
/** Templates listed at most: every count compares each one's key with its term. */
export const MAX_TEMPLATES = 20_000;
/** The template of a text beyond MAX_TEMPLATES; its chunk's row, which says "read my sends". */
const UNLISTED = 0;
/** What a run of digits becomes in a template (a private-use character: no one types it). */
const NUMBER = '\uE000';
/** A term the templates cannot answer: one with a digit, or NUMBER itself. */
const UNTALLIABLE = new RegExp(`[0-9${NUMBER}]`);
/** Beyond any send id, and still an integer (so that / CHUNK divides as integers). */
const FAR = 2 ** 62;

/** A text's template: its search form with each run of digits made one NUMBER. */
export function templateOf(text: string): string {
  return searchKey(text).replace(/[0-9]+/g, NUMBER);
}

/** Whether a term (in search form) is answered from the templates: it holds no digit (nor NUMBER). */
export function talliable(key: string): boolean {
  return key !== '' && !UNTALLIABLE.test(key);
}

interface ChunkSend {
  text: string;
  account_id: number;
  sender: string;
  origin: string;
  messages: number;
}

/** What a count asks of the sends, besides their text. */
export interface TallyFilter {
  account_id?: number;
  sender?: string;
  origin?: string;
}

export class TextTallies {
  private readonly stmt: {
    sends: Statement<[number, number], ChunkSend>;
    template: Statement<[string], number | undefined>;
    listed: Statement<[], number | null>;
    addTemplate: Statement<[string], number>;
    clear: Statement<[number]>;
    insert: Statement<[number, number, number, string, string, number]>;
  };

  constructor(
    db: Db,
    private readonly maxTemplates = MAX_TEMPLATES,
  ) {
    this.stmt = {
      sends: db.prepare(
        `SELECT text, account_id, sender, origin, message_count - own_texts AS messages
         FROM sends WHERE id >= ? AND id < ?`,
      ),
      template: db.prepare<[string], number | undefined>('SELECT id FROM text_templates WHERE key = ?').pluck(),
      // (Templates are never removed: the highest id is how many there are.)
      listed: db.prepare<[], number | null>('SELECT MAX(id) FROM text_templates').pluck(),
      addTemplate: db.prepare<[string], number>('INSERT INTO text_templates (key) VALUES (?) RETURNING id').pluck(),
      clear: db.prepare('DELETE FROM send_text_tallies WHERE chunk = ?'),
      insert: db.prepare(
        `INSERT INTO send_text_tallies (chunk, template_id, account_id, sender, origin, messages)
         VALUES (?, ?, ?, ?, ?, ?)`,
      ),
    };
  }

  /**
   * Writes a chunk's rows again from its sends, in the caller's transaction. `known` carries the
   * templates already looked up in that transaction.
   */
  writeChunk(chunk: number, known: Map<string, number> = new Map()): void {
    this.stmt.clear.run(chunk);
    const sums = new Map<string, { template: number; send: ChunkSend; messages: number }>();
    for (const send of this.stmt.sends.all(chunk * CHUNK, (chunk + 1) * CHUNK)) {
      const template = this.templateId(templateOf(send.text), known);
      if (template === UNLISTED) {
        this.stmt.insert.run(chunk, UNLISTED, 0, '', '', 0);
        return;
      }
      const group = JSON.stringify([template, send.account_id, send.sender, send.origin]);
      const sum = sums.get(group);
      if (sum) sum.messages += send.messages;
      else sums.set(group, { template, send, messages: send.messages });
    }
    for (const { template, send, messages } of sums.values())
      this.stmt.insert.run(chunk, template, send.account_id, send.sender, send.origin, messages);
  }

  private templateId(key: string, known: Map<string, number>): number {
    let id = known.get(key) ?? this.stmt.template.get(key);
    if (id === undefined)
      id = (this.stmt.listed.get() ?? 0) < this.maxTemplates ? this.stmt.addTemplate.get(key)! : UNLISTED;
    known.set(key, id);
    return id;
  }

  /**
   * A scalar SQL expression: the messages carrying their send's text (not their own) in the sends
   * with ids in `ids` (inclusive) whose text holds `key` (talliable, in search form) and that meet
   * `filter`. Whole chunks are summed; the sends of the rest are read one by one, each checked by
   * `sends` (every condition of the count on the sends, alias s, the dates and the oldest send
   * with messages among them) and by `match` (the text rule, db/text-match.ts): the part of a
   * chunk at each end of the range (the oldest send with messages, the dates, and the watermark
   * on) and the chunks with an unlisted text. One statement, so one snapshot: the watermark and the
   * rows agree.
   */
  sharedMessages(
    key: string,
    filter: TallyFilter,
    ids: { lo: number; hi: number },
    sends: TextCondition,
    match: TextCondition,
  ): TextCondition {
    const conditions: string[] = [];
    const params: Array<string | number> = [];
    for (const column of ['account_id', 'sender', 'origin'] as const) {
      const value = filter[column];
      if (value === undefined) continue;
      conditions.push(`AND t.${column} = ?`);
      params.push(value);
    }
    // lo, hi: the sends asked for; [clo, chi): the whole chunks among them below the watermark.
    return {
      sql: `(WITH bounds AS (
          SELECT MAX(COALESCE((SELECT send_id FROM messages ORDER BY id LIMIT 1), ${FAR}), CAST(? AS INTEGER)) AS lo,
            CAST(? AS INTEGER) AS hi,
            (SELECT upto FROM send_text_index WHERE id = 1) / ${CHUNK} AS top),
        span AS (SELECT lo, hi, (lo + ${CHUNK - 1}) / ${CHUNK} AS clo, MIN((hi + 1) / ${CHUNK}, top) AS chi FROM bounds),
        walked (lo, hi) AS (
          SELECT lo, MIN(clo * ${CHUNK} - 1, hi) FROM span
          UNION ALL SELECT t.chunk * ${CHUNK}, t.chunk * ${CHUNK} + ${CHUNK - 1} FROM send_text_tallies t, span
            WHERE t.template_id = ${UNLISTED} AND t.chunk >= span.clo AND t.chunk < span.chi
          UNION ALL SELECT MAX(chi, clo) * ${CHUNK}, hi FROM span)
        SELECT
          (SELECT COALESCE(SUM(t.messages), 0) FROM send_text_tallies t, span
            WHERE t.chunk >= span.clo AND t.chunk < span.chi ${conditions.join(' ')}
              AND t.template_id IN (SELECT id FROM text_templates WHERE instr(key, ?) > 0))
        + (SELECT COALESCE(SUM(s.message_count - s.own_texts), 0) FROM walked w CROSS JOIN sends s ON s.id BETWEEN w.lo AND w.hi
            WHERE ${sends.sql} AND ${match.sql}))`,
      params: [
        Math.max(0, ids.lo),
        Math.min(Number.MAX_SAFE_INTEGER, ids.hi),
        ...params,
        key,
        ...sends.params,
        ...match.params,
      ],
    };
  }
}
