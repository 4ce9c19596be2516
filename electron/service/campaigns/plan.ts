// When a campaign's messages go out (our extension of spec 4.3): an optional send rate (messages
// per minute) and quiet hours in the account's time zone (for example 22:00-08:00, when nothing is
// sent). Messages go in slots of one minute: slot m holds messages m*rate .. (m+1)*rate - 1 and
// opens at the m-th minute of sending time from the start, counting only minutes outside the
// quiet hours. Without a rate every message shares the first open minute.
import { minuteOfDayReader } from '../../../shared/time-zone';
import type { QuietHours } from './form';

const MINUTE = 60_000;
const DAY_MINUTES = 1440;

export interface PlanOptions {
  /** When the execution started (ms). */
  start: number;
  sendRate: number | null;
  quietHours: QuietHours | null;
  timeZone: string;
}

export class SendPlan {
  private readonly minuteOfDay: (t: number) => number;

  constructor(private readonly options: PlanOptions) {
    // An unknown zone name is read as Tehran's rather than failing a campaign.
    this.minuteOfDay = minuteOfDayReader(options.timeZone);
  }

  /** When the message at 0-based position `n` of the audience is due (ms). */
  dueOf(n: number): number {
    const rate = this.options.sendRate;
    return this.slot(rate === null ? 0 : Math.floor(n / rate));
  }

  /** How many messages from position `n` on share its slot (Infinity without a rate). */
  slotRoom(n: number): number {
    const rate = this.options.sendRate;
    return rate === null ? Infinity : rate - (n % rate);
  }

  /** The opening time of slot m (ms). */
  slot(m: number): number {
    let t = this.open(this.options.start);
    let remaining = m;
    const quiet = this.options.quietHours;
    if (quiet === null) return t + remaining * MINUTE;
    // Walk the open stretches between quiet hours: at most one per day.
    for (;;) {
      const quietStart = this.nextQuietStart(t);
      const room = Math.ceil((quietStart - t) / MINUTE);
      if (remaining < room) return t + remaining * MINUTE;
      remaining -= room;
      t = this.open(quietStart);
    }
  }

  /** `t` itself when outside the quiet hours, else the moment they end. */
  open(t: number): number {
    const quiet = this.options.quietHours;
    if (quiet === null || !this.isQuiet(t)) return t;
    const aligned = t - (t % MINUTE);
    const minute = this.minuteOfDay(aligned);
    return aligned + ((quiet.end - minute + DAY_MINUTES) % DAY_MINUTES) * MINUTE;
  }

  isQuiet(t: number): boolean {
    const quiet = this.options.quietHours;
    if (quiet === null) return false;
    const minute = this.minuteOfDay(t);
    return quiet.start < quiet.end
      ? minute >= quiet.start && minute < quiet.end
      : minute >= quiet.start || minute < quiet.end;
  }

  private nextQuietStart(t: number): number {
    const aligned = t - (t % MINUTE);
    const minute = this.minuteOfDay(aligned);
    const ahead = (this.options.quietHours!.start - minute + DAY_MINUTES) % DAY_MINUTES || DAY_MINUTES;
    return aligned + ahead * MINUTE;
  }
}
