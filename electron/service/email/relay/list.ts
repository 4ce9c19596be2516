// GET …/messages: an account's messages newest first, filtered and paged by opaque cursors.
// Filters: status (comma-separated, any case: `Bounced,Failed`), sender and recipient (the address,
// any case), subject (contains, any case), tags (comma-separated: messages with any of them),
// from_time ≤ created_at < to_time (RFC 3339). limit 1..100 (default 100). `after` gives the page
// after a page's next_cursor (older messages), `before` the page before its previous_cursor
// (newer ones). has_more tells whether more messages follow in the direction asked. One tag (what
// the app's relay client polls by) walks the tag index in the list's order: no scan, no sort.
import type Database from 'better-sqlite3';
import type { Db } from '../../db/database';
import { RELAY_STATUSES, type RelayStatus } from '../../../../shared/email';
import { parseRfc3339 } from '../../campaigns/form';
import { ok, refusal, type RelayAnswer } from './answers';
import { MESSAGE_COLUMNS, messageSummary, type MessageRow } from './messages';

export const MAX_LIST_LIMIT = 100;

export function encodeCursor(seq: number): string {
  return Buffer.from(`m:${seq}`).toString('base64url');
}

export function decodeCursor(cursor: string): number | null {
  const match = /^m:([1-9][0-9]{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : null;
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

interface Filters {
  where: string[];
  params: unknown[];
  /** The one tag the query is driven from (its index gives the order), or null. */
  tag: string | null;
}

/** The query's filters, or the 400's message. */
function filtersOf(accountId: string, query: Record<string, string | undefined>): Filters | string {
  const where: string[] = [];
  const params: unknown[] = [];
  let tag: string | null = null;
  if (query.status !== undefined) {
    const statuses = [...new Set(splitList(query.status).map((status) => status.toLowerCase()))];
    const unknown = statuses.find((status) => !(RELAY_STATUSES as readonly string[]).includes(status));
    if (unknown !== undefined || statuses.length === 0)
      return `status ${JSON.stringify(unknown ?? query.status)} is not one of ${RELAY_STATUSES.join(', ')}`;
    where.push(`m.status IN (${statuses.map(() => '?').join(', ')})`);
    params.push(...(statuses as RelayStatus[]));
  }
  for (const field of ['sender', 'recipient'] as const) {
    const value = query[field]?.trim();
    if (value === undefined) continue;
    if (value === '') return `${field} is empty`;
    where.push(`m.${field} = ?`);
    params.push(value);
  }
  if (query.subject !== undefined && query.subject !== '') {
    where.push(`m.subject LIKE ? ESCAPE '\\'`);
    params.push(`%${query.subject.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  if (query.tags !== undefined) {
    const tags = [...new Set(splitList(query.tags))];
    if (tags.length === 0) return 'tags is empty';
    if (tags.length === 1) tag = tags[0]!;
    else {
      where.push(
        `m.seq IN (SELECT message_seq FROM email_relay_message_tags WHERE account_id = ? AND tag IN (${tags
          .map(() => '?')
          .join(', ')}))`,
      );
      params.push(accountId, ...tags);
    }
  }
  for (const [field, op] of [
    ['from_time', '>='],
    ['to_time', '<'],
  ] as const) {
    const value = query[field];
    if (value === undefined) continue;
    const ms = parseRfc3339(value.trim());
    if (ms === null) return `${field} is not an RFC 3339 time (for example 2026-01-01T10:00:00Z)`;
    where.push(`m.created_at ${op} ?`);
    params.push(ms);
  }
  return { where, params, tag };
}

export class RelayList {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Db) {}

  private prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      // Each filter combination is one statement; a handful exist in practice.
      if (this.statements.size < 500) this.statements.set(sql, statement);
    }
    return statement;
  }

  /** The SQL of a page (or of an existence check) over the filters, seq compared to `edge`. */
  private sql(filters: Filters, direction: 'older' | 'newer', edge: boolean, columns: string): string {
    const seq = filters.tag !== null ? 't.message_seq' : 'm.seq';
    const from =
      filters.tag !== null
        ? `email_relay_message_tags t JOIN email_relay_messages m ON m.seq = t.message_seq`
        : `email_relay_messages m`;
    const where = [
      filters.tag !== null ? 't.account_id = ? AND t.tag = ?' : 'm.account_id = ?',
      // A request still being written is not shown (messages.ts, accept).
      'r.pending = 0',
      ...filters.where,
      ...(edge ? [`${seq} ${direction === 'older' ? '<' : '>'} ?`] : []),
    ];
    return `SELECT ${columns} FROM ${from} JOIN email_relay_requests r ON r.id = m.request_id
      WHERE ${where.join(' AND ')} ORDER BY ${seq} ${direction === 'older' ? 'DESC' : 'ASC'} LIMIT ?`;
  }

  /** The query plan of a list query (tests check the relay client's poll uses an index). */
  plan(accountId: string, query: Record<string, string | undefined>): string[] {
    const filters = filtersOf(accountId, query);
    if (typeof filters === 'string') throw new Error(filters);
    const sql = this.sql(filters, 'older', true, MESSAGE_COLUMNS);
    const head = filters.tag !== null ? [accountId, filters.tag] : [accountId];
    return (
      this.db
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...head, ...filters.params, Number.MAX_SAFE_INTEGER, 1) as Array<{
        detail: string;
      }>
    ).map((row) => row.detail);
  }

  list(accountId: string, query: Record<string, string | undefined>): RelayAnswer {
    let limit = MAX_LIST_LIMIT;
    if (query.limit !== undefined) {
      limit = /^[0-9]{1,4}$/.test(query.limit.trim()) ? Number(query.limit.trim()) : NaN;
      if (!(limit >= 1 && limit <= MAX_LIST_LIMIT))
        return refusal(400, `limit must be a whole number from 1 to ${MAX_LIST_LIMIT}`);
    }
    if (query.after !== undefined && query.before !== undefined)
      return refusal(400, 'after and before cannot be given together');
    const cursorText = query.after ?? query.before;
    const cursor = cursorText === undefined ? null : decodeCursor(cursorText.trim());
    if (cursorText !== undefined && cursor === null)
      return refusal(400, `${query.after !== undefined ? 'after' : 'before'} is not a cursor this list gave`);
    const filters = filtersOf(accountId, query);
    if (typeof filters === 'string') return refusal(400, filters);

    const head = filters.tag !== null ? [accountId, filters.tag] : [accountId];
    const direction = query.before !== undefined ? 'newer' : 'older';
    const rows = this.prepare(this.sql(filters, direction, cursor !== null, MESSAGE_COLUMNS)).all(
      ...head,
      ...filters.params,
      ...(cursor !== null ? [cursor] : []),
      limit + 1,
    ) as MessageRow[];
    const more = rows.length > limit;
    if (more) rows.length = limit;
    if (direction === 'newer') rows.reverse();
    const exists = (toward: 'older' | 'newer', seq: number) =>
      this.prepare(this.sql(filters, toward, true, '1')).get(...head, ...filters.params, seq, 1) !== undefined;
    const first = rows[0];
    const last = rows[rows.length - 1];
    const olderAfterLast = direction === 'older' ? more : last !== undefined && exists('older', last.seq);
    const newerBeforeFirst = direction === 'newer' ? more : first !== undefined && exists('newer', first.seq);
    return ok({
      object: 'list',
      data: rows.map(messageSummary),
      pagination: {
        has_more: more,
        next_cursor: olderAfterLast && last ? encodeCursor(last.seq) : null,
        previous_cursor: newerBeforeFirst && first ? encodeCursor(first.seq) : null,
      },
    });
  }
}
