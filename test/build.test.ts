// The desktop app's JavaScript: `npm run build` (electron-vite) produces main, preload and
// renderer bundles as the packaged app loads them, and electron-builder.yml (valid by
// electron-builder's own schema) packages them with Electron's fuses set, for Windows (NSIS),
// Linux (AppImage, deb) and macOS (dmg). The packages themselves need Electron's binaries, which
// cannot be downloaded everywhere; what can be checked without them is checked here.
import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from './helpers/server';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

describe('npm run build', () => {
  let out: string;

  beforeAll(async () => {
    out = tempDir('chapar-build-');
    await run(
      process.execPath,
      [path.join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build', '--outDir', out],
      { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
    );
  }, 180_000);

  afterAll(() => {
    if (out) fs.rmSync(out, { recursive: true, force: true });
  });

  it('is the script that builds main, preload and renderer with electron-vite', () => {
    const scripts = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts;
    expect(scripts.build).toBe('electron-vite build');
    expect(scripts.dist).toMatch(/^electron-vite build && .*electron-builder$/);
  });

  it('emits the main process with its import worker, native modules left outside the bundle', () => {
    const main = fs.readFileSync(path.join(out, 'main', 'index.js'), 'utf8');
    expect(fs.existsSync(path.join(out, 'main', 'import-worker.js'))).toBe(true);
    expect(main).toMatch(/from ["']better-sqlite3["']/);
    expect(main).toMatch(/from ["']electron["']/);
    // The production rules are in the bundle: the dev server only when not packaged.
    expect(main).toContain('isPackaged');
    expect(main).toContain('ELECTRON_RENDERER_URL');
  });

  it('emits the preload as CommonJS, as a sandboxed preload must be', () => {
    const preload = fs.readFileSync(path.join(out, 'preload', 'index.cjs'), 'utf8');
    expect(preload).toMatch(/require\(["']electron["']\)/);
    expect(preload).not.toMatch(/^\s*import\s/m);
    expect(preload).toContain('exposeInMainWorld');
  });

  it('emits the renderer with every script and style its page names', () => {
    const html = fs.readFileSync(path.join(out, 'renderer', 'index.html'), 'utf8');
    const assets = [...html.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((match) => match[1]!);
    expect(assets.some((asset) => asset.endsWith('.js'))).toBe(true);
    for (const asset of assets)
      expect(fs.existsSync(path.join(out, 'renderer', asset.replace(/^\.?\//, ''))), asset).toBe(true);
  });
});

describe('electron-builder.yml', () => {
  const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
    getConfig(projectDir: string, configPath: string | null, fromOptions: unknown): Promise<Record<string, unknown>>;
    validateConfiguration(config: unknown, debugLogger: { isEnabled: boolean; add(): void }): Promise<void>;
  };
  let config: Record<string, any>;

  beforeAll(async () => {
    config = await getConfig(ROOT, null, null);
  });

  it("is valid by electron-builder's schema", async () => {
    await expect(validateConfiguration(config, { isEnabled: false, add() {} })).resolves.toBeUndefined();
    // The check bites: a misspelt fuse is refused.
    await expect(
      validateConfiguration(
        { ...config, electronFuses: { ...config['electronFuses'], runAsNod: false } },
        { isEnabled: false, add() {} },
      ),
    ).rejects.toThrow(/electronFuses/);
  });

  it('names the app and packages the built bundles into an asar, better-sqlite3 outside it', () => {
    expect(config['appId']).toBe('app.chapar.desktop');
    expect(config['productName']).toBe('Chapar');
    expect(config['asar']).toBe(true);
    expect(config['files'][0].filter).toContain('out/**/*');
    expect(config['asarUnpack']).toContain('node_modules/better-sqlite3/**');
    // The addon built for Electron (electron/cli/electron-native.mjs) where the app looks for it
    // (electron/service/db/native.ts: resources/native/better_sqlite3.node).
    expect(config['extraResources']).toEqual([
      { from: 'native/electron/better_sqlite3.node', to: 'native/better_sqlite3.node' },
    ]);
    expect(config['npmRebuild']).toBe(false);
  });

  it("sets Electron's fuses: no RunAsNode, NODE_OPTIONS or --inspect; cookie encryption; only an intact app.asar", () => {
    expect(config['electronFuses']).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
    });
  });

  it('targets Windows NSIS, Linux AppImage and deb, macOS dmg', () => {
    expect(config['win'].target).toEqual(['nsis']);
    expect(config['linux'].target).toEqual(['AppImage', 'deb']);
    expect(config['mac'].target).toEqual(['dmg']);
  });
});
