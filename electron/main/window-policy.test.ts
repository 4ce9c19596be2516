// Production builds load only their own renderer and have no DevTools; development builds follow
// `electron-vite dev`'s dev server on this machine and keep DevTools.
import { describe, expect, it } from 'vitest';
import { isDeveloperShortcut, productionMenu, windowPolicy } from './window-policy';

const DEV_SERVER = 'http://localhost:5173/';

describe('window policy', () => {
  it('ignores ELECTRON_RENDERER_URL and closes DevTools in a packaged app', () => {
    expect(windowPolicy({ isPackaged: true, env: { ELECTRON_RENDERER_URL: DEV_SERVER } })).toEqual({
      devUrl: undefined,
      devTools: false,
    });
    expect(windowPolicy({ isPackaged: true, env: {} })).toEqual({ devUrl: undefined, devTools: false });
  });

  it('follows the dev server in a development build, with DevTools', () => {
    expect(windowPolicy({ isPackaged: false, env: { ELECTRON_RENDERER_URL: DEV_SERVER } })).toEqual({
      devUrl: DEV_SERVER,
      devTools: true,
    });
    expect(windowPolicy({ isPackaged: false, env: {} })).toEqual({ devUrl: undefined, devTools: true });
    for (const url of ['http://127.0.0.1:5173', 'http://[::1]:5173/', 'https://localhost:5173'])
      expect(windowPolicy({ isPackaged: false, env: { ELECTRON_RENDERER_URL: url } }).devUrl).toBe(url);
  });

  it('takes no dev server off this machine, nor anything that is no web URL, even in development', () => {
    for (const url of ['https://evil.example/', 'file:///tmp/page.html', 'javascript:alert(1)', 'not a url', ''])
      expect(windowPolicy({ isPackaged: false, env: { ELECTRON_RENDERER_URL: url } }).devUrl).toBeUndefined();
  });

  it('knows the shortcuts that open DevTools or reload', () => {
    const key = (key: string, mods: Partial<{ control: boolean; meta: boolean; shift: boolean; alt: boolean }> = {}) =>
      isDeveloperShortcut({ type: 'keyDown', key, control: false, meta: false, shift: false, alt: false, ...mods });
    expect(key('F12')).toBe(true);
    expect(key('I', { control: true, shift: true })).toBe(true);
    expect(key('j', { control: true, shift: true })).toBe(true);
    expect(key('i', { meta: true, alt: true })).toBe(true);
    expect(key('r', { control: true })).toBe(true);
    expect(key('F5')).toBe(true);
    // Typing and editing stay untouched.
    expect(key('c', { control: true })).toBe(false);
    expect(key('v', { meta: true })).toBe(false);
    expect(key('i')).toBe(false);
    expect(key('I', { shift: true })).toBe(false);
    expect(
      isDeveloperShortcut({ type: 'keyUp', key: 'F12', control: false, meta: false, shift: false, alt: false }),
    ).toBe(false);
  });

  it('has a production menu without reload or DevTools, with Edit on macOS', () => {
    expect(productionMenu('win32')).toBeNull();
    expect(productionMenu('linux')).toBeNull();
    const mac = productionMenu('darwin')!;
    expect(mac.map((item) => item.role)).toEqual(['appMenu', 'editMenu', 'windowMenu']);
    expect(JSON.stringify(mac)).not.toMatch(/toggleDevTools|reload|viewMenu/i);
  });
});
