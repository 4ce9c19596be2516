// The desktop app's main process: one locked-down window over the renderer, the service core over
// the workspace folder, the local HTTP API on 127.0.0.1, and the typed IPC between them. The core
// is the same one `serve` runs; everything Electron-specific stays in this folder.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, shell } from 'electron';
import pino, { type Logger } from 'pino';
import { Core } from '../service/core';
import { WorkspaceDatabaseError } from '../service/workspace/open';
import { ensureDemoAccount } from '../service/seed';
import { defaultDataDir } from '../service/workspace/paths';
import { createLogger } from '../service/log';
import { createDispatcher, type IpcDispatcher } from '../service/ipc/dispatcher';
import { readAppSettings } from '../service/settings/app-settings';
import {
  APP_ENTRY,
  WINDOW_POLICY,
  applyMenuPolicy,
  enforceSessionPolicy,
  lockDownContents,
  registerAppScheme,
  serveRenderer,
} from './security';
import { HttpApi } from './http-api';
import { wireIpc } from './ipc';
import { WorkspaceLocation } from './workspace';
import { desktopSecretStore } from './secrets';

const here = path.dirname(fileURLToPath(import.meta.url));
const RENDERER_DIR = path.join(here, '../renderer');
// electron-vite emits the CommonJS preload as index.cjs (the package is "type": "module").
const PRELOAD = path.join(here, '../preload/index.cjs');

// The workspace's rotating log file (<workspace>/logs/chapar.log) once the workspace is open;
// the console always, for a terminal that started the app.
let logger: Logger = createLogger({ kind: 'silent' });
let logFile = false;
const log = (line: string) => {
  console.log(line);
  logger.info(line);
};
const logError = (message: string, error: unknown) => {
  console.error(`chapar: ${message}`, error);
  logger.error({ err: error }, message);
};

/** Lets the log file take its last lines before the process exits (at most a second). */
function closeLog(): Promise<void> {
  const stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as
    { end?: (done: () => void) => void } | undefined;
  if (!logFile || typeof stream?.end !== 'function') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 1000);
    stream.end!(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

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
      // Production builds have no DevTools at all (window-policy.ts).
      devTools: WINDOW_POLICY.devTools,
    },
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(APP_ENTRY);
  return win;
}

async function start(): Promise<void> {
  enforceSessionPolicy();
  applyMenuPolicy();
  serveRenderer(RENDERER_DIR);

  const location = new WorkspaceLocation(app.getPath('userData'));
  const dataDir = location.open();
  logger = createLogger({ kind: 'file', dir: path.join(dataDir, 'logs') });
  logFile = true;
  core = new Core({ dataDir, secrets: desktopSecretStore(dataDir) });
  const demo = ensureDemoAccount(core);
  // Keys are shown only once; the window's Settings creates the ones the user will copy.
  if (demo) log('chapar: demo account created');

  httpApi = new HttpApi(core, log, logger);
  const api = httpApi;
  dispatcher = createDispatcher(core, {
    mode: 'desktop',
    httpApi: { url: () => api.url(), canToggle: true, apply: (config) => api.start(config) },
    nextDataDir: { get: () => location.next(), set: (dir) => location.setNext(dir) },
    chooseFile: (purpose, defaultPath) => chooseFile(purpose, defaultPath),
    reveal: (file) => shell.showItemInFolder(file),
    log: logError,
  });
  unwireIpc = wireIpc(dispatcher);
  // A failing scheduler worker or job goes on with its loop; the log keeps what went wrong.
  core.events.on('worker-error', ({ worker, error }) => logError(`worker ${worker} failed`, error));
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
    .catch((error: unknown) => logError('stopping failed', error))
    .finally(() => closeLog().finally(() => app.exit(0)));
});

if (primary)
  app
    .whenReady()
    .then(start)
    .catch(async (error: unknown) => {
      logError('could not start', error);
      // better-sqlite3 built for Node, not for this Electron: the one step `npm start` does first.
      if (String(error).includes('NODE_MODULE_VERSION'))
        console.error('chapar: run `node electron/cli/electron-native.mjs` to build better-sqlite3 for Electron');
      if (error instanceof WorkspaceDatabaseError) await explainDatabaseFailure(error);
      void closeLog().finally(() => app.exit(1));
    });

/**
 * A workspace whose database cannot be used: the window cannot open on it, so a dialog says what
 * is wrong and which safety backup to go back to (the core's words), and can show that backup.
 */
async function explainDatabaseFailure(error: WorkspaceDatabaseError): Promise<void> {
  const showBackup = 'Show the backup';
  const buttons = error.safetyBackup ? [showBackup, 'Close'] : ['Close'];
  const { response } = await dialog.showMessageBox({
    type: 'error',
    title: 'Chapar',
    message: 'Chapar cannot open its workspace',
    detail: error.message,
    buttons,
    defaultId: 0,
    noLink: true,
  });
  if (buttons[response] === showBackup && error.safetyBackup) shell.showItemInFolder(error.safetyBackup);
}
