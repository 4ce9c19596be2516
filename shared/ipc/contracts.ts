// Every IPC operation and push event of the app, in one registry merged from the domains' contract
// files (contracts/<domain>.ts). The preload's allowlist, main's handler registration, the web
// bridge's routes and the renderer's typed client are all derived from these two objects, so an
// operation exists everywhere or nowhere; the registry is typed to hold exactly channels.ts's names.
import { z } from 'zod';
import type { Contract, EventContract } from './contract';
import { accountsContracts } from './contracts/accounts';
import { creditContracts, creditEvents } from './contracts/credit';
import { settingsContracts } from './contracts/settings';
import { messagingContracts, messagingEvents } from './contracts/messaging';
import { dashboardContracts } from './contracts/dashboard';
import { backupContracts } from './contracts/backup';
import { contactsContracts, contactsEvents } from './contracts/contacts';
import { filesContracts } from './contracts/files';
import { campaignsContracts, campaignsEvents } from './contracts/campaigns';
import { templatesContracts } from './contracts/templates';
import { inboxContracts, inboxEvents } from './contracts/inbox';
import { emailContracts, emailEvents } from './contracts/email';
import { workspaceContracts } from './contracts/workspace';
import { gatewaysContracts, gatewaysEvents } from './contracts/gateways';
import { CHANNEL_NAMES, EVENT_NAMES as EVENT_NAME_LIST, type ChannelName, type EventNameOf } from './channels';

export const contracts = {
  ...accountsContracts,
  ...creditContracts,
  ...settingsContracts,
  ...messagingContracts,
  ...dashboardContracts,
  ...backupContracts,
  ...contactsContracts,
  ...filesContracts,
  ...campaignsContracts,
  ...templatesContracts,
  ...inboxContracts,
  ...emailContracts,
  ...workspaceContracts,
  ...gatewaysContracts,
} as const satisfies { [C in ChannelName]: Contract<C> };

export const events = {
  ...messagingEvents,
  ...creditEvents,
  ...contactsEvents,
  ...campaignsEvents,
  ...inboxEvents,
  ...emailEvents,
  ...gatewaysEvents,
} as const satisfies { [E in EventNameOf]: EventContract<E> };

export type Contracts = typeof contracts;
export type Channel = keyof Contracts;
export type Events = typeof events;
export type EventName = keyof Events;

export type InputOf<C extends Channel> = z.input<Contracts[C]['input']>;
/** The input after validation (defaults filled in): what handlers receive. */
export type ParsedInputOf<C extends Channel> = z.output<Contracts[C]['input']>;
export type OutputOf<C extends Channel> = z.output<Contracts[C]['output']>;
export type PayloadOf<E extends EventName> = z.output<Events[E]['payload']>;

export const CHANNELS: readonly Channel[] = CHANNEL_NAMES;
export const EVENT_NAMES: readonly EventName[] = EVENT_NAME_LIST;

export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(contracts, name);
}
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name);
}
