// The writing half of an import job, on the main process's connection (the database's only
// writer): applies the worker's batches of classified rows in immediate transactions, each one
// also writing the job's checkpoint, and makes the segment 'ready' (the upload COMPLETED) in the
// same transaction as the job's end. A crash between two commits loses nothing: the job resumes
// after the last checkpoint.
import type { Db } from '../db/database';
import { BulkInsert } from '../db/bulk';
import type { RejectionReason } from '../../../shared/contacts';
import {
  countersOf,
  KIND_CANDIDATE,
  KIND_EXCLUDED,
  KIND_INVALID,
  KIND_OPTED_OUT,
  type Batch,
  type Counters,
  type JobRow,
} from './pipeline';
import { endImport } from './segments';

/** A candidate row: its batch and its index there. */
type Candidate = [Batch, number];

/** A member's parameters: segment, number, fields, row in the file. */
const MEMBER_PARAMS = 4;

/** Rows per multi-row statement (one savepoint each). */
const CHUNK_ROWS = 500;

class ChunkHasDuplicate extends Error {}

export class JobWriter {
  readonly counters: Counters;
  /** Members (or opt-outs) by multi-row INSERT OR IGNORE: returns the rows written. */
  private readonly insert: BulkInsert;
  /** Inserts a chunk's flat parameters in a savepoint, rolled back when a row was already there. */
  private readonly insertAll: (params: unknown[], rows: number) => void;
  private readonly reject;
  private readonly checkpoint;
  private readonly record: boolean;
  /** An import adding rows to an existing segment: the numbers it added, for a rollback. */
  private readonly added: BulkInsert | null;

  constructor(
    private readonly db: Db,
    private readonly job: JobRow,
    private readonly now: () => number,
  ) {
    this.counters = countersOf(job);
    this.record = job.kind !== 'combine';
    const insert = (this.insert =
      job.kind === 'optouts'
        ? new BulkInsert(
            db,
            'INSERT OR IGNORE INTO optouts (account_id, phone, created_at)',
            '(?, ?, ?)',
            3,
            CHUNK_ROWS,
          )
        : new BulkInsert(
            db,
            'INSERT OR IGNORE INTO segment_members (segment_id, phone, fields, source_row)',
            '(?, ?, ?, ?)',
            MEMBER_PARAMS,
            CHUNK_ROWS,
          ));
    this.added =
      job.target_segment_id !== null
        ? new BulkInsert(db, 'INSERT OR IGNORE INTO import_added (job_id, phone)', '(?, ?)', 2, CHUNK_ROWS)
        : null;
    // A transaction inside the commit's transaction is a savepoint: throwing rolls back this chunk only.
    this.insertAll = db.transaction((params: unknown[], rows: number) => {
      if (insert.run(params) !== rows) throw new ChunkHasDuplicate();
      this.recordAdded(params);
    });
    this.reject = db.prepare(
      'INSERT OR REPLACE INTO import_rejections (job_id, row, phone_number, reason) VALUES (?, ?, ?, ?)',
    );
    this.checkpoint = db.prepare(
      `UPDATE import_jobs SET rows_done = ?, bytes_done = ?, total_bytes = ?, total = ?, valid = ?, invalid = ?,
         duplicates = ?, opted_out = ? WHERE id = ?`,
    );
  }

  /** A combine resumed after a crash starts over: what the earlier attempt wrote goes first. */
  restartCombine(): void {
    this.db
      .transaction(() => {
        this.db.prepare('DELETE FROM segment_members WHERE segment_id = ?').run(this.job.segment_id);
        Object.assign(this.counters, {
          rows: 0,
          bytes: 0,
          total: 0,
          valid: 0,
          invalid: 0,
          duplicates: 0,
          opted_out: 0,
        });
        this.writeCheckpoint();
      })
      .immediate();
  }

  /** Applies batches (in source order) in one transaction. */
  apply(batches: readonly Batch[]): void {
    this.db
      .transaction(() => {
        this.applyCandidates(batches);
        for (const batch of batches) this.applyOthers(batch);
        this.writeCheckpoint();
      })
      .immediate();
  }

  /** The job's end: last checkpoint, job done, segment ready, upload COMPLETED, in one commit. */
  finish(): void {
    this.db
      .transaction(() => {
        this.counters.bytes = this.counters.totalBytes;
        this.writeCheckpoint();
        finishJob(this.db, this.job, 'done', null, this.counters.valid, this.now());
      })
      .immediate();
  }

  /**
   * New numbers are inserted in number order (rows in order among equals, so the first occurrence
   * is the one kept): the B-tree is then walked left to right instead of at random, which makes a
   * commit of tens of thousands of members several times cheaper. A number met twice in one
   * commit is a duplicate without asking SQLite; the rest go in by multi-row statements.
   */
  private applyCandidates(batches: readonly Batch[]): void {
    const phoneOf = ([batch, i]: Candidate) => batch.phones[i]!;
    const order: Candidate[] = [];
    for (const batch of batches)
      for (let i = 0; i < batch.kinds.length; i++) if (batch.kinds[i] === KIND_CANDIDATE) order.push([batch, i]);
    order.sort((a, b) => {
      const pa = phoneOf(a);
      const pb = phoneOf(b);
      return pa < pb ? -1 : pa > pb ? 1 : a[0].rows[a[1]]! - b[0].rows[b[1]]!;
    });
    const fresh: Candidate[] = [];
    for (let n = 0; n < order.length; n++) {
      if (n > 0 && phoneOf(order[n]!) === phoneOf(order[n - 1]!)) this.duplicate(order[n]!);
      else fresh.push(order[n]!);
    }
    for (let start = 0; start < fresh.length; start += CHUNK_ROWS) {
      const chunk = fresh.slice(start, start + CHUNK_ROWS);
      if (this.insertChunk(chunk)) this.counters.valid += chunk.length;
      // Some number of the chunk was written by an earlier commit (the chunk was rolled back):
      // row by row, each insert then tells whether its row is the duplicate.
      else for (const candidate of chunk) this.insertOne(candidate);
    }
  }

  /** All of the chunk, or nothing when one of its numbers is there already (its own savepoint). */
  private insertChunk(chunk: readonly Candidate[]): boolean {
    const params = this.params(chunk);
    try {
      this.insertAll(params, chunk.length);
      return true;
    } catch (error) {
      if (error instanceof ChunkHasDuplicate) return false;
      throw error;
    }
  }

  private insertOne(candidate: Candidate): void {
    const params = this.params([candidate]);
    if (this.insert.run(params)) {
      this.counters.valid++;
      this.recordAdded(params);
    } else this.duplicate(candidate);
  }

  /** Rows added to an existing segment are remembered (same commit), so a rollback removes exactly them. */
  private recordAdded(memberParams: unknown[]): void {
    if (!this.added) return;
    const params: unknown[] = new Array((memberParams.length / MEMBER_PARAMS) * 2);
    for (let n = 0, k = 0; n < memberParams.length; n += MEMBER_PARAMS, k += 2) {
      params[k] = this.job.id;
      params[k + 1] = memberParams[n + 1];
    }
    this.added.run(params);
  }

  /**
   * The rows' parameters, flat: a member is (segment, number, fields, its row in the file; none
   * for a combine's), an opt-out (account, number, time).
   */
  private params(candidates: readonly Candidate[]): unknown[] {
    if (this.job.kind === 'optouts') {
      const createdAt = this.now();
      const params: unknown[] = new Array(candidates.length * 3);
      for (let n = 0; n < candidates.length; n++) {
        const [batch, i] = candidates[n]!;
        params[n * 3] = this.job.account_id;
        params[n * 3 + 1] = batch.phones[i];
        params[n * 3 + 2] = createdAt;
      }
      return params;
    }
    const segment = this.job.segment_id;
    const fromFile = this.record;
    const params: unknown[] = new Array(candidates.length * MEMBER_PARAMS);
    for (let n = 0, k = 0; n < candidates.length; n++, k += MEMBER_PARAMS) {
      const [batch, i] = candidates[n]!;
      params[k] = segment;
      params[k + 1] = batch.phones[i];
      params[k + 2] = batch.fields[i];
      params[k + 3] = fromFile ? batch.rows[i] : null;
    }
    return params;
  }

  private duplicate([batch, i]: Candidate): void {
    this.counters.duplicates++;
    if (this.record) this.rejectRow(this.job.id, batch.rows[i]!, batch.raws[i] ?? batch.phones[i]!, 'duplicate');
  }

  private applyOthers(batch: Batch): void {
    const c = this.counters;
    const jobId = this.job.id;
    const { rows, kinds, phones, raws } = batch;
    for (let i = 0; i < kinds.length; i++) {
      c.total++;
      switch (kinds[i]) {
        case KIND_INVALID:
          c.invalid++;
          if (this.record) this.rejectRow(jobId, rows[i]!, raws[i] ?? '', 'invalid');
          break;
        case KIND_OPTED_OUT:
          c.opted_out++;
          if (this.record) this.rejectRow(jobId, rows[i]!, raws[i] ?? phones[i]!, 'opted_out');
          break;
        case KIND_EXCLUDED:
          c.invalid++;
          break;
        case KIND_CANDIDATE:
          break;
      }
    }
    c.rows = batch.lastRow;
    c.bytes = batch.bytes;
    c.totalBytes = batch.totalBytes;
  }

  private rejectRow(jobId: number, row: number, raw: string, reason: RejectionReason): void {
    this.reject.run(jobId, row, raw, reason);
  }

  private writeCheckpoint(): void {
    const c = this.counters;
    this.checkpoint.run(
      c.rows,
      c.bytes,
      c.totalBytes,
      c.total,
      c.valid,
      c.invalid,
      c.duplicates,
      c.opted_out,
      this.job.id,
    );
  }
}

/** Marks the job final with its segment (segments.ts) and upload, inside the caller's transaction. */
export function finishJob(
  db: Db,
  job: JobRow,
  status: 'done' | 'failed' | 'cancelled',
  error: string | null,
  members: number,
  now: number,
): void {
  db.prepare('UPDATE import_jobs SET status = ?, error = ?, finished_at = ? WHERE id = ?').run(
    status,
    error,
    now,
    job.id,
  );
  endImport(db, job, status, error, members, now);
  if (job.upload_id !== null)
    db.prepare('UPDATE uploads SET status = ?, finished_at = ? WHERE id = ?').run(
      status === 'done' ? 'COMPLETED' : 'FAILED',
      now,
      job.upload_id,
    );
}
