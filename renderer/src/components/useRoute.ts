// Hash routing for four pages: no router dependency, and a page survives a reload (#/messages).
import { useCallback, useSyncExternalStore } from 'react';

export const PAGES = ['dashboard', 'compose', 'messages', 'settings'] as const;
export type Page = (typeof PAGES)[number];

function current(): Page {
  const name = window.location.hash.replace(/^#\/?/, '');
  return (PAGES as readonly string[]).includes(name) ? (name as Page) : 'dashboard';
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

export function useRoute(): [Page, (page: Page) => void] {
  const page = useSyncExternalStore(subscribe, current);
  const go = useCallback((next: Page) => {
    window.location.hash = `#/${next}`;
  }, []);
  return [page, go];
}
