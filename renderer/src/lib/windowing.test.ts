import { describe, expect, it } from 'vitest';
import { MAX_SCROLL_PX, visibleRows } from './windowing';

describe('visible rows of a long list', () => {
  it('is plain virtualization while the list fits the height browsers allow', () => {
    expect(visibleRows(1_000, 40, 4_000, 400)).toEqual({ height: 40_000, first: 90, last: 120, offset: 0 });
    expect(visibleRows(0, 40, 0, 400)).toMatchObject({ height: 0, last: -1 });
  });

  it('scales the scroll bar past it, so the middle and the last of a million rows are reached', () => {
    const viewport = 400;
    const middle = visibleRows(1_000_000, 40, (MAX_SCROLL_PX - viewport) / 2, viewport);
    expect(middle.height).toBe(MAX_SCROLL_PX);
    expect(middle.first + 10).toBeCloseTo(499_995, -1);
    const end = visibleRows(1_000_000, 40, MAX_SCROLL_PX - viewport, viewport);
    expect(end.last).toBe(999_999);
    // The last row is drawn at the bottom of the view.
    expect(999_999 * 40 + end.offset + 40).toBeCloseTo(MAX_SCROLL_PX, 5);
  });
});
