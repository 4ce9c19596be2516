// Every IPC contract mapped to its handler over the core, and the one dispatcher both transports
// use (Electron's ipcMain in main, the HTTP bridge in `serve`): it refuses unknown channels,
// validates the input with the contract's schema, runs the handler and answers
// {ok: true, value} | {ok: false, error: {code, message}} — never a thrown error.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Core } from '../core';
import { ServiceError } from '../errors';
import { apiCodeMessage } from '../../../shared/status';
import { IpcErrorCode, type IpcError, type IpcResult } from '../../../shared/ipc/contract';
import { contracts, isChannel, type Channel, type OutputOf, type ParsedInputOf } from '../../../shared/ipc/contracts';
import type { AppSettings } from '../../../shared/ipc/schemas';
import { MessageQueries } from './messages';
import { Dashboard } from './dashboard';
import { Exporter } from './export';
import { backupsDir, createBackup, listBackups, restoreBackup, type BackupInfo } from './backup';
import { panelSend, preview } from '../messaging/compose';
import { listSegments } from './segments';
import { readAppSettings, writeAppSettings } from './app-settings';
import { EventHub } from './events';

/** What the process hosting the core (Electron main, or `serve`) contributes. */
export interface AppHost {
  mode: 'desktop' | 'web';
  /** Web mode: the URL a browser downloads an export file from. */
  exportUrl?(fileName: string): string;
  /** Web mode: the URL a browser downloads a backup of the backups folder from. */
  backupUrl?(fileName: string): string;
  /** The local HTTP API as the host runs it. */
  httpApi?: {
    /** Where it answers now, or null when off. */
    url(): string | null;
    /** False when it cannot be switched (web mode: the UI is served by the same server). */
    canToggle: boolean;
    /** Applies a changed address or on/off (desktop: restarts the server). */
    apply?(config: { enabled: boolean; host: string; port: number }): Promise<void>;
  };
  /** Desktop: the workspace folder chosen for the next start. */
  nextDataDir?: { get(): string | null; set(dir: string): void };
  /** Desktop: native file dialogs (null when the user cancels). */
  chooseFile?(
    purpose: 'backup-restore' | 'backup-save' | 'data-folder',
    defaultPath: string | undefined,
  ): Promise<string | null>;
  /** Desktop: show a file in the system's file manager. */
  reveal?(file: string): void;
  /** Where unexpected errors are reported (they reach the caller only as code 500). */
  log?(message: string, error: unknown): void;
}

type Handler<C extends Channel> = (
  input: ParsedInputOf<C>,
) => z.input<(typeof contracts)[C]['output']> | Promise<z.input<(typeof contracts)[C]['output']>>;
export type Handlers = { [C in Channel]: Handler<C> };

export interface AppServices {
  core: Core;
  host: AppHost;
  events: EventHub;
  messages: MessageQueries;
  dashboard: Dashboard;
  exporter: Exporter;
}

export function createAppServices(core: Core, host: AppHost): AppServices {
  const events = new EventHub(core);
  const messages = new MessageQueries(core.db);
  return {
    core,
    host,
    events,
    messages,
    dashboard: new Dashboard(core.db, core.clock),
    exporter: new Exporter(
      messages,
      path.join(core.dataDir, 'exports'),
      (progress) => events.emit('export:progress', progress),
      () => core.clock.now(),
    ),
  };
}

function appSettings(services: AppServices): AppSettings {
  const { core, host } = services;
  const stored = readAppSettings(core);
  return {
    language: stored.language,
    data_dir: core.dataDir,
    next_data_dir: host.nextDataDir?.get() ?? null,
    http_api: { ...stored.http_api, url: host.httpApi?.url() ?? null, can_toggle: host.httpApi?.canToggle ?? false },
    mode: host.mode,
  };
}

export function createHandlers(services: AppServices): Handlers {
  const { core, host } = services;
  // Only backups in the workspace's backups folder can be downloaded.
  const withBackupUrl = (backup: BackupInfo): BackupInfo & { url: string | null } => ({
    ...backup,
    url:
      host.backupUrl && path.dirname(backup.path) === backupsDir(core)
        ? host.backupUrl(path.basename(backup.path))
        : null,
  });
  return {
    'accounts:list': () => core.accounts.list(),
    'accounts:create': (input) =>
      core.db.transaction(() => {
        if (core.accounts.findByName(input.name)) throw new ServiceError(400, `an account named ${input.name} exists`);
        const account = core.accounts.create(input);
        if (input.credit_rials) core.credit.adjust(account.id, input.credit_rials, 'opening credit');
        return core.accounts.get(account.id);
      })(),
    'accounts:update': ({ id, ...changes }) => {
      if (changes.name) {
        const other = core.accounts.findByName(changes.name);
        if (other && other.id !== id) throw new ServiceError(400, `an account named ${changes.name} exists`);
      }
      return core.accounts.update(id, changes);
    },
    'apiKeys:list': ({ account_id }) => core.accounts.listApiKeys(account_id),
    'apiKeys:create': ({ account_id, label }) => core.accounts.createApiKey(account_id, label ?? ''),
    'apiKeys:revoke': ({ id }) => core.accounts.revokeApiKey(id),
    'lines:list': ({ account_id }) => core.accounts.listLines(account_id),
    'lines:upsert': ({ account_id, ...line }) => core.accounts.upsertLine(account_id, line),
    'lines:remove': ({ account_id, number }) => {
      if (!core.accounts.findLine(account_id, number)) throw new ServiceError(404, `line ${number}`);
      core.accounts.removeLine(account_id, number);
      return core.accounts.findLine(account_id, number)!;
    },
    'credit:balance': ({ account_id }) => ({ account_id, credit_rials: core.credit.balance(account_id) }),
    'credit:topUp': ({ account_id, amount_rials, note, kind }) => {
      if (kind === 'topup' && amount_rials < 0)
        throw new ServiceError(400, 'a top-up is positive; use kind adjust to correct');
      return { account_id, credit_rials: core.credit.adjust(account_id, amount_rials, note ?? '', kind) };
    },
    'credit:ledger': ({ account_id, limit, before_id }) => {
      core.accounts.get(account_id);
      const entries = core.credit.ledger(account_id, { limit, beforeId: before_id });
      return { entries, next_before_id: entries.length === limit ? entries[entries.length - 1]!.id : null };
    },
    'pricing:get': () => core.settings.pricing(),
    'pricing:set': (input) => core.settings.setPricing(input),
    'simulator:get': () => core.settings.simulator(),
    'simulator:set': (input) => core.settings.setSimulator(input),
    'compose:preview': (input) => preview(core, input),
    'messages:send': (input) => panelSend(core, input),
    'messages:list': (input) => services.messages.list(input),
    'messages:count': (input) => ({ count: services.messages.count(input) }),
    'messages:timeline': ({ message_id, account_id }) => services.messages.timeline(message_id, account_id),
    'messages:export': async ({ format, export_id, ...filter }) => {
      const result = await services.exporter.run(filter, format, export_id);
      const web = host.mode === 'web' && host.exportUrl;
      return {
        export_id: result.export_id,
        format,
        rows: result.rows,
        path: web ? null : result.path,
        url: web ? host.exportUrl!(result.file_name) : null,
        file_name: result.file_name,
      };
    },
    'dashboard:stats': (input) => services.dashboard.stats(input),
    'settings:get': () => appSettings(services),
    'settings:set': async (patch) => {
      const stored = readAppSettings(core);
      const httpApi = { ...stored.http_api, ...patch.http_api };
      const apiChanged = JSON.stringify(httpApi) !== JSON.stringify(stored.http_api);
      if (apiChanged) {
        if (!host.httpApi?.canToggle || !host.httpApi.apply)
          throw new ServiceError(400, 'the HTTP API address cannot be changed here (web mode shares its server)');
        await host.httpApi.apply(httpApi);
      }
      if (patch.data_dir !== undefined) {
        if (!host.nextDataDir) throw new ServiceError(400, 'the data folder is chosen at start (serve --data)');
        host.nextDataDir.set(path.resolve(patch.data_dir));
      }
      writeAppSettings(core, { language: patch.language ?? stored.language, http_api: httpApi });
      return appSettings(services);
    },
    'backup:create': async (input) => withBackupUrl(await createBackup(core, input?.path)),
    'backup:list': () => listBackups(core).map(withBackupUrl),
    'backup:restore': async ({ path: file }) => {
      const restored = await restoreBackup(core, file);
      return { ...restored, safety_backup: withBackupUrl(restored.safety_backup) };
    },
    'segments:list': ({ account_id }) => {
      core.accounts.get(account_id);
      return listSegments(core, account_id);
    },
    'files:choose': async ({ purpose, default_path }) => {
      if (!host.chooseFile) throw new ServiceError(501, 'file dialogs exist in the desktop app only');
      return { path: await host.chooseFile(purpose, default_path) };
    },
    'files:reveal': ({ path: file }) => {
      if (!host.reveal) throw new ServiceError(501, 'the file manager is reachable from the desktop app only');
      if (!fs.existsSync(file)) throw new ServiceError(404, file);
      host.reveal(path.resolve(file));
      return null;
    },
  };
}

/** Turns anything a handler threw into the error of a result. */
export function toIpcError(error: unknown, log?: AppHost['log']): IpcError {
  if (error instanceof ServiceError)
    return { code: error.code, message: apiCodeMessage[error.code], detail: error.detail };
  if (error instanceof z.ZodError)
    return { code: IpcErrorCode.InvalidInput, message: apiCodeMessage[400], detail: z.prettifyError(error) };
  if (
    error instanceof Error &&
    'code' in error &&
    typeof error.code === 'string' &&
    error.code.startsWith('SQLITE_CONSTRAINT')
  )
    return { code: IpcErrorCode.InvalidInput, message: apiCodeMessage[400], detail: error.message };
  log?.('ipc handler failed', error);
  return { code: IpcErrorCode.Internal, message: apiCodeMessage[500] };
}

export class IpcDispatcher {
  readonly handlers: Handlers;

  constructor(readonly services: AppServices) {
    this.handlers = createHandlers(services);
  }

  /** Answers one call. Never throws: every failure is an `{ok: false}` result. */
  async invoke(channel: unknown, input: unknown): Promise<IpcResult<unknown>> {
    if (!isChannel(channel))
      return {
        ok: false,
        error: { code: IpcErrorCode.UnknownChannel, message: `unknown channel ${String(channel).slice(0, 100)}` },
      };
    const contract = contracts[channel];
    const parsed = contract.input.safeParse(
      input === null && !contract.input.safeParse(null).success ? undefined : input,
    );
    if (!parsed.success)
      return {
        ok: false,
        error: { code: IpcErrorCode.InvalidInput, message: apiCodeMessage[400], detail: z.prettifyError(parsed.error) },
      };
    try {
      const handler = this.handlers[channel] as (input: unknown) => unknown;
      const value = await handler(parsed.data);
      const output = contract.output.safeParse(value);
      if (!output.success) {
        this.services.host.log?.(`ipc ${channel}: output does not match its contract`, output.error);
        return { ok: false, error: { code: IpcErrorCode.Internal, message: apiCodeMessage[500] } };
      }
      return { ok: true, value: output.data as OutputOf<typeof channel> };
    } catch (error) {
      return { ok: false, error: toIpcError(error, this.services.host.log) };
    }
  }

  close(): void {
    this.services.events.close();
  }
}

export function createDispatcher(core: Core, host: AppHost): IpcDispatcher {
  return new IpcDispatcher(createAppServices(core, host));
}

/**
 * Registers one handler per contract channel with a transport (ipcMain.handle, a route table):
 * exactly the contracts' channels, each going through the dispatcher.
 */
export function registerHandlers(
  register: (channel: Channel, handle: (input: unknown) => Promise<IpcResult<unknown>>) => void,
  dispatcher: IpcDispatcher,
): Channel[] {
  const channels = Object.keys(contracts) as Channel[];
  for (const channel of channels) register(channel, (input) => dispatcher.invoke(channel, input));
  return channels;
}
