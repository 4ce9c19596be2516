// Push events for the renderer, from the core: status changes (merged over a short window so a
// busy gateway sends a few large batches, not thousands of small ones), import progress (when the
// contacts domain emits it on core.events as 'import-progress') and export progress.
import type { EventEmitter } from 'node:events';
import type { Core } from '../core';
import type { StatusChange } from '../messaging/gateway';
import type { EventName, PayloadOf } from '../../../shared/ipc/contracts';

export type PushListener = <E extends EventName>(event: E, payload: PayloadOf<E>) => void;

const STATUS_WINDOW_MS = 100;
/** Upper bound of changes per event, so one message over IPC or SSE stays small. */
const MAX_CHANGES_PER_EVENT = 5000;

export class EventHub {
  private readonly listeners = new Set<PushListener>();
  private pending: StatusChange[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly detach: Array<() => void> = [];

  constructor(core: Core) {
    const onStatus = (changes: StatusChange[]) => this.queueStatus(changes);
    core.events.on('message-status', onStatus);
    this.detach.push(() => core.events.off('message-status', onStatus));
    // The contacts domain reports import progress on the same emitter (untyped there for now).
    const untyped = core.events as unknown as EventEmitter;
    const onImport = (payload: PayloadOf<'import:progress'>) => this.emit('import:progress', payload);
    untyped.on('import-progress', onImport);
    this.detach.push(() => untyped.off('import-progress', onImport));
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

  close(): void {
    this.flushStatus();
    for (const detach of this.detach) detach();
    this.listeners.clear();
  }
}
