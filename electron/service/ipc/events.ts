// Push events for the renderer, from the core: status changes (merged over a short window so a
// busy gateway sends a few large batches, not thousands of small ones), contacts job progress
// (core.imports), export progress, replies received (core.inbox), email sends' progress and
// accounts' credit (merged over the same window: a run's refunds move it many times a second).
import type { Core } from '../core';
import type { StatusChange } from '../messaging/lifecycle';
import type { EventName, PayloadOf } from '../../../shared/ipc/contracts';
import type { ImportProgress } from '../../../shared/contacts';
import type { InboundRecorded } from '../messaging/inbox';
import type { EmailSend } from '../../../shared/ipc/contracts/email';

export type PushListener = <E extends EventName>(event: E, payload: PayloadOf<E>) => void;

const STATUS_WINDOW_MS = 100;
/** Upper bound of changes per event, so one message over IPC or SSE stays small. */
const MAX_CHANGES_PER_EVENT = 5000;

export class EventHub {
  private readonly listeners = new Set<PushListener>();
  private pending: StatusChange[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** Each account's credit as last told, while its push waits for the window. */
  private readonly credits = new Map<number, number>();
  private creditTimer: NodeJS.Timeout | null = null;
  private readonly detach: Array<() => void> = [];

  constructor(core: Core) {
    const onStatus = (changes: StatusChange[]) => this.queueStatus(changes);
    core.events.on('message-status', onStatus);
    this.detach.push(() => core.events.off('message-status', onStatus));
    // The contacts domain reports its jobs on its own emitter.
    const onImport = (progress: ImportProgress) =>
      this.emit('import:progress', {
        job_id: progress.jobId,
        kind: progress.kind,
        segment_id: progress.segmentId,
        upload_id: progress.uploadId,
        status: progress.status,
        rows: progress.rows,
        fraction: progress.fraction,
        valid: progress.valid,
        invalid: progress.invalid,
        duplicates: progress.duplicates,
        opted_out: progress.opted_out,
        error: progress.error,
      });
    core.imports.events.on('progress', onImport);
    this.detach.push(() => core.imports.events.off('progress', onImport));
    const onExecution = (payload: PayloadOf<'campaigns:execution'>) => this.emit('campaigns:execution', payload);
    core.campaigns.events.on('execution', onExecution);
    this.detach.push(() => core.campaigns.events.off('execution', onExecution));
    const onInbound = ({ accountId, ids, optOuts }: InboundRecorded) =>
      this.emit('inbox:received', { account_id: accountId, ids, opt_outs: optOuts });
    core.events.on('inbound', onInbound);
    this.detach.push(() => core.events.off('inbound', onInbound));
    const onGateway = (payload: PayloadOf<'gateways:changed'>) => this.emit('gateways:changed', payload);
    core.events.on('gateway', onGateway);
    this.detach.push(() => core.events.off('gateway', onGateway));
    const onEmail = (send: EmailSend) => this.emit('email:progress', send);
    core.events.on('email-progress', onEmail);
    this.detach.push(() => core.events.off('email-progress', onEmail));
    const onCredit = (credits: Array<{ account_id: number; credit_rials: number }>) => this.queueCredits(credits);
    core.events.on('credit', onCredit);
    this.detach.push(() => core.events.off('credit', onCredit));
  }

  subscribe(listener: PushListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit<E extends EventName>(event: E, payload: PayloadOf<E>): void {
    for (const listener of this.listeners) {
      try {
        listener(event, payload);
      } catch {
        // A broken subscriber (a closed window, a dropped SSE client) must not stop the others.
      }
    }
  }

  private queueStatus(changes: StatusChange[]): void {
    if (this.listeners.size === 0) return;
    for (const change of changes) this.pending.push(change);
    this.timer ??= setTimeout(() => this.flushStatus(), STATUS_WINDOW_MS);
  }

  /** Sends what is pending now (also called on close). */
  flushStatus(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const pending = this.pending;
    this.pending = [];
    for (let start = 0; start < pending.length; start += MAX_CHANGES_PER_EVENT)
      this.emit('messages:status-changed', { changes: pending.slice(start, start + MAX_CHANGES_PER_EVENT) });
  }

  private queueCredits(credits: Array<{ account_id: number; credit_rials: number }>): void {
    if (this.listeners.size === 0) return;
    for (const { account_id, credit_rials } of credits) this.credits.set(account_id, credit_rials);
    this.creditTimer ??= setTimeout(() => this.flushCredits(), STATUS_WINDOW_MS);
  }

  private flushCredits(): void {
    if (this.creditTimer) clearTimeout(this.creditTimer);
    this.creditTimer = null;
    if (this.credits.size === 0) return;
    const credits = [...this.credits].map(([account_id, credit_rials]) => ({ account_id, credit_rials }));
    this.credits.clear();
    this.emit('credit:changed', { credits });
  }

  close(): void {
    this.flushStatus();
    this.flushCredits();
    for (const detach of this.detach) detach();
    this.listeners.clear();
  }
}
