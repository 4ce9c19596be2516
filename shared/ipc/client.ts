// The renderer's typed client over any transport: Electron's preload (`window.chapar`), the web
// bridge (web-transport.ts) or an in-memory fake for renderer tests. Channel names, inputs,
// outputs and event payloads are all checked by the compiler against the contracts.
import { IpcErrorCode, type IpcError, type IpcResult } from './contract';
import {
  isChannel,
  isEventName,
  type Channel,
  type EventName,
  type InputOf,
  type OutputOf,
  type PayloadOf,
} from './contracts';

/** What a transport must do; `window.chapar` in the desktop app has exactly this shape. */
export interface Transport {
  invoke(channel: string, input: unknown): Promise<IpcResult<unknown>>;
  /** Subscribes to a push event; returns the unsubscribe function. */
  on(event: string, listener: (payload: unknown) => void): () => void;
}

/** Thrown by `invoke` for a refused call; `call` returns the same as a value instead. */
export class IpcCallError extends Error implements IpcError {
  readonly code: number;
  readonly detail: string | undefined;
  readonly reason: string | undefined;
  readonly channel: string;

  constructor(channel: string, error: IpcError) {
    super(error.message);
    this.name = 'IpcCallError';
    this.code = error.code;
    this.detail = error.detail;
    this.reason = error.reason;
    this.channel = channel;
  }
}

/** Arguments of a call: the input may be left out when the contract takes none. */
export type InputArgs<C extends Channel> = undefined extends InputOf<C> ? [input?: InputOf<C>] : [input: InputOf<C>];

export interface Client {
  /** Calls an operation; resolves with its output, rejects with IpcCallError when refused. */
  invoke<C extends Channel>(channel: C, ...args: InputArgs<C>): Promise<OutputOf<C>>;
  /** The same, without throwing: the `{ok, value | error}` result itself. */
  call<C extends Channel>(channel: C, ...args: InputArgs<C>): Promise<IpcResult<OutputOf<C>>>;
  /** Subscribes to a push event; returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: PayloadOf<E>) => void): () => void;
}

export function createClient(transport: Transport): Client {
  const call = async <C extends Channel>(channel: C, input: unknown): Promise<IpcResult<OutputOf<C>>> => {
    if (!isChannel(channel)) {
      return { ok: false, error: { code: IpcErrorCode.UnknownChannel, message: `unknown channel ${String(channel)}` } };
    }
    try {
      return (await transport.invoke(channel, input)) as IpcResult<OutputOf<C>>;
    } catch (error) {
      // A transport failure (bridge unreachable, process gone) is a result too, not a crash.
      return {
        ok: false,
        error: { code: IpcErrorCode.Internal, message: error instanceof Error ? error.message : String(error) },
      };
    }
  };
  return {
    call: (channel, ...args) => call(channel, args[0]),
    async invoke(channel, ...args) {
      const result = await call(channel, args[0]);
      if (!result.ok) throw new IpcCallError(channel, result.error);
      return result.value;
    },
    on(event, listener) {
      if (!isEventName(event)) throw new Error(`unknown event ${String(event)}`);
      return transport.on(event, (payload) => listener(payload as PayloadOf<typeof event>));
    },
  };
}

/** Implementations of some operations, for a fake transport in renderer tests. */
export type FakeHandlers = {
  [C in Channel]?: (input: InputOf<C>) => OutputOf<C> | Promise<OutputOf<C>>;
};

/**
 * An in-memory transport for renderer tests: answers from `handlers` (501 for the rest) and lets
 * the test push events with `emit`.
 */
export function createFakeTransport(handlers: FakeHandlers = {}): Transport & {
  emit<E extends EventName>(event: E, payload: PayloadOf<E>): void;
  calls: Array<{ channel: string; input: unknown }>;
} {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const calls: Array<{ channel: string; input: unknown }> = [];
  return {
    calls,
    async invoke(channel, input) {
      calls.push({ channel, input });
      const handler = handlers[channel as Channel] as ((input: unknown) => unknown) | undefined;
      if (!handler)
        return { ok: false, error: { code: IpcErrorCode.NotImplemented, message: `no fake for ${channel}` } };
      try {
        return { ok: true, value: await handler(input) };
      } catch (error) {
        return { ok: false, error: toIpcError(error) };
      }
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
    emit(event, payload) {
      for (const listener of listeners.get(event) ?? []) listener(payload);
    },
  };
}

function toIpcError(error: unknown): IpcError {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'number' && 'message' in error)
    return {
      code: error.code,
      message: String(error.message),
      ...('detail' in error && typeof error.detail === 'string' ? { detail: error.detail } : {}),
      ...('reason' in error && typeof error.reason === 'string' ? { reason: error.reason } : {}),
    };
  return { code: IpcErrorCode.Internal, message: error instanceof Error ? error.message : String(error) };
}
