// Hash routing: no router dependency, and a page survives a reload (#/messages). A page may have
// a path under it (#/contacts/segment/12, #/contacts/optouts, #/campaigns/execution/3).
import { useCallback, useSyncExternalStore } from 'react';

export const PAGES = [
  'dashboard',
  'compose',
  'contacts',
  'campaigns',
  'email',
  'messages',
  'inbox',
  'settings',
] as const;
export type Page = (typeof PAGES)[number];

function parts(): string[] {
  return window.location.hash
    .replace(/^#\/?/, '')
    .split('/')
    .filter((part) => part !== '');
}

function current(): Page {
  const name = parts()[0] ?? '';
  return (PAGES as readonly string[]).includes(name) ? (name as Page) : 'dashboard';
}

/** The path under the page, joined with '/' ('' at the page itself). */
function subPath(): string {
  return parts().slice(1).join('/');
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

/** Goes to a page, or a path under it (`contacts/segment/12`). */
export function navigate(path: string): void {
  window.location.hash = `#/${path}`;
}

export function useRoute(): [Page, (page: Page) => void] {
  const page = useSyncExternalStore(subscribe, current);
  const go = useCallback((next: Page) => navigate(next), []);
  return [page, go];
}

/** The current page's sub-path, e.g. `segment/12` under #/contacts/segment/12. */
export function useSubPath(): string {
  return useSyncExternalStore(subscribe, subPath);
}
