// The web UI's token belongs to the workspace: made once, kept in its secrets file (only its user
// can read it), the same at the next start; CHAPAR_WEB_TOKEN fixes it without writing it. Browser
// sessions outlive a restart, and "sign out other browsers" outlives one too. The pages the server
// makes itself take the language the web UI's cookie names before the browser's.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SECRETS_FILE, fileSecretStore } from '../../service/secrets';
import { requestLanguage } from '../../service/http/dead-link-page';
import { WEB_TOKEN_SECRET, WebSessions, workspaceToken } from './token';

const dirs: string[] = [];
const workspace = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chapar-token-'));
  dirs.push(dir);
  return dir;
};
const fixed = process.env['CHAPAR_WEB_TOKEN'];
afterEach(() => {
  if (fixed === undefined) delete process.env['CHAPAR_WEB_TOKEN'];
  else process.env['CHAPAR_WEB_TOKEN'] = fixed;
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the workspace token', () => {
  it('is made once, kept only for its user, and the same at the next start', () => {
    delete process.env['CHAPAR_WEB_TOKEN'];
    const dir = workspace();
    const first = workspaceToken(fileSecretStore(dir));
    expect(first).toMatch(/^[\w-]{32}$/);
    expect(workspaceToken(fileSecretStore(dir))).toBe(first);
    expect(fs.statSync(path.join(dir, SECRETS_FILE)).mode & 0o777).toBe(0o600);
    // Another workspace, another token.
    expect(workspaceToken(fileSecretStore(workspace()))).not.toBe(first);
  });

  it('is CHAPAR_WEB_TOKEN when set, which is not written to the workspace', () => {
    process.env['CHAPAR_WEB_TOKEN'] = 'fixed-token-for-scripts';
    const dir = workspace();
    const store = fileSecretStore(dir);
    expect(workspaceToken(store)).toBe('fixed-token-for-scripts');
    expect(store.get(WEB_TOKEN_SECRET)).toBeNull();
  });

  it('a damaged kept token is replaced', () => {
    delete process.env['CHAPAR_WEB_TOKEN'];
    const store = fileSecretStore(workspace());
    store.set(WEB_TOKEN_SECRET, 'short');
    const token = workspaceToken(store);
    expect(token).toMatch(/^[\w-]{32}$/);
    expect(store.get(WEB_TOKEN_SECRET)).toBe(token);
  });
});

describe('browser sessions across a restart', () => {
  it('stay signed in; those signed out stay signed out', () => {
    delete process.env['CHAPAR_WEB_TOKEN'];
    const dir = workspace();
    const start = () => new WebSessions({ token: workspaceToken(fileSecretStore(dir)), dataDir: dir });
    const before = start();
    const mine = before.issue();
    const theirs = before.issue();
    // Restarted: both still valid.
    const after = start();
    expect(after.valid(mine)).toBe(true);
    expect(after.valid(theirs)).toBe(true);
    // Signed out others (mine gets a fresh session), then restarted again.
    after.rotate();
    const fresh = after.issue();
    const again = start();
    expect(again.valid(theirs)).toBe(false);
    expect(again.valid(mine)).toBe(false);
    expect(again.valid(fresh)).toBe(true);
    // Another workspace's sessions open nothing here.
    const elsewhere = workspace();
    expect(
      new WebSessions({ token: workspaceToken(fileSecretStore(elsewhere)), dataDir: elsewhere }).valid(fresh),
    ).toBe(false);
  });
});

describe('the language of the server’s own pages', () => {
  it('is the web UI’s cookie, else the browser’s languages', () => {
    expect(requestLanguage({ 'accept-language': 'fa-IR,fa;q=0.9,en;q=0.8' })).toBe('fa');
    expect(requestLanguage({ 'accept-language': 'en-US,en;q=0.9' })).toBe('en');
    expect(requestLanguage({ cookie: 'chapar_lang=fa', 'accept-language': 'en-US' })).toBe('fa');
    expect(requestLanguage({ cookie: 'a=1; chapar_lang=en; b=2', 'accept-language': 'fa' })).toBe('en');
    // Another value, or another cookie ending in the name, is not the choice.
    expect(requestLanguage({ cookie: 'chapar_lang=de', 'accept-language': 'fa' })).toBe('fa');
    expect(requestLanguage({ cookie: 'xchapar_lang=en', 'accept-language': 'fa' })).toBe('fa');
    expect(requestLanguage({})).toBe('en');
  });
});
