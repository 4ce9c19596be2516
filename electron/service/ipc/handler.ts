// What the dispatcher and the handler files (one per contracts/<domain>.ts) share: the host's
// contributions, the services a handler is given and the handlers' types. A module of its own so
// the handler files do not import the dispatcher that imports them.
import type { z } from 'zod';
import type { Core } from '../core';
import type { contracts, Channel, ParsedInputOf } from '../../../shared/ipc/contracts';
import type { Exporter } from '../messaging/export';
import type { EventHub } from './events';
import type { AppSettingsHost } from '../settings/app-settings';

/** What the process hosting the core (Electron main, or `serve`) contributes. */
export interface AppHost extends AppSettingsHost {
  /** Web mode: the URL a browser downloads an export file from. */
  exportUrl?(fileName: string): string;
  /** Web mode: the URL a browser downloads a backup of the backups folder from. */
  backupUrl?(fileName: string): string;
  /** Desktop: native file dialogs (null when the user cancels). */
  chooseFile?(
    purpose: 'backup-restore' | 'backup-save' | 'data-folder' | 'spreadsheet',
    defaultPath: string | undefined,
  ): Promise<string | null>;
  /**
   * Web mode: the path of a spreadsheet the browser uploaded (POST /bridge/uploads), from the name
   * the upload answered; anything else is refused, so the window never names a server path.
   * Desktop: absent, and `file` is the path a dialog or a drop gave.
   */
  uploadedFile?(file: string): string;
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
  /** Exports report their progress as push events of this window's hub. */
  exporter: Exporter;
}

/** The handlers of one domain's contracts (`typeof xContracts` of contracts/<domain>.ts), for its handler file. */
export type HandlersFor<DomainContracts> = { [C in keyof DomainContracts & Channel]: Handler<C> };
