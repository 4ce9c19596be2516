// What a production build allows that a development one does not, decided from plain facts (is
// the app packaged, its environment) and kept free of `electron` so tests check it directly. A
// packaged app always loads its own bundled renderer: ELECTRON_RENDERER_URL, which
// `electron-vite dev` sets, would otherwise let anyone who can set an environment variable point
// the window, and its IPC, at a page of their choosing. DevTools are closed and cannot be opened.
import type { MenuItemConstructorOptions } from 'electron';

export interface WindowPolicy {
  /** The dev server the renderer is loaded from, or undefined: the bundled one (app://chapar). */
  devUrl: string | undefined;
  /** Whether DevTools, their shortcuts and the default menu (reload, toggle DevTools) exist. */
  devTools: boolean;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export function windowPolicy(facts: { isPackaged: boolean; env: Record<string, string | undefined> }): WindowPolicy {
  if (facts.isPackaged) return { devUrl: undefined, devTools: false };
  return { devUrl: devServerUrl(facts.env['ELECTRON_RENDERER_URL']), devTools: true };
}

/** The dev server's URL when it is one: http(s) on this machine, else none. */
function devServerUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK.has(url.hostname) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A key press that opens DevTools or reloads the page: F12, Ctrl+Shift+I/J/C, ⌥⌘I/J/C, F5, Ctrl+R. */
export function isDeveloperShortcut(input: {
  type: string;
  key: string;
  control: boolean;
  meta: boolean;
  shift: boolean;
  alt: boolean;
}): boolean {
  if (input.type !== 'keyDown') return false;
  const key = input.key.toLowerCase();
  if (key === 'f12' || key === 'f5') return true;
  const command = input.control || input.meta;
  if (command && (input.shift || input.alt) && ['i', 'j', 'c'].includes(key)) return true;
  return command && key === 'r';
}

/**
 * The production menu: no View menu (reload, force reload, toggle DevTools). macOS keeps its app,
 * Edit and Window menus, without which copy and paste shortcuts do nothing there; elsewhere there
 * is no menu at all (the window hides its menu bar anyway).
 */
export function productionMenu(platform: NodeJS.Platform): MenuItemConstructorOptions[] | null {
  if (platform !== 'darwin') return null;
  return [{ role: 'appMenu' }, { role: 'editMenu' }, { role: 'windowMenu' }];
}
