// The message status lifecycle as data (spec 3.1): every status, its Persian text, whether a stored
// message can hold it, whether it is final, the moves a stored message may make from it and which
// of those give the cost back, its place in lists and the meaning of its colour. The service core
// (acceptance, the lifecycle's guarded moves, refunds, queries) and the renderer (labels, badges,
// filters, charts) all read this table; no status number is written anywhere else.

export const MessageStatus = {
  Invalid: 0,
  Queued: 1,
  Scheduled: 2,
  HandedToCarrier: 4,
  SendError: 6,
  Delivered: 10,
  Undelivered: 11,
  Cancelled: 13,
  Blocked: 14,
  Duplicate: 15,
  UnknownId: 100,
} as const;
export type MessageStatus = (typeof MessageStatus)[keyof typeof MessageStatus];
export type MessageStatusName = keyof typeof MessageStatus;

/** What a status means to the person looking at it; the renderer maps each tone to one colour. */
export type StatusTone =
  'waiting' | 'scheduled' | 'in-flight' | 'success' | 'problem' | 'refunded' | 'blocked' | 'rejected';

export interface StatusMove {
  to: MessageStatus;
  /** The message's cost goes back to the account when it makes this move (exactly once). */
  refund: boolean;
}

export interface StatusRule {
  name: MessageStatusName;
  /** statustext, verbatim from spec 3.1. */
  text: string;
  /** A stored message can hold it; the others (0, 15, 100) exist only in answers. */
  stored: boolean;
  /** Never changes again (spec 3.1 rule 1, the fuller list). */
  final: boolean;
  /** The moves a stored message may make from this status; nothing else moves it. */
  moves: readonly StatusMove[];
  /** Position in lists, filters and charts (ascending). */
  order: number;
  tone: StatusTone;
}

const move = (to: MessageStatus, refund = false): StatusMove => ({ to, refund });

export const LIFECYCLE: { readonly [S in MessageStatus]: StatusRule } = {
  0: {
    name: 'Invalid',
    text: 'دریافت کننده نامعتبر',
    stored: false,
    final: false,
    moves: [],
    order: 90,
    tone: 'rejected',
  },
  1: {
    name: 'Queued',
    text: 'در صف ارسال',
    stored: true,
    final: false,
    // Handed to the carrier, or blocked before it (an opted-out receiver: never sent, refunded).
    moves: [move(4), move(14, true), move(13, true)],
    order: 1,
    tone: 'waiting',
  },
  2: {
    name: 'Scheduled',
    text: 'زمانبندی شده',
    stored: true,
    final: false,
    // Released into the queue at its time, or cancelled before it (refunded).
    moves: [move(1), move(13, true)],
    order: 0,
    tone: 'scheduled',
  },
  4: {
    name: 'HandedToCarrier',
    text: 'ارسال شده به مخابرات',
    stored: true,
    final: false,
    // The carrier's report. A block reported by the carrier was sent, so it is not refunded.
    moves: [move(6), move(10), move(11), move(13, true), move(14)],
    order: 2,
    tone: 'in-flight',
  },
  6: {
    name: 'SendError',
    text: 'خطا در ارسال پیام به سرشماره مشخص شده',
    stored: true,
    final: false,
    moves: [move(10), move(11), move(13, true), move(14)],
    order: 3,
    tone: 'problem',
  },
  10: {
    name: 'Delivered',
    text: 'رسیده به گیرنده',
    stored: true,
    final: true,
    moves: [],
    order: 4,
    tone: 'success',
  },
  11: {
    name: 'Undelivered',
    text: 'مشکل در رسیدن پیام',
    stored: true,
    final: true,
    moves: [],
    order: 5,
    tone: 'problem',
  },
  13: {
    name: 'Cancelled',
    text: 'ارسال پیام از سمت کاربر لغو شده یا در ارسال آن مشکلی پیش آمده که هزینه آن به حساب برگشت داده میشود',
    stored: true,
    final: true,
    moves: [],
    order: 6,
    tone: 'refunded',
  },
  14: {
    name: 'Blocked',
    text: 'بلاک شده است',
    stored: true,
    final: true,
    moves: [],
    order: 7,
    tone: 'blocked',
  },
  15: {
    name: 'Duplicate',
    text: 'شماره تکراری',
    stored: false,
    final: false,
    moves: [],
    order: 91,
    tone: 'rejected',
  },
  100: {
    name: 'UnknownId',
    text: 'شناسه پیامک نامعتبر است',
    stored: false,
    final: false,
    moves: [],
    order: 92,
    tone: 'rejected',
  },
};

const byOrder = (a: MessageStatus, b: MessageStatus): number => LIFECYCLE[a].order - LIFECYCLE[b].order;

/** Every status, in display order. */
export const ALL_STATUSES: readonly MessageStatus[] = (Object.keys(LIFECYCLE).map(Number) as MessageStatus[]).sort(
  byOrder,
);
/** Statuses a stored message can have, in display order. */
export const STORED_STATUSES: readonly MessageStatus[] = ALL_STATUSES.filter((s) => LIFECYCLE[s].stored);
/** Statuses that never change again, in display order. */
export const FINAL_STATUSES: readonly MessageStatus[] = ALL_STATUSES.filter((s) => LIFECYCLE[s].final);
/** Stored statuses that still move on (the ones a client polls for). */
export const PENDING_STATUSES: readonly MessageStatus[] = STORED_STATUSES.filter((s) => !LIFECYCLE[s].final);
/** Statuses some move into refunds (13 always; 14 when blocked before the carrier). */
export const REFUNDING_STATUSES: readonly MessageStatus[] = ALL_STATUSES.filter((to) =>
  STORED_STATUSES.some((from) => LIFECYCLE[from].moves.some((m) => m.to === to && m.refund)),
);

/** statustext of each message status, verbatim from spec 3.1. */
export const messageStatusText = Object.fromEntries(ALL_STATUSES.map((s) => [s, LIFECYCLE[s].text])) as Record<
  MessageStatus,
  string
>;

export function isMessageStatus(value: number): value is MessageStatus {
  return Object.prototype.hasOwnProperty.call(LIFECYCLE, value);
}

export function isFinalStatus(status: number): boolean {
  return isMessageStatus(status) && LIFECYCLE[status].final;
}

/** The move from -> to, or null when the lifecycle does not allow it. */
export function moveOf(from: number, to: number): StatusMove | null {
  if (!isMessageStatus(from)) return null;
  return LIFECYCLE[from].moves.find((m) => m.to === to) ?? null;
}

// How far along the lifecycle each stored status is: the longest chain of moves that leads to it
// (the table is acyclic), so a message only ever moves to a status of a higher stage.
function longestChainTo(status: MessageStatus): number {
  let stage = 0;
  for (const from of STORED_STATUSES)
    if (LIFECYCLE[from].moves.some((m) => m.to === status)) stage = Math.max(stage, longestChainTo(from) + 1);
  return stage;
}
const STAGE = new Map<number, number>(STORED_STATUSES.map((s) => [s, longestChainTo(s)]));

/** How far along the lifecycle a status is (answers-only statuses count as furthest). */
export function stageOf(status: number): number {
  return STAGE.get(status) ?? Number.MAX_SAFE_INTEGER;
}

/** The further of two statuses of one message (pushes and reads may arrive out of order). */
export function furtherStatus(a: number, b: number): number {
  return stageOf(b) > stageOf(a) ? b : a;
}

/** A SQL list of statuses for `IN (...)`: the numbers come from this table, never typed in a query. */
export function sqlList(statuses: readonly MessageStatus[]): string {
  return statuses.map(Number).join(', ');
}

/** A status's text in English (the Persian one is LIFECYCLE[s].text), by name: a status added to the table fails typecheck here. */
const ENGLISH_TEXT: Record<MessageStatusName, string> = {
  Invalid: 'Invalid receiver',
  Queued: 'Queued',
  Scheduled: 'Scheduled',
  HandedToCarrier: 'With the carrier',
  SendError: 'Send error',
  Delivered: 'Delivered',
  Undelivered: 'Not delivered',
  Cancelled: 'Cancelled (refunded)',
  Blocked: 'Blocked',
  Duplicate: 'Duplicate number',
  UnknownId: 'Unknown message id',
};

/** A status's text in the UI's language (the app's labels, the reports' exports); '' for no status of the table. */
export function statusTextIn(status: number, language: 'fa' | 'en'): string {
  if (!isMessageStatus(status)) return '';
  return language === 'fa' ? LIFECYCLE[status].text : ENGLISH_TEXT[LIFECYCLE[status].name];
}
