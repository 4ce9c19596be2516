// A virtualized list of equal-height rows under a header (a CSS grid, so header and rows line up
// and flip with the page's direction): only the visible rows exist, and `onRange` says which they
// are so their pages can be fetched.
// Rows past a browser's height limit stay reachable: lib/windowing.ts.
import { Paper, Skeleton } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';
import { digits } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { visibleRows } from '../../lib/windowing';
import { useScrollBox } from '../useScrollBox';

const ROW_HEIGHT = 40;

export function VirtualRows({
  count,
  columns,
  header,
  renderRow,
  onRange,
  testId,
  height = 'calc(100vh - 360px)',
}: {
  count: number;
  /** grid-template-columns of header and rows. */
  columns: string;
  header: ReactNode;
  /** A row's cells, or null while its page loads. */
  renderRow: (index: number) => ReactNode | null;
  onRange: (first: number, last: number) => void;
  testId: string;
  height?: string;
}) {
  const { ref: scrollRef, scrollTop, viewport, onScroll } = useScrollBox();
  const { height: spacer, first, last, offset } = visibleRows(count, ROW_HEIGHT, scrollTop, viewport);
  useEffect(() => {
    if (count > 0) onRange(first, last);
  }, [first, last, count, onRange]);
  const rowStyle = {
    textAlign: 'start' as const,
    display: 'grid',
    gridTemplateColumns: columns,
    alignItems: 'center',
    gap: 8,
    height: ROW_HEIGHT,
    paddingInline: 12,
    borderBottom: '1px solid var(--mantine-color-gray-2)',
    fontSize: 'var(--mantine-font-size-sm)',
    whiteSpace: 'nowrap' as const,
  };
  const indexes = count === 0 ? [] : Array.from({ length: last - first + 1 }, (_, k) => first + k);
  return (
    <Paper withBorder style={{ overflow: 'hidden' }} data-testid={testId} role="table" aria-rowcount={count}>
      <div style={{ ...rowStyle, fontWeight: 600, background: 'var(--mantine-color-gray-0)' }} role="row">
        {header}
      </div>
      <div
        ref={scrollRef}
        style={{ height, minHeight: 200, overflowY: 'auto', contain: 'strict' }}
        onScroll={onScroll}
        data-testid={`${testId}-scroll`}
      >
        <div style={{ height: spacer, position: 'relative' }}>
          {indexes.map((index) => {
            const cells = renderRow(index);
            return (
              <div
                key={index}
                role="row"
                style={{
                  ...rowStyle,
                  position: 'absolute',
                  top: 0,
                  insetInlineStart: 0,
                  width: '100%',
                  transform: `translateY(${index * ROW_HEIGHT + offset}px)`,
                }}
                data-index={index}
              >
                {cells ?? <Skeleton height={12} width="70%" style={{ gridColumn: '1 / -1' }} />}
              </div>
            );
          })}
        </div>
      </div>
    </Paper>
  );
}

/**
 * A cell of text in either script: aligned to the start of the page's direction (right in
 * Persian), the text itself isolated so a Latin name in a Persian page (or the reverse) reads right.
 */
export function Cell({ text }: { text: string }) {
  return (
    <div style={{ textAlign: 'start', overflow: 'hidden', textOverflow: 'ellipsis' }} title={text}>
      <bdi>{text}</bdi>
    </div>
  );
}

/** A mobile number: left to right inside a page of either direction, in the window's digits. */
export function PhoneCell({ phone, testId }: { phone: string; testId: string }) {
  const language = useLanguage();
  return (
    <div data-testid={testId} data-phone={phone}>
      <bdi dir="ltr">{digits(phone, language)}</bdi>
    </div>
  );
}
