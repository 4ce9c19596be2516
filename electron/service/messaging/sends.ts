// The Messages page's "by send" view: each direct send (API or panel) and each campaign execution
// as one row, newest first, with its messages counted by outcome. A send's messages have
// consecutive ids (the acceptance path numbers them in one transaction), so its counts are taken
// per status over that id range on the (account, status, id) index, without reading the rows. An
// execution's counts are its report's and its rows are read through send-groups.ts (the campaigns
// domain owns both). A year of a busy shop holds millions of sends: a page takes the newest sends
// by id (ids follow creation) and the executions by time, and merges them; the total adds the
// sends' tallies (migration 0024) to the executions.
import type { Db } from '../db/database';
import type { ReaderPool } from '../db/readers';
import { OutcomeCounter } from './outcomes';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import { type ExecutionReport } from '../../../shared/campaigns';
import type { SendRow } from '../../../shared/ipc/contracts/messaging';
import type { SendGroups } from './send-groups';

export interface SendsDeps {
  db: Db;
  readers: ReaderPool;
  /** An execution's report (counts and cost), by the campaigns domain. */
  executionReport: (accountId: number, executionId: number) => ExecutionReport;
  /** The campaign executions as rows, by the campaigns domain (campaigns/send-groups.ts). */
  groups: SendGroups;
}

interface ListedRow {
  kind: 'send' | 'execution';
  id: number;
  account_id: number;
  created_at: number;
}

const TEXT_EXCERPT = 300;

interface SendFields {
  id: number;
  account_id: number;
  sender: string;
  text: string;
  origin: 'api' | 'panel';
  message_count: number;
  total_rials: number;
  created_at: number;
}

export class Sends {
  // What each row reads, prepared once (a page reads them for each of its rows).
  private readonly sendStmt;
  private readonly firstIdStmt;
  private readonly outcomes;

  constructor(private readonly deps: SendsDeps) {
    const { db } = deps;
    this.sendStmt = db.prepare<[number], SendFields>(
      'SELECT id, account_id, sender, text, origin, message_count, total_rials, created_at FROM sends WHERE id = ?',
    );
    this.firstIdStmt = db.prepare<[number], number>('SELECT min(id) FROM messages WHERE send_id = ?').pluck();
    this.outcomes = new OutcomeCounter(db);
  }

  /** Direct sends and executions (started, or waiting for their time), newest first. */
  async list(filter: {
    account_id?: number;
    offset: number;
    limit: number;
  }): Promise<{ rows: SendRow[]; total: number }> {
    const account = filter.account_id === undefined ? '' : 'AND account_id = ?';
    const accountParams = filter.account_id === undefined ? [] : [filter.account_id];
    const wanted = filter.offset + filter.limit;
    // The direct sends are tallied per account as they are written (migration 0024); the
    // executions are few.
    const total = this.deps.db
      .prepare<unknown[], number>(
        `SELECT (SELECT COALESCE(sum(sends), 0) FROM send_tallies WHERE 1 ${account})
              + ${this.deps.groups.countSql(account)}`,
      )
      .pluck()
      .get(...accountParams, ...accountParams)!;
    const sends = await this.deps.readers.all<ListedRow>(
      `SELECT 'send' AS kind, id, account_id, created_at FROM sends WHERE origin <> 'campaign' ${account}
       ORDER BY id DESC LIMIT ?`,
      [...accountParams, wanted],
    );
    const executions = this.deps.db
      .prepare<unknown[], Omit<ListedRow, 'kind'>>(this.deps.groups.rowsSql(account))
      .all(...accountParams, wanted)
      .map((row): ListedRow => ({ kind: 'execution', ...row }));
    const listed = [...sends, ...executions]
      .sort((a, b) => b.created_at - a.created_at || b.id - a.id)
      .slice(filter.offset, wanted);
    return { rows: listed.map((row) => this.row(row)), total };
  }

  get(input: { account_id?: number; send_id?: number; execution_id?: number }): SendRow {
    const row =
      input.send_id !== undefined
        ? this.deps.db
            .prepare<[number], ListedRow>(
              "SELECT 'send' AS kind, id, account_id, created_at FROM sends WHERE id = ? AND origin <> 'campaign'",
            )
            .get(input.send_id)
        : this.executionListed(input.execution_id ?? 0);
    if (!row || (input.account_id !== undefined && row.account_id !== input.account_id))
      throw new ServiceError(ApiCode.BadRequest, 'no such send');
    return this.row(row);
  }

  private executionListed(executionId: number): ListedRow | undefined {
    const row = this.deps.db.prepare<[number], Omit<ListedRow, 'kind'>>(this.deps.groups.rowSql()).get(executionId);
    return row && { kind: 'execution', ...row };
  }

  private row(listed: ListedRow): SendRow {
    return listed.kind === 'send' ? this.sendRow(listed.id) : this.executionRow(listed);
  }

  private sendRow(sendId: number): SendRow {
    const send = this.sendStmt.get(sendId)!;
    const first = this.firstIdStmt.get(sendId);
    const outcomes =
      first === null || first === undefined
        ? { delivered: 0, failed: 0, pending: 0 }
        : this.outcomes.count(send.account_id, [[first, first + send.message_count - 1]]);
    return {
      kind: 'send',
      send_id: send.id,
      execution_id: null,
      campaign_id: null,
      name: null,
      origin: send.origin,
      account_id: send.account_id,
      sender: send.sender,
      text: send.text.slice(0, TEXT_EXCERPT),
      created_at: send.created_at,
      messages: send.message_count,
      delivered: outcomes.delivered,
      failed: outcomes.failed,
      pending: outcomes.pending,
      cost_rials: send.total_rials,
      execution_status: null,
    };
  }

  private executionRow(listed: ListedRow): SendRow {
    const report = this.deps.executionReport(listed.account_id, listed.id);
    const campaign = this.deps.groups.campaign(report.campaign_id)!;
    return {
      kind: 'execution',
      send_id: null,
      execution_id: listed.id,
      campaign_id: campaign.id,
      name: campaign.name,
      origin: 'campaign',
      account_id: listed.account_id,
      sender: campaign.sender,
      text: campaign.template_body.slice(0, TEXT_EXCERPT),
      created_at: listed.created_at,
      messages: report.sent,
      delivered: report.delivered,
      failed: report.failed,
      pending: report.pending,
      cost_rials: report.cost,
      execution_status: report.execution_status,
    };
  }
}
