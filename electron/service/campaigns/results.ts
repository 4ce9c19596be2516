// "New segment from results": the recipients of an execution who failed, were delivered, clicked
// or never clicked become a new segment. They are written to a CSV under the data folder (the
// number, then the values of their segment's columns, by name across the execution's segments) and
// that file goes through the contacts domain's ordinary spreadsheet import (a queued job: progress,
// normalization, opt-outs, crash recovery), so no segment table is written here. The file is
// removed once its import ends.
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database';
import type { Imports } from '../contacts/imports';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import { MessageStatus, sqlList } from '../../../shared/lifecycle';
import { FAILED_RESULT_STATUSES, type ResultKind } from '../../../shared/campaigns';
import { FIELD_SEPARATOR } from '../contacts/fields';
import { CsvWriter } from '../contacts/csv';
import { messagesSql } from '../messaging/id-ranges';

export type { ResultKind };

export interface SegmentFromResultsRequest {
  accountId: number;
  executionId: number;
  kind: ResultKind;
  /** The new segment's name. */
  name: string;
  /** The workspace's data folder: the file is written under it. */
  dataDir: string;
  /** Which of the matching recipients go in (all when absent): "resend to failed" leaves some out. */
  keep?: (phone: string, status: MessageStatus) => boolean;
}

const CONDITION: Record<ResultKind, string> = {
  failed: `m.status IN (${sqlList(FAILED_RESULT_STATUSES)})`,
  delivered: `m.status = ${MessageStatus.Delivered}`,
  clicked: 'EXISTS (SELECT 1 FROM campaign_clicks c WHERE c.message_id = m.id)',
  not_clicked: 'NOT EXISTS (SELECT 1 FROM campaign_clicks c WHERE c.message_id = m.id)',
};

/** An execution's recipients' columns, and a recipient's values under them. */
export interface RecipientColumns {
  /** The columns of the execution's segments, by name in order of first appearance. */
  columns: string[];
  /** A recipient's values (their segment and stored fields) under `columns`: empty where their segment has none. */
  valuesOf(segmentId: number | null, fields: string | null): string[];
}

/** The recipients' columns of an execution (its `segment_columns`: each segment's column names). */
export function recipientColumns(segmentColumns: string | null): RecipientColumns {
  const bySegment = JSON.parse(segmentColumns ?? '{}') as Record<string, string[]>;
  const columns: string[] = [];
  for (const names of Object.values(bySegment))
    for (const name of names) if (name !== 'phone_number' && !columns.includes(name)) columns.push(name);
  const placesBySegment = new Map<number, number[]>(
    Object.entries(bySegment).map(([segmentId, names]) => [Number(segmentId), names.map((n) => columns.indexOf(n))]),
  );
  return {
    columns,
    valuesOf(segmentId, fields) {
      const values = new Array<string>(columns.length).fill('');
      const places = segmentId === null ? undefined : placesBySegment.get(segmentId);
      if (places && fields !== null && places.length > 0) {
        const stored = fields.split(FIELD_SEPARATOR);
        places.forEach((place, i) => {
          if (place >= 0) values[place] = stored[i] ?? '';
        });
      }
      return values;
    },
  };
}

/** Recipients read between two turns of the event loop. */
const PAGE = 5_000;
/** Where the files handed to the import are written, under the data folder. */
export const RESULTS_DIR = 'campaign-results';

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Writes the matching recipients' file and queues its import into a new segment named `name`.
 * Resolves once the import is queued (its progress comes as the imports' own events; wait for it
 * with imports.wait(jobId)). 404 for an execution of another account or none.
 */
export async function segmentFromResults(
  db: Db,
  imports: Pick<Imports, 'start' | 'wait'>,
  request: SegmentFromResultsRequest,
): Promise<{ segmentId: number; jobId: number }> {
  const execution = db
    .prepare<[number, number], { id: number; segment_columns: string | null; campaign_name: string }>(
      `SELECT e.id, e.segment_columns, c.name AS campaign_name
       FROM campaign_executions e JOIN campaigns c ON c.id = e.campaign_id WHERE e.id = ? AND e.account_id = ?`,
    )
    .get(request.executionId, request.accountId);
  if (!execution)
    throw new ServiceError(ApiCode.NotFound, `execution ${request.executionId} not found`, 'execution_not_found');

  const { columns, valuesOf } = recipientColumns(execution.segment_columns);

  const dir = path.join(request.dataDir, RESULTS_DIR);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `execution-${execution.id}-${request.kind}-${randomUUID()}.csv`);
  const writer = new CsvWriter(file, { bom: false });
  try {
    await writer.write(['phone_number', ...columns]);
    for await (const found of resultRecipients(db, execution.id, request.kind))
      for (const [phone, segmentId, fields, status] of found) {
        if (request.keep && !request.keep(phone, status)) continue;
        await writer.write([phone, ...valuesOf(segmentId, fields)]);
      }
    await writer.close();
  } catch (error) {
    fs.rmSync(file, { force: true });
    throw error;
  }

  const started = await imports
    .start(request.accountId, {
      file,
      name: request.name,
      format: 'csv',
      encoding: 'utf-8',
      delimiter: ',',
      headerRow: 1,
      mapping: { phone: 0, columns: columns.map((name, i) => ({ index: i + 1, name })) },
      // The Contacts page says these members are the campaign's results.
      source: { kind: 'results', label: execution.campaign_name },
    })
    .catch((error: unknown) => {
      fs.rmSync(file, { force: true });
      throw error;
    });
  // The import reads the file until it ends (again after a restart, if one comes first).
  void imports.wait(started.jobId).then(
    () => fs.rmSync(file, { force: true }),
    () => undefined,
  );
  return { segmentId: started.segmentId, jobId: started.jobId };
}

/** One recipient of an execution's results: the number, their segment and fields, the message's status. */
export type ResultRecipient = [phone: string, segmentId: number | null, fields: string | null, status: MessageStatus];

/**
 * The execution's recipients of a kind, in pages of message ids, yielding to the event loop
 * between pages (the follow-up segment's file and the resend's count read the same rows).
 */
export async function* resultRecipients(
  db: Db,
  executionId: number,
  kind: ResultKind,
): AsyncGenerator<ResultRecipient[]> {
  const batches = db
    .prepare<[number], [number, number, number, number]>(
      'SELECT send_id, first_seq, first_message_id, count FROM campaign_batches WHERE execution_id = ? ORDER BY first_seq',
    )
    .raw()
    .all(executionId);
  // A batch's messages have consecutive ids: the recipient of message id is seq first_seq + (id - first_message_id).
  const page = db
    .prepare<[number, number, number, number, number, number], ResultRecipient>(
      `SELECT m.receptor, r.segment_id, r.fields, m.status FROM ${messagesSql('m')}
       LEFT JOIN campaign_recipients r ON r.execution_id = ? AND r.seq = ? + m.id - ?
       WHERE m.id > ? AND m.id <= ? AND m.send_id = ? AND ${CONDITION[kind]}
       ORDER BY m.id`,
    )
    .raw();
  for (const [sendId, firstSeq, firstId, count] of batches) {
    const lastId = firstId + count - 1;
    for (let after = firstId - 1; after < lastId; after += PAGE) {
      yield page.all(executionId, firstSeq, firstId, after, Math.min(after + PAGE, lastId), sendId);
      await yieldToLoop();
    }
  }
}

/**
 * On start: a results file whose import ended before a crash removed it is deleted now; one whose
 * import is still open (it resumes) is deleted when that import ends.
 */
export function sweepResultFiles(imports: Pick<Imports, 'wait' | 'openFileImports'>, dataDir: string): void {
  const dir = path.join(dataDir, RESULTS_DIR);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  const open = imports.openFileImports();
  for (const name of names) {
    const file = path.join(dir, name);
    const job = open.find((row) => row.file.includes(name));
    if (job === undefined) fs.rmSync(file, { force: true });
    else
      void imports.wait(job.jobId).then(
        () => fs.rmSync(file, { force: true }),
        () => undefined,
      );
  }
}
