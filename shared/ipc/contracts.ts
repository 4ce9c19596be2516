// Every IPC operation and push event of the app, in one registry. The preload's allowlist, main's
// handler registration, the web bridge's routes and the renderer's typed client are all derived
// from these two objects, so an operation exists everywhere or nowhere.
import { z } from 'zod';
import type { Contract, EventContract } from './contract';
import { accountsContracts } from './contracts/accounts';
import { settingsContracts } from './contracts/settings';
import { messagingContracts, messagingEvents } from './contracts/messaging';
import { contactsContracts, contactsEvents } from './contracts/contacts';
import { workspaceContracts } from './contracts/workspace';
import { CHANNEL_NAMES, EVENT_NAMES as EVENT_NAME_LIST, type ChannelName, type EventNameOf } from './channels';

export const contracts = {
  ...accountsContracts,
  ...settingsContracts,
  ...messagingContracts,
  ...contactsContracts,
  ...workspaceContracts,
} as const satisfies { [C in ChannelName]: Contract<C> };

export const events = {
  ...messagingEvents,
  ...contactsEvents,
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
