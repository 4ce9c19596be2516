// The one dispatcher both transports use (Electron's ipcMain in main, the HTTP bridge in `serve`):
// it refuses unknown channels, validates the input with the contract's schema, runs the domain's
// handler (one file per contracts/<domain>.ts) and answers {ok: true, value} | {ok: false, error:
// {code, message}}, never a thrown error.
import path from 'node:path';
import { z } from 'zod';
import type { Core } from '../core';
import { ServiceError } from '../errors';
import { apiCodeMessage } from '../../../shared/status';
import { IpcErrorCode, type IpcError, type IpcResult } from '../../../shared/ipc/contract';
import { contracts, isChannel, type Channel, type OutputOf } from '../../../shared/ipc/contracts';
import { Exporter } from '../messaging/export';
import { EventHub } from './events';
import type { AppHost, AppServices, Handlers, HandlersFor } from './handler';
import { accountsHandlers } from './accounts';
import { gatewaysHandlers } from './gateways';
import { creditHandlers } from './credit';
import { settingsHandlers } from './settings';
import { messagingHandlers } from './messaging';
import { dashboardHandlers } from './dashboard';
import { backupHandlers } from './backup';
import { contactsHandlers } from './contacts';
import { filesHandlers } from './files';
import { campaignsHandlers } from './campaigns';
import { templatesHandlers } from './templates';
import { inboxHandlers } from './inbox';
import { emailHandlers } from './email';
import { workspaceHandlers } from './workspace';

// The handlers' types live in handler.ts, which the handler files import instead of this file.
export type { AppHost, AppServices, Handlers, HandlersFor };

export function createAppServices(core: Core, host: AppHost): AppServices {
  const events = new EventHub(core);
  return {
    core,
    host,
    events,
    exporter: new Exporter(
      core.messaging.queries,
      path.join(core.dataDir, 'exports'),
      (progress) => events.emit('export:progress', progress),
      () => core.clock.now(),
      core.writers.signal,
    ),
  };
}

/** Every contract's handler, one file per domain; a channel without one fails typecheck. */
export function createHandlers(services: AppServices): Handlers {
  return {
    ...accountsHandlers(services),
    ...gatewaysHandlers(services),
    ...creditHandlers(services),
    ...settingsHandlers(services),
    ...messagingHandlers(services),
    ...dashboardHandlers(services),
    ...backupHandlers(services),
    ...contactsHandlers(services),
    ...filesHandlers(services),
    ...campaignsHandlers(services),
    ...templatesHandlers(services),
    ...inboxHandlers(services),
    ...emailHandlers(services),
    ...workspaceHandlers(services),
  };
}

/** Turns anything a handler threw into the error of a result. */
export function toIpcError(error: unknown, log?: AppHost['log']): IpcError {
  if (error instanceof ServiceError)
    return {
      code: error.code,
      message: apiCodeMessage[error.code],
      detail: error.detail,
      ...(error.reason === undefined ? {} : { reason: error.reason }),
    };
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

  /**
   * Answers one call. Never throws: every failure is an `{ok: false}` result. `log` replaces the
   * host's for this call (the web bridge passes its request's logger, so the line has its id).
   */
  async invoke(channel: unknown, input: unknown, log = this.services.host.log): Promise<IpcResult<unknown>> {
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
      // Core.close() waits for every call in progress and refuses new ones (workspace/writers.ts).
      const value = await this.services.core.writers.run(() => handler(parsed.data));
      const output = contract.output.safeParse(value);
      if (!output.success) {
        log?.(`ipc ${channel}: output does not match its contract`, output.error);
        return { ok: false, error: { code: IpcErrorCode.Internal, message: apiCodeMessage[500] } };
      }
      return { ok: true, value: output.data as OutputOf<typeof channel> };
    } catch (error) {
      return { ok: false, error: toIpcError(error, log) };
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
