// Rows of a long list read page by page as a virtualized table shows them (a segment's members,
// the opt-out list): only the visible pages are asked for, each once, and a change of `key` (the
// search, the segment) starts over. The total comes with every page.
import { useCallback, useEffect, useRef, useState } from 'react';

export const PAGE = 200;

export interface PagedRows<T> {
  total: number | null;
  row(index: number): T | undefined;
  /** The rows first..last are shown: fetch the pages they are on. */
  ensure(first: number, last: number): void;
  /** Everything again (after a change the list does not know of). */
  reload(): void;
}

export function usePagedRows<T>(
  key: string,
  fetchPage: (offset: number, limit: number) => Promise<{ total: number; rows: T[] } | null>,
): PagedRows<T> {
  const [state, setState] = useState<{
    key: string;
    generation: number;
    total: number | null;
    pages: Map<number, T[]>;
  }>(() => ({ key, generation: 0, total: null, pages: new Map() }));
  const loading = useRef(new Set<string>());
  const fetchRef = useRef(fetchPage);
  useEffect(() => {
    fetchRef.current = fetchPage;
  });

  const load = useCallback((page: number, forKey: string, generation: number) => {
    const id = `${forKey}#${generation}#${page}`;
    if (loading.current.has(id)) return;
    loading.current.add(id);
    void fetchRef.current(page * PAGE, PAGE).then((answer) => {
      loading.current.delete(id);
      if (!answer) return;
      setState((current) => {
        if (current.key !== forKey || current.generation !== generation) return current;
        const pages = new Map(current.pages);
        pages.set(page, answer.rows);
        return { ...current, total: answer.total, pages };
      });
    });
  }, []);

  // A new key: start over from the first page.
  if (state.key !== key) setState({ key, generation: state.generation + 1, total: null, pages: new Map() });
  useEffect(() => {
    load(0, state.key, state.generation);
  }, [state.key, state.generation, load]);

  const ensure = useCallback(
    (first: number, last: number) => {
      for (let page = Math.floor(first / PAGE); page <= Math.floor(last / PAGE); page++)
        if (!state.pages.has(page)) load(page, state.key, state.generation);
    },
    [state, load],
  );
  const row = useCallback((index: number) => state.pages.get(Math.floor(index / PAGE))?.[index % PAGE], [state]);
  const reload = useCallback(
    () => setState((current) => ({ ...current, generation: current.generation + 1, pages: new Map() })),
    [],
  );
  return { total: state.total, row, ensure, reload };
}
