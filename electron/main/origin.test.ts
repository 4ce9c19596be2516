import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appOrigin, isExternalLink, isSameOrigin, isTrustedFrame, rendererFile } from './origin';

const ORIGIN = appOrigin(undefined);
const ROOT = path.resolve('/srv/chapar/out/renderer');

describe('window security rules', () => {
  it('knows the app origin', () => {
    expect(ORIGIN).toBe('app://chapar');
    expect(appOrigin('http://localhost:5173/')).toBe('http://localhost:5173');
    expect(isSameOrigin('app://chapar:80/index.html', ORIGIN)).toBe(false);
    expect(isSameOrigin('app://chapar/index.html#/messages', ORIGIN)).toBe(true);
    expect(isSameOrigin('app://other/index.html', ORIGIN)).toBe(false);
    expect(isSameOrigin('https://chapar.example/', ORIGIN)).toBe(false);
    expect(isSameOrigin('not a url', ORIGIN)).toBe(false);
  });

  it('answers IPC only for the top frame of the app', () => {
    expect(isTrustedFrame({ parent: null, url: 'app://chapar/index.html' }, ORIGIN)).toBe(true);
    expect(isTrustedFrame({ parent: {}, url: 'app://chapar/index.html' }, ORIGIN)).toBe(false);
    expect(isTrustedFrame({ parent: null, url: 'https://evil.example/' }, ORIGIN)).toBe(false);
    expect(isTrustedFrame({ parent: null, url: 'file:///etc/passwd' }, ORIGIN)).toBe(false);
    expect(isTrustedFrame(null, ORIGIN)).toBe(false);
  });

  it('serves only files inside the renderer folder', () => {
    expect(rendererFile(ROOT, 'app://chapar/')).toBe(path.join(ROOT, 'index.html'));
    expect(rendererFile(ROOT, 'app://chapar/assets/index-1.js')).toBe(path.join(ROOT, 'assets', 'index-1.js'));
    // Whatever the URL says, the file is inside the folder or refused.
    for (const attempt of [
      'app://chapar/../../main/index.js',
      'app://chapar/%2e%2e/%2e%2e/secrets.json',
      'app://chapar/..%2F..%2Fpreload%2Findex.cjs',
      'app://chapar/assets/..%2F..%2F..%2Fetc%2Fpasswd',
    ]) {
      const file = rendererFile(ROOT, attempt);
      expect(file === null || file.startsWith(ROOT + path.sep), `${attempt} -> ${file}`).toBe(true);
    }
    expect(rendererFile(ROOT, 'app://chapar/..%2F..%2Fpreload%2Findex.cjs')).toBeNull();
    expect(rendererFile(ROOT, 'app://chapar/a%00b')).toBeNull();
    expect(rendererFile(ROOT, 'app://other/index.html')).toBeNull();
    expect(rendererFile(ROOT, 'https://chapar/index.html')).toBeNull();
  });

  it('opens only web and mail links outside', () => {
    expect(isExternalLink('https://example.com')).toBe(true);
    expect(isExternalLink('mailto:a@b.c')).toBe(true);
    expect(isExternalLink('file:///etc/passwd')).toBe(false);
    expect(isExternalLink('javascript:alert(1)')).toBe(false);
    expect(isExternalLink('smb://host/share')).toBe(false);
  });
});
