// onProgress for the window, throttled per send: a send of 10,000 changes thousands of rows, and
// the window needs fresh counts a few times a second, not once per recipient. A change while the
// throttle holds is sent when it lets go (trailing), and a send's end is sent at once.
import type { EmailSend } from '../../../../shared/ipc/contracts/email';

const INTERVAL_MS = 250;

export class ProgressThrottle {
  private readonly last = new Map<number, number>();
  private readonly timers = new Map<number, NodeJS.Timeout>();

  constructor(
    private readonly read: (sendId: number) => EmailSend | null,
    private readonly emit: (send: EmailSend) => void,
  ) {}

  /** The send's counts or state changed; `now` sends at once (a state change). */
  changed(sendId: number, now = false): void {
    const since = Date.now() - (this.last.get(sendId) ?? 0);
    if (now || since >= INTERVAL_MS) {
      this.flush(sendId);
      return;
    }
    if (this.timers.has(sendId)) return;
    const timer = setTimeout(() => this.flush(sendId), INTERVAL_MS - since);
    timer.unref();
    this.timers.set(sendId, timer);
  }

  private flush(sendId: number): void {
    const timer = this.timers.get(sendId);
    if (timer) clearTimeout(timer);
    this.timers.delete(sendId);
    this.last.set(sendId, Date.now());
    let send: EmailSend | null = null;
    try {
      send = this.read(sendId);
    } catch {
      // The core closed before a trailing update: nobody is listening any more.
      return;
    }
    if (send) this.emit(send);
  }
}
