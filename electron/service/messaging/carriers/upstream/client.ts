// What the upstream carrier asks of a provider, whatever its API: hand messages over, read their
// statuses, find messages by our own ids after an answer was lost (where the provider keeps them),
// read the account's credit, read replies. Each gateway kind (shared/gateways.ts) has one client
// mapping these onto its wire format (kavenegar-v1.ts, najva-v2.ts); the rules (what an answer
// means for the messages, retries, pauses, polling) are the carrier's, never a client's.

import type { HttpGatewayOptions } from '../../../../../shared/ipc/contracts/accounts';

/** How a call ended. */
export type CallResult<T> =
  /** The provider answered with success. */
  | { kind: 'ok'; value: T }
  /** The provider answered with an error: its code (return.status, else the HTTP status) and words. */
  | { kind: 'error'; code: number; text: string }
  /** Nothing reached the provider (refused connection, no such host): safe to send again. */
  | { kind: 'not-sent'; text: string }
  /** The request may have reached the provider but no answer came (timeout, dropped connection). */
  | { kind: 'unknown'; text: string };

export interface OutgoingMessage {
  /** Our message id. */
  id: number;
  /** Its id at the provider on our side (Kavenegar's `localid`), so a repeat is recognised there. */
  localId: number;
  receptor: string;
  text: string;
  /** The provider's id of the messenger file attached (uploaded first), or null. */
  upstreamFileId?: string | null;
}

/** A messenger file to copy to the provider. */
export interface FileUpload {
  name: string;
  mime: string;
  data: Buffer;
}

/** The provider's record of one message it took. */
export interface UpstreamRecord {
  /** Our message id. */
  id: number;
  /** The provider's id; null when it refused this message (status 0 / 15 entries). */
  upstreamId: string | null;
  /** The provider's status (Kavenegar's numbers: 1, 2, 4, 5 on their way; 6, 10, 11, 13, 14 final; 0, 15 refused). */
  status: number;
  /** What the provider charged, rials; null when it does not say. */
  costRials: number | null;
  /**
   * The provider did not take it, for a reason of the line's (the key, a limit, a failure of its
   * own), where a call is made of one request per message and some of them were answered so
   * (http-gateway.ts): it goes back as that answer's class says, the others of the call stand.
   */
  notTaken?: Exclude<CallResult<unknown>, { kind: 'ok' | 'unknown' }>;
}

export interface UpstreamStatus {
  upstreamId: string;
  status: number;
}

/** A message found by our id after a lost answer; null upstreamId = the provider does not know it. */
export interface FoundByLocalId {
  id: number;
  upstreamId: string | null;
  status: number;
}

/** What to look for in a provider's outbox: messages whose call's answer was lost. */
export interface SentQuery {
  messages: readonly { id: number; receptor: string; text: string }[];
  /** When the calls that may have carried them were made (unix ms). */
  from: number;
  to: number;
}

/** A message looked for in the outbox: found (its id there), not there, or not told apart. */
export interface FoundSent extends FoundByLocalId {
  /** The same receiver and text went out more than once in the time: which one is ours cannot be said. */
  ambiguous?: boolean;
}

export interface PushedReport {
  messageId: number;
  localId: number;
  /** Our status (Kavenegar's numbers) when final; null while the message is on its way. */
  status: number | null;
}

export interface InboundItem {
  upstreamId: string;
  /** The customer's number. */
  sender: string;
  /** Our line's number at the provider. */
  receptor: string;
  text: string;
  /** Unix ms. */
  receivedAt: number;
}

export interface InboxPage {
  items: InboundItem[];
  /** Pages in this range (1 when the provider does not page). */
  totalPages: number;
}

export interface UpstreamClient {
  /**
   * The provider recognises a repeated send by our id and sends nothing again (Safir's
   * `request_id`): an answer lost on the way is asked again instead of looked for.
   */
  readonly idempotent?: true;
  /**
   * Hands one call's messages over: receptors are distinct within a call, texts shared or own.
   * Records come back one per message, in order.
   */
  send(messages: readonly OutgoingMessage[]): Promise<CallResult<UpstreamRecord[]>>;
  status(upstreamIds: readonly string[]): Promise<CallResult<UpstreamStatus[]>>;
  /** Only where the provider keeps our ids (Kavenegar's statuslocalmessageid); else undefined. */
  readonly findByLocalIds?: (
    messages: readonly { id: number; localId: number }[],
  ) => Promise<CallResult<FoundByLocalId[]>>;
  /**
   * Where the provider keeps no ids of ours but lists what it sent (SMS.ir's outbox): our messages
   * found there by line, receiver, text and time; else undefined.
   */
  readonly findSent?: (query: SentQuery) => Promise<CallResult<FoundSent[]>>;
  /** What the provider charged for messages of its own ids (Kavenegar's sms/select); undefined where it cannot say. */
  readonly costs?: (
    upstreamIds: readonly string[],
  ) => Promise<CallResult<{ upstreamId: string; costRials: number | null }[]>>;
  /**
   * The account's credit at the provider (rials), null when it does not say; `providerCredit`, where
   * the provider says its credit in a unit of its own that is not rials (SMS.ir), is that number as said.
   */
  info(): Promise<CallResult<{ creditRials: number | null; providerCredit?: number }>>;
  /**
   * A report the provider pushed to the line's report address (its query, as the client wrote it
   * into the address): which message, and its status now (final, or null while on its way).
   */
  readonly reportOf?: (query: Readonly<Record<string, string>>) => PushedReport | null;
  /** Copies a Bale file to the provider; its id there. Undefined where the API carries no files. */
  readonly uploadFile?: (file: FileUpload) => Promise<CallResult<string>>;
  /** Replies received between two times (unix ms), one page (1-based); undefined when the provider has no inbox read. */
  readonly inbox?: (from: number, to: number, page: number) => Promise<CallResult<InboxPage>>;
}

export interface Endpoint {
  /** The provider's address; for an HTTP gateway, the template of a send's URL. */
  baseUrl: string;
  apiKey: string;
  /** The line's number at the provider. */
  sender: string;
  timeoutMs: number;
  /**
   * Where a gateway that reports by calling back (http-gateway.ts) sends the line's reports: the
   * app's own server, with the line's report token; null while the app has no address.
   */
  reportBase?: string | null;
  /** An HTTP gateway's method, body template and success pattern (http-gateway.ts). */
  http?: HttpGatewayOptions | null;
}
