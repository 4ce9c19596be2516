// The labels of every status in both languages, and which final statuses cost money, read from the
// lifecycle's refunding moves.
import { describe, expect, it } from 'vitest';
import { ALL_STATUSES, FINAL_STATUSES, LIFECYCLE, MessageStatus } from './lifecycle';
import { finalCost, refundedMove, statusFullText, statusShortLabel } from './status-labels';

describe('status labels', () => {
  it('every status has a short label and a full text in both languages, the Persian full text the spec one', () => {
    for (const status of ALL_STATUSES) {
      for (const language of ['fa', 'en'] as const) {
        expect(statusShortLabel(status, language)).toMatch(/\S/);
        expect(statusFullText(status, language)).toMatch(/\S/);
        // Short enough for a badge.
        expect(statusShortLabel(status, language).length).toBeLessThanOrEqual(24);
      }
      expect(statusFullText(status, 'fa')).toBe(LIFECYCLE[status].text);
    }
    for (const language of ['fa', 'en'] as const)
      expect(new Set(ALL_STATUSES.map((s) => statusShortLabel(s, language))).size).toBe(ALL_STATUSES.length);
    expect(statusShortLabel(7, 'en')).toBe('');
    expect(statusFullText(7, 'fa')).toBe('');
  });

  it('says which final statuses cost money: 10 and 11 charged, 13 refunded, 14 refunded only before the carrier', () => {
    expect(Object.fromEntries(FINAL_STATUSES.map((s) => [s, finalCost(s)]))).toEqual({
      10: 'charged',
      11: 'charged',
      13: 'refunded',
      14: 'depends',
    });
    expect(refundedMove(MessageStatus.Queued, MessageStatus.Blocked)).toBe(true);
    expect(refundedMove(MessageStatus.HandedToCarrier, MessageStatus.Blocked)).toBe(false);
    expect(refundedMove(MessageStatus.HandedToCarrier, MessageStatus.Cancelled)).toBe(true);
    expect(refundedMove(MessageStatus.HandedToCarrier, MessageStatus.Delivered)).toBe(false);
    expect(refundedMove(MessageStatus.Queued, MessageStatus.HandedToCarrier)).toBeNull();
  });
});
