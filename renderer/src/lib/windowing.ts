// Which rows of a long list of equal-height rows are in view. Browsers cap an element's height
// (Chromium at 33,554,428 px): a million rows of 40 px would be cut off at row 838,860. Past
// MAX_SCROLL_PX the scroll bar is scaled instead: its position maps to the same fraction of the
// list, so every row, the last included, can be reached.

export const MAX_SCROLL_PX = 10_000_000;
const OVERSCAN = 10;

/**
 * The rows first..last to draw at a scroll position (with a few more either side), the height of
 * the scrolled content, and `offset`: row i is drawn at i * rowHeight + offset, which puts the
 * rows in view exactly where they belong.
 */
export function visibleRows(count: number, rowHeight: number, scrollTop: number, viewport: number) {
  const total = count * rowHeight;
  const height = Math.min(total, MAX_SCROLL_PX);
  // Scaled: the scroll bar's range stands for the whole list's range.
  const scale = total > height && height > viewport ? (total - viewport) / (height - viewport) : 1;
  const listTop = Math.min(scrollTop * scale, Math.max(0, total - viewport));
  const first = Math.max(0, Math.floor(listTop / rowHeight) - OVERSCAN);
  const last = Math.min(count - 1, Math.ceil((listTop + viewport) / rowHeight) + OVERSCAN);
  return { height, first, last, offset: scrollTop - listTop };
}
