// The `sandbox` transport: the embedded provider (email/relay) called in process on the app's own
// account, with the same answers its HTTP API gives, so one reading of answers serves both.
import type { MessagesRequest, RelayAnswer, RelayConnection } from './relay-api';

/** The part of the embedded provider (email/relay/relay.ts) the app's sends call. */
export interface InProcessRelay {
  localAccountId(): string;
  send(accountId: string, body: unknown, options?: { idempotencyKey?: string }): RelayAnswer | Promise<RelayAnswer>;
  list(accountId: string, query: Record<string, string | undefined>): RelayAnswer | Promise<RelayAnswer>;
  get(accountId: string, messageId: string): RelayAnswer | Promise<RelayAnswer>;
  cancel(accountId: string, messageId: string): RelayAnswer | Promise<RelayAnswer>;
}

export function sandboxConnection(relay: InProcessRelay): RelayConnection {
  const account = () => relay.localAccountId();
  // Answered at once, as data; a turn of the event loop first, as a request would give.
  const answer = async (call: () => RelayAnswer | Promise<RelayAnswer>) => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    return call();
  };
  return {
    send: (body: MessagesRequest, idempotencyKey) => answer(() => relay.send(account(), body, { idempotencyKey })),
    list: (query) => answer(() => relay.list(account(), query)),
    get: (messageId) => answer(() => relay.get(account(), messageId)),
    cancel: (messageId) => answer(() => relay.cancel(account(), messageId)),
  };
}
