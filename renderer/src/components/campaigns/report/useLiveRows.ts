// Rows of a report that is still moving, read page by page as the virtualized table shows them.
// Unlike usePagedRows (lists that change only when the user changes them), a running execution's
// rows gain statuses, clicks and new recipients all the time: when `version` moves, the pages in
// view are read again and replace the old ones in place (no flash of empty rows); a new `key` (the
// filter) starts over. The row count comes from the report, not from the pages.
import { useCallback, useEffect, useRef, useState } from 'react';

export const ROWS_PAGE = 200;

export interface LiveRows<T> {
  row(index: number): T | undefined;
  /** The rows first..last are shown: fetch the pages they are on. */
  ensure(first: number, last: number): void;
}

/** The pages rows first..last are on. */
function pagesOf(first: number, last: number): number[] {
  const pages: number[] = [];
  for (let page = Math.floor(first / ROWS_PAGE); page <= Math.floor(last / ROWS_PAGE); page++) pages.push(page);
  return pages;
}

export function useLiveRows<T>(
  key: string,
  version: number,
  fetchPage: (offset: number, limit: number) => Promise<T[] | null>,
): LiveRows<T> {
  const [state, setState] = useState(() => ({ key, pages: new Map<number, T[]>() }));
  const loading = useRef(new Set<string>());
  const shown = useRef<[number, number] | null>(null);
  const fetchRef = useRef(fetchPage);
  useEffect(() => {
    fetchRef.current = fetchPage;
  });

  const load = useCallback((page: number, forKey: string, forVersion: number) => {
    const id = `${forKey}#${forVersion}#${page}`;
    if (loading.current.has(id)) return;
    loading.current.add(id);
    void fetchRef.current(page * ROWS_PAGE, ROWS_PAGE).then((rows) => {
      loading.current.delete(id);
      if (!rows) return;
      setState((current) => {
        if (current.key !== forKey) return current;
        const pages = new Map(current.pages);
        pages.set(page, rows);
        return { ...current, pages };
      });
    });
  }, []);

  // A new key (another filter): nothing of the old rows is kept.
  if (state.key !== key) setState({ key, pages: new Map() });

  // The report moved on: what is in view is read again.
  useEffect(() => {
    if (shown.current) for (const page of pagesOf(...shown.current)) load(page, state.key, version);
  }, [version, state.key, load]);

  const ensure = useCallback(
    (first: number, last: number) => {
      shown.current = [first, last];
      for (const page of pagesOf(first, last)) if (!state.pages.has(page)) load(page, state.key, version);
    },
    [state, load, version],
  );
  const row = useCallback(
    (index: number) => state.pages.get(Math.floor(index / ROWS_PAGE))?.[index % ROWS_PAGE],
    [state],
  );
  return { row, ensure };
}
