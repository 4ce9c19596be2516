// The work that writes under the workspace outside the jobs runner: an export, a backup or a
// restore a window asked for, an upload copied into the folder. Core.close() refuses new work
// here, aborts the signal (an export stops between two pages and removes its partial file) and
// waits for what runs, so that once close() resolves nothing writes into the folder any more: it
// can be removed, copied or opened again. The jobs (imports, campaigns, retention, email) have
// their own stop(), which close() awaits before this.
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';

export class Writers {
  private readonly controller = new AbortController();
  private readonly running = new Set<Promise<unknown>>();

  /** Aborted when close() begins: long work checks it between two of its steps. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get closing(): boolean {
    return this.controller.signal.aborted;
  }

  /** Runs `work`, which close() then waits for; refused once close() began. */
  run<T>(work: (signal: AbortSignal) => Promise<T> | T): Promise<T> {
    if (this.closing) return Promise.reject(closingError());
    const done = Promise.resolve().then(() => work(this.signal));
    const settled = done.then(
      () => undefined,
      () => undefined,
    );
    this.running.add(settled);
    void settled.finally(() => this.running.delete(settled));
    return done;
  }

  /** Refuses new work, aborts the signal and resolves when everything that ran has ended. */
  async close(): Promise<void> {
    // Work that stops on the signal answers with its reason: the same refusal as work refused here.
    this.controller.abort(closingError());
    while (this.running.size > 0) await Promise.all(this.running);
  }
}

/** What work refused or stopped by the close answers (the window says the workspace is closing). */
function closingError(): ServiceError {
  return new ServiceError(ApiCode.Internal, 'the workspace is closing', 'workspace_closing');
}
