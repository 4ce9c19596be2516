// The desktop app's main process: one locked-down window over the renderer, the service core over
// the workspace folder, the local HTTP API on 127.0.0.1, and the typed IPC between them. The core
// is the same one `serve` runs; everything Electron-specific stays in this folder.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, shell } from 'electron';
import { Core } from '../service/core';
import { ensureDemoAccount } from '../service/seed';
import { defaultDataDir } from '../service/workspace/paths';
import { createDispatcher, type IpcDispatcher } from '../service/ipc/dispatcher';
import { readAppSettings } from '../service/settings/app-settings';
import { APP_ENTRY, enforceSessionPolicy, lockDownContents, registerAppScheme, serveRenderer } from './security';
import { HttpApi } from './http-api';
import { wireIpc } from './ipc';
import { WorkspaceLocation } from './workspace';

const here = path.dirname(fileURLToPath(import.meta.url));
const RENDERER_DIR = path.join(here, '../renderer');
// electron-vite emits the CommonJS preload as index.cjs (the package is "type": "module").
const PRELOAD = path.join(here, '../preload/index.cjs');

const log = (line: string) => console.log(line);

// The window and `serve` share one workspace: the user data folder is serve's default data folder;
// Chromium's own files (cache, local storage) go to a subfolder of it, apart from the workspace's.
app.setPath('userData', defaultDataDir());
app.setPath('sessionData', path.join(defaultDataDir(), 'electron-session'));
registerAppScheme();
lockDownContents();

// One instance per workspace: a second one would write the same database.
const primary = app.requestSingleInstanceLock();
if (!primary) app.quit();

let core: Core | null = null;
let dispatcher: IpcDispatcher | null = null;
let httpApi: HttpApi | null = null;
let unwireIpc: (() => void) | null = null;
let window: BrowserWindow | null = null;

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 840,
    minWidth: 960,
    minHeight: 640,
    show: false,
    title: 'Chapar',
    autoHideMenuBar: true,
    webPreferences: {
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(APP_ENTRY);
  return win;
}

async function start(): Promise<void> {
  enforceSessionPolicy();
  serveRenderer(RENDERER_DIR);

  const location = new WorkspaceLocation(app.getPath('userData'));
  const dataDir = location.open();
  core = new Core({ dataDir });
  const demo = ensureDemoAccount(core);
  // Keys are shown only once; the window's Settings creates the ones the user will copy.
  if (demo) log('chapar: demo account created');

  httpApi = new HttpApi(core, log);
  const api = httpApi;
  dispatcher = createDispatcher(core, {
    mode: 'desktop',
    httpApi: { url: () => api.url(), canToggle: true, apply: (config) => api.start(config) },
    nextDataDir: { get: () => location.next(), set: (dir) => location.setNext(dir) },
    chooseFile: (purpose, defaultPath) => chooseFile(purpose, defaultPath),
    reveal: (file) => shell.showItemInFolder(file),
    log: (message, error) => console.error(`chapar: ${message}`, error),
  });
  unwireIpc = wireIpc(dispatcher);
  await api.start(readAppSettings(core.settings).http_api);

  window = createWindow();
  window.on('closed', () => (window = null));
}

async function chooseFile(
  purpose: 'backup-restore' | 'backup-save' | 'data-folder' | 'spreadsheet',
  defaultPath: string | undefined,
): Promise<string | null> {
  const parent = window ?? BrowserWindow.getFocusedWindow();
  const backups = [{ name: 'Chapar backup', extensions: ['db'] }];
  const spreadsheets = [
    { name: 'Spreadsheet', extensions: ['csv', 'xlsx', 'txt', 'tsv'] },
    { name: '*', extensions: ['*'] },
  ];
  if (purpose === 'backup-save') {
    const options = { defaultPath, filters: backups };
    const result = parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options);
    return result.canceled ? null : (result.filePath ?? null);
  }
  const options = {
    defaultPath,
    properties: purpose === 'data-folder' ? (['openDirectory', 'createDirectory'] as const) : (['openFile'] as const),
    filters: purpose === 'backup-restore' ? backups : purpose === 'spreadsheet' ? spreadsheets : [],
  };
  const result = parent
    ? await dialog.showOpenDialog(parent, { ...options, properties: [...options.properties] })
    : await dialog.showOpenDialog({ ...options, properties: [...options.properties] });
  return result.canceled ? null : (result.filePaths[0] ?? null);
}

let stopping = false;
async function stop(): Promise<void> {
  unwireIpc?.();
  dispatcher?.close();
  await httpApi?.stop();
  await core?.close();
}

app.on('second-instance', () => {
  if (!window) return;
  if (window.isMinimized()) window.restore();
  window.focus();
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

app.on('activate', () => {
  if (core && BrowserWindow.getAllWindows().length === 0) window = createWindow();
});

// The scheduler finishes its batch and the database is closed before the process goes.
app.on('before-quit', (event) => {
  if (stopping) return;
  stopping = true;
  event.preventDefault();
  stop()
    .catch((error: unknown) => console.error('chapar: stopping failed', error))
    .finally(() => app.exit(0));
});

if (primary)
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      console.error('chapar: could not start', error);
      // better-sqlite3 built for Node, not for this Electron: the one step `npm start` does first.
      if (String(error).includes('NODE_MODULE_VERSION'))
        console.error('chapar: run `node electron/cli/electron-native.mjs` to build better-sqlite3 for Electron');
      app.exit(1);
    });
