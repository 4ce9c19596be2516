// Who delivers a line's messages (a line's "gateway"): the simulator, or the business's own provider
// account over its API. This table is the one place the gateways, their defaults and their limits
// are written; the core's upstream carrier (electron/service/messaging/carriers/upstream/), the
// seed file, Settings → Lines and the confirmations all read it.
//
// Facts about the providers come from reference/sms-upstreams.md and kavenegar-v1.md, with the tag
// saying how sure each is: [C] confirmed, [3p] third-party code, [I] our inference.

import type { Provider } from './status';

export const GATEWAY_KINDS = [
  'simulator',
  'kavenegar-v1',
  'najva-v2',
  'smsir',
  'ippanel-edge',
  'bale-safir',
  'http-gateway',
] as const;
export type GatewayKind = (typeof GATEWAY_KINDS)[number];

/** Gateways that reach real phones (and cost real money at the provider). */
export type UpstreamKind = Exclude<GatewayKind, 'simulator'>;

export interface GatewayInfo {
  /** The provider's name as the confirmations say it ("through Kavenegar"). */
  label: { fa: string; en: string };
  /** The provider's own address, used when the line names none. */
  defaultBaseUrl: string | null;
  /** Messages per send call with one text [3p: v1 200 else 414; v2 10,000, we use 9,000]. */
  maxPerSend: number;
  /** Messages per call with a text each (v1 sendarray: no cap documented, 200 [I]; v2 send-p2p as send). */
  maxPerArray: number;
  /** Ids per status call [3p: v1 500; v2 1,000, we use 900]. */
  maxPerStatus: number;
  /** How long the provider answers a message's status [3p: v1 about 48 h]; after it, "status unknown". */
  statusWindowMs: number;
  /** How long a resend with the same local id is known to be recognised [3p: v1 12 h]; 0 = no local ids. */
  localIdWindowMs: number;
  /** Whether replies can be read from the provider (v1 sms/receive, sms/inboxpaged; v2: none in its API). */
  inbound: boolean;
  /**
   * Whether its delivery reports come by calling Chapar's own address back (http-gateway.ts): a
   * message handed over before the app knows its address would never be reported, so its lines
   * wait until the app's server listens.
   */
  reportsBack?: true;
  /** The kinds of line it can carry (v1: SMS only; v2: SMS and Bale [3p]; Rubika: none documented). */
  providers: readonly Provider[];
}

const HOUR = 3_600_000;

export const GATEWAYS: Readonly<Record<GatewayKind, GatewayInfo>> = {
  simulator: {
    label: { fa: 'شبیه‌ساز', en: 'the simulator' },
    defaultBaseUrl: null,
    maxPerSend: 0,
    maxPerArray: 0,
    maxPerStatus: 0,
    statusWindowMs: 0,
    localIdWindowMs: 0,
    inbound: false,
    providers: ['sms', 'bale', 'rubika'],
  },
  'kavenegar-v1': {
    label: { fa: 'کاوه‌نگار', en: 'Kavenegar' },
    defaultBaseUrl: 'https://api.kavenegar.com',
    maxPerSend: 200,
    maxPerArray: 200,
    maxPerStatus: 500,
    statusWindowMs: 48 * HOUR,
    localIdWindowMs: 12 * HOUR,
    inbound: true,
    providers: ['sms'],
  },
  'najva-v2': {
    label: { fa: 'نجوا', en: 'Najva' },
    defaultBaseUrl: 'https://sms.najva.com',
    maxPerSend: 9_000,
    maxPerArray: 9_000,
    maxPerStatus: 900,
    statusWindowMs: 48 * HOUR,
    localIdWindowMs: 0,
    inbound: false,
    providers: ['sms', 'bale'],
  },
  smsir: {
    label: { fa: 'SMS.ir', en: 'SMS.ir' },
    defaultBaseUrl: 'https://api.sms.ir',
    // No cap documented [NOT FOUND]: 100 until known [I].
    maxPerSend: 100,
    maxPerArray: 100,
    // Statuses are read a pack (one call's messages) at a time: a status call of 100 ids asks a few packs.
    maxPerStatus: 100,
    // How long a message's report is kept: not documented; the archive keeps older days [C], 48 h as Kavenegar [I].
    statusWindowMs: 48 * HOUR,
    // No idempotency key [C: none found]: a lost answer is looked for in the day's outbox instead.
    localIdWindowMs: 0,
    inbound: true,
    providers: ['sms'],
  },
  'ippanel-edge': {
    label: { fa: 'آی‌پی‌پنل', en: 'IPPanel Edge' },
    // The client adds the API's `/v1/api/...` paths [C: the docs' base is https://edge.ippanel.com/v1].
    defaultBaseUrl: 'https://edge.ippanel.com',
    // No cap documented [NOT FOUND]: 100 until known [I]; one text goes as one bulk (`webservice`),
    // own texts as one bulk each in one `peer_to_peer` call.
    maxPerSend: 100,
    maxPerArray: 100,
    // Statuses are read a bulk (one report of its recipients) at a time [C]: 100 ids are one bulk of
    // a shared text, or up to 100 bulks of own texts [I].
    maxPerStatus: 100,
    // How long the recipients' report answers: not documented [NOT FOUND]; 48 h as Kavenegar [I].
    statusWindowMs: 48 * HOUR,
    // No idempotency key [NOT FOUND]: a lost answer is looked for in the outbox report (new_list) instead.
    localIdWindowMs: 0,
    // Replies: the inbox report [C].
    inbound: true,
    providers: ['sms'],
  },
  'bale-safir': {
    label: { fa: 'سفیر بله', en: 'Bale Safir' },
    defaultBaseUrl: 'https://safir.bale.ai',
    // One request per receiver [3p]; a call carries 20 of them, 4 at a time [I].
    maxPerSend: 20,
    maxPerArray: 20,
    maxPerStatus: 100,
    // No status endpoint [3p]: a message Safir took keeps "handed over", its status unknown.
    statusWindowMs: 0,
    // Its request_id makes a repeat harmless [C] (UpstreamClient.idempotent), not a lookup window.
    localIdWindowMs: 0,
    inbound: false,
    providers: ['bale'],
  },
  'http-gateway': {
    label: { fa: 'دروازهٔ HTTP', en: 'an HTTP gateway' },
    // The line's address is the template of a send's URL (http-gateway.ts): there is no default.
    defaultBaseUrl: null,
    // One request per message; a call carries 50, 8 at a time [I: Kannel took 12 concurrent clients].
    maxPerSend: 50,
    maxPerArray: 50,
    maxPerStatus: 100,
    // Reports come by callback only; after two days without one, the status is unknown [I].
    statusWindowMs: 48 * HOUR,
    localIdWindowMs: 0,
    inbound: false,
    reportsBack: true,
    providers: ['sms'],
  },
};

/** What an HTTP gateway's address template may hold, each replaced by the message's value (URL-encoded). */
export const GATEWAY_TEMPLATE_FIELDS = ['to', 'from', 'text', 'key', 'report'] as const;

export function isUpstream(kind: GatewayKind): kind is UpstreamKind {
  return kind !== 'simulator';
}

/** Calls per second a line makes to its provider unless told otherwise. */
export const DEFAULT_RATE_PER_SECOND = 5;
/** The most a line may be set to: a local gateway or a provider's bulk contract takes hundreds. */
export const MAX_RATE_PER_SECOND = 1_000;

/**
 * What the provider's return codes mean for the messages of a call (reference/sms-upstreams.md
 * "retry later", "pause the line", "fail the message", 414): the class decides, never the text.
 */
export type UpstreamErrorClass = 'retry' | 'pause' | 'fail' | 'split';

const RETRY = new Set([409, 429, 451]);
const PAUSE = new Set([401, 403, 407, 416, 418, 501]);
const FAIL = new Set([400, 402, 406, 411, 412, 413, 417, 419, 420, 422, 424, 426, 427, 431, 432]);

/** The class of a provider's answer code (HTTP or return.status); 5xx retry. */
export function upstreamErrorClass(code: number): UpstreamErrorClass {
  if (code === 414) return 'split';
  if (PAUSE.has(code)) return 'pause';
  if (FAIL.has(code)) return 'fail';
  if (RETRY.has(code) || code >= 500) return 'retry';
  // Codes no source names (404 from a wrong base address, 405): nothing was sent; the line waits for the user.
  return 'pause';
}

/** Where a message stands with its provider (the carrier's own record, beside the message's status). */
export const HANDOVER_STATES = [
  /** Not sent to the provider yet (or sent back to wait after a retryable answer). */
  'waiting',
  /** In a call whose answer has not come: recorded before the call. */
  'handing_over',
  /** The provider took it: its id and cost stored; its status polled until final. */
  'accepted',
  /** The provider refused it, saying why (its code and text): the message ended 13, refunded. */
  'rejected',
  /** A call timed out or its connection dropped: neither sent nor failed until reconciled. */
  'unknown',
  /** Unknown and not reconcilable by the provider's API: the user decides (resend or mark failed). */
  'review',
  /** Final at the provider (its status reported here). */
  'final',
  /** The provider no longer reports its status (past its window): final for us, never "failed". */
  'expired',
] as const;
export type HandoverState = (typeof HANDOVER_STATES)[number];

/** Why a line stopped handing over, in the provider's words and code. */
export interface LinePause {
  code: number;
  text: string;
  at: number;
}

/**
 * How patient the upstream carrier is (Settings, the seed's `upstream_timing`): a call's timeout,
 * the backoff of retryable answers, the growing interval of status polls, how often the inbox is
 * read and how soon an unknown hand-over is reconciled. Tests shorten them.
 */
export interface UpstreamTiming {
  timeout_ms: number;
  retry_base_ms: number;
  retry_max_ms: number;
  poll_first_ms: number;
  poll_max_ms: number;
  inbox_ms: number;
  reconcile_ms: number;
  /** Calls in flight at once per line. */
  concurrency: number;
}

export const DEFAULT_UPSTREAM_TIMING: UpstreamTiming = {
  timeout_ms: 20_000,
  retry_base_ms: 2_000,
  retry_max_ms: 300_000,
  poll_first_ms: 10_000,
  poll_max_ms: 600_000,
  inbox_ms: 30_000,
  reconcile_ms: 30_000,
  concurrency: 2,
};
