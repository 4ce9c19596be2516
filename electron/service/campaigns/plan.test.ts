import { describe, expect, it } from 'vitest';
import { SendPlan } from './plan';

// 2026-11-23 08:00 UTC is 11:30 in Tehran (UTC+03:30, no daylight saving).
const START = Date.UTC(2026, 10, 23, 8, 0);
const MIN = 60_000;

describe('the send plan', () => {
  it('without rate or quiet hours, everything is due at the start', () => {
    const plan = new SendPlan({ start: START, sendRate: null, quietHours: null, timeZone: 'Asia/Tehran' });
    expect(plan.dueOf(0)).toBe(START);
    expect(plan.dueOf(1_000_000)).toBe(START);
    expect(plan.slotRoom(5)).toBe(Infinity);
  });

  it('a rate gives each minute its share', () => {
    const plan = new SendPlan({ start: START, sendRate: 100, quietHours: null, timeZone: 'Asia/Tehran' });
    expect(plan.dueOf(99)).toBe(START);
    expect(plan.dueOf(100)).toBe(START + MIN);
    expect(plan.dueOf(250)).toBe(START + 2 * MIN);
    expect(plan.slotRoom(250)).toBe(50);
  });

  it('skips the quiet hours of the account’s zone, across midnight', () => {
    // Quiet 12:00-12:05 Tehran (08:30-08:35 UTC): slots 0..29 before it, then from 12:05.
    const plan = new SendPlan({
      start: START,
      sendRate: 1,
      quietHours: { start: 720, end: 725 },
      timeZone: 'Asia/Tehran',
    });
    expect(plan.dueOf(29)).toBe(START + 29 * MIN);
    expect(plan.dueOf(30)).toBe(START + 35 * MIN);
    const night = new SendPlan({
      start: Date.UTC(2026, 10, 23, 19, 30), // 23:00 Tehran, inside 22:00-08:00
      sendRate: null,
      quietHours: { start: 1320, end: 480 },
      timeZone: 'Asia/Tehran',
    });
    expect(night.dueOf(0)).toBe(Date.UTC(2026, 10, 24, 4, 30)); // 08:00 Tehran
    expect(night.isQuiet(Date.UTC(2026, 10, 24, 4, 29))).toBe(true);
    expect(night.isQuiet(Date.UTC(2026, 10, 24, 4, 30))).toBe(false);
  });

  it('a long campaign at a slow rate runs over several nights', () => {
    // 10 hours of sending a day (08:00-18:00 Tehran): 1,500 messages at 1/min end on the third day at 12:59.
    const plan = new SendPlan({
      start: Date.UTC(2026, 10, 23, 4, 30), // 08:00 Tehran
      sendRate: 1,
      quietHours: { start: 1080, end: 480 },
      timeZone: 'Asia/Tehran',
    });
    expect(plan.dueOf(599)).toBe(Date.UTC(2026, 10, 23, 14, 29));
    expect(plan.dueOf(600)).toBe(Date.UTC(2026, 10, 24, 4, 30));
    expect(plan.dueOf(1_499)).toBe(Date.UTC(2026, 10, 25, 9, 29));
  });
});
