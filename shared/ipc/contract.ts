// The shape of an IPC contract (Dyad's pattern): a channel named `domain:verb` with zod schemas of
// its input and output, push events with their payload schema, and the result every call answers
// with. Pure TypeScript: the preload, main, the web bridge and the renderer all build on it.
import type { z } from 'zod';

export interface Contract<
  Channel extends string = string,
  Input extends z.ZodType = z.ZodType,
  Output extends z.ZodType = z.ZodType,
> {
  readonly channel: Channel;
  readonly input: Input;
  readonly output: Output;
}

export function defineContract<
  const Channel extends string,
  Input extends z.ZodType,
  Output extends z.ZodType,
>(contract: { channel: Channel; input: Input; output: Output }): Contract<Channel, Input, Output> {
  if (!/^[a-z][A-Za-z]*:[a-z][A-Za-z]*$/.test(contract.channel))
    throw new Error(`bad channel name ${contract.channel}`);
  return contract;
}

/** A push event from the core to the renderer (`webContents.send` / server-sent events). */
export interface EventContract<Event extends string = string, Payload extends z.ZodType = z.ZodType> {
  readonly event: Event;
  readonly payload: Payload;
}

export function defineEvent<const Event extends string, Payload extends z.ZodType>(contract: {
  event: Event;
  payload: Payload;
}): EventContract<Event, Payload> {
  if (!/^[a-z][A-Za-z]*:[a-z][a-z-]*$/.test(contract.event)) throw new Error(`bad event name ${contract.event}`);
  return contract;
}

/**
 * Error codes of a failed call. Refusals by the core carry the API code of spec 7 (400, 404, 411,
 * 412, 414, 418, ...); the transport adds its own few below.
 */
export const IpcErrorCode = {
  /** The input did not match the contract's schema. */
  InvalidInput: 400,
  /** The sender is not allowed (web bridge without the token, a foreign frame in Electron). */
  Unauthorized: 401,
  /** No contract has this channel. */
  UnknownChannel: 404,
  /** Anything unexpected; the message is generic, details go to the log. */
  Internal: 500,
  /** The operation exists in the contracts but this build or mode cannot do it. */
  NotImplemented: 501,
} as const;

export interface IpcError {
  /** An API code of spec 7 or one of IpcErrorCode. */
  code: number;
  /** Human-readable (Persian for the core's refusals, as the API answers). */
  message: string;
  /** Extra detail: which field failed, which id was not found. */
  detail?: string;
  /**
   * Why, as a key the UI translates (`errors.reasons.<reason>`): what the user did and what to do
   * about it, where the code alone would be misleading (a duplicate name is not "parameters
   * incomplete").
   */
  reason?: string;
}

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

export type ContractInput<C extends Contract> = z.input<C['input']>;
export type ContractOutput<C extends Contract> = z.output<C['output']>;
export type EventPayload<E extends EventContract> = z.output<E['payload']>;
