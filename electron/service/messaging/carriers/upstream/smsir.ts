// The SMS.ir client (reference/sms-upstreams.md "SMS.ir"): JSON over `X-API-KEY` [C]. One text for
// every message of a call goes by `POST /v1/send/bulk` (`mobiles`), own texts by
// `POST /v1/send/likeToLike` (`messageTexts` paired with `mobiles`) [C]; the answer's `packId` and
// `messageIds` [C] become each message's id here as `packId:messageId`, so a status read asks once
// per pack (`GET /v1/send/pack/{packId}`) instead of once per message. Its `deliveryState` [3p]
// is mapped onto the Kavenegar numbers the carrier speaks.
//
// SMS.ir has no idempotency key [C: none found]: an answer lost on the way is looked for in the
// day's outbox (`GET /v1/send/live`) by line, receiver, text and time (findSent) before anything
// is sent again. What it charges is a number whose unit is not documented [NOT FOUND], so costs
// are not mirrored, and neither is the credit (`GET /v1/credit` [C]) as rials: a positive credit
// is all a paused line needs to try again.
import { MessageStatus } from '../../../../../shared/lifecycle';
import type {
  CallResult,
  Endpoint,
  FoundSent,
  InboxPage,
  OutgoingMessage,
  SentQuery,
  UpstreamClient,
  UpstreamRecord,
  UpstreamStatus,
} from './client';
import { call, numberOf, type Answer } from './wire';

type Item = Record<string, unknown>;

/** deliveryState [3p] → the Kavenegar status of the same meaning. */
const STATES = new Map<number, number>([
  [1, MessageStatus.Delivered],
  [2, MessageStatus.Undelivered],
  // At the telecom / at the operator: on its way.
  [3, MessageStatus.HandedToCarrier],
  [5, MessageStatus.HandedToCarrier],
  [4, MessageStatus.SendError],
  [6, MessageStatus.SendError],
  // Blacklisted: the number refuses promotional texts (Kavenegar's 14, refunded).
  [7, MessageStatus.Blocked],
  // Unknown: not final; polled until the status window closes.
  [8, MessageStatus.Queued],
]);

/** Rows per page of a report read [I: the SDK takes any pageSize; 100 is what the fake allows]. */
const PAGE_SIZE = 100;
/** Pages of the day's outbox read at most when looking for lost messages (100,000 messages). */
const OUTBOX_PAGES = 1_000;
/** A message found in the outbox was sent within this long of our call [I]. */
const SENT_WITHIN_MS = 10 * 60_000;

/**
 * SMS.ir's envelope `{status: 1, message, data}` [C]: data on status 1 and a 2xx; else the answer's
 * code. HTTP 401 is the key [C]: the carrier's 403 (pause). A 400 is a logical error [C] whose codes
 * are not documented [NOT FOUND]; one about credit ("اعتبار") pauses the line as Kavenegar's 418
 * does [I], any other fails the call's messages.
 */
export function smsIrData(answer: CallResult<Answer>): CallResult<unknown> {
  if (answer.kind !== 'ok') return answer;
  const { httpStatus, body } = answer.value;
  const envelope =
    body && typeof body === 'object' ? (body as { status?: unknown; message?: unknown; data?: unknown }) : null;
  const text =
    typeof envelope?.message === 'string' ? envelope.message : typeof body === 'string' ? body.slice(0, 200) : '';
  if (httpStatus < 300 && envelope && numberOf(envelope.status) === 1)
    return { kind: 'ok', value: envelope.data ?? null };
  if (httpStatus === 401) return { kind: 'error', code: 403, text: text || 'HTTP 401' };
  if (httpStatus === 400 && /اعتبار|credit/i.test(text)) return { kind: 'error', code: 418, text };
  if (httpStatus >= 300) return { kind: 'error', code: httpStatus, text: text || `HTTP ${httpStatus}` };
  // A 2xx without success: the provider did something we cannot read.
  return { kind: 'unknown', text: text || 'an answer without success' };
}

/** When the day began in Tehran (UTC+03:30, no daylight saving since 2022): SMS.ir's "today" [I]. */
function startOfTehranDay(now: number): number {
  const offset = 3.5 * 3_600_000;
  return Math.floor((now + offset) / 86_400_000) * 86_400_000 - offset;
}

/** The pack of an id made at sending (`packId:messageId`); null for an id found in the outbox. */
function packOf(upstreamId: string): string | null {
  const cut = upstreamId.lastIndexOf(':');
  return cut < 0 ? null : upstreamId.slice(0, cut);
}

function messageIdOf(upstreamId: string): string {
  return upstreamId.slice(upstreamId.lastIndexOf(':') + 1);
}

export function smsIrClient(endpoint: Endpoint): UpstreamClient & Required<Pick<UpstreamClient, 'findSent' | 'inbox'>> {
  const request = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<CallResult<unknown>> =>
    smsIrData(
      await call(
        `${endpoint.baseUrl}${path}`,
        {
          method,
          headers: {
            'x-api-key': endpoint.apiKey,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        },
        endpoint.timeoutMs,
      ),
    );
  const list = async (path: string): Promise<CallResult<Item[]>> => {
    const answer = await request('GET', path);
    if (answer.kind !== 'ok') return answer;
    return Array.isArray(answer.value)
      ? { kind: 'ok', value: answer.value as Item[] }
      : { kind: 'unknown', text: 'data is not a list' };
  };
  const lineNumber = Number(endpoint.sender);

  return {
    async send(messages: readonly OutgoingMessage[]): Promise<CallResult<UpstreamRecord[]>> {
      const shared = messages.every((m) => m.text === messages[0]!.text);
      const mobiles = messages.map((m) => m.receptor);
      const answer = shared
        ? await request('POST', '/v1/send/bulk', { lineNumber, messageText: messages[0]!.text, mobiles })
        : await request('POST', '/v1/send/likeToLike', {
            lineNumber,
            messageTexts: messages.map((m) => m.text),
            mobiles,
          });
      if (answer.kind !== 'ok') return answer;
      const data = (answer.value ?? {}) as { packId?: unknown; messageIds?: unknown };
      const ids = Array.isArray(data.messageIds) ? data.messageIds : null;
      if (typeof data.packId !== 'string' || !ids || ids.length !== messages.length)
        return { kind: 'unknown', text: `${ids?.length ?? 'no'} message ids for ${messages.length} messages` };
      const packId = data.packId;
      // Ids come in the order of `mobiles` [C: one per mobile; the order: I].
      return {
        kind: 'ok',
        value: messages.map((m, i) => ({
          id: m.id,
          upstreamId: `${packId}:${String(ids[i])}`,
          status: MessageStatus.HandedToCarrier,
          costRials: null,
        })),
      };
    },

    async status(upstreamIds: readonly string[]): Promise<CallResult<UpstreamStatus[]>> {
      // Ids of a known pack are read a pack at a time; one found in the outbox (no pack) alone.
      const byPack = new Map<string, string[]>();
      for (const id of upstreamIds) {
        const pack = packOf(id) ?? id;
        byPack.set(pack, [...(byPack.get(pack) ?? []), id]);
      }
      const statuses: UpstreamStatus[] = [];
      for (const [pack, ids] of byPack) {
        let items: Item[];
        if (packOf(ids[0]!) === null) {
          const answer = await request('GET', `/v1/send/${encodeURIComponent(pack)}`);
          if (answer.kind !== 'ok') return statuses.length > 0 ? { kind: 'ok', value: statuses } : answer;
          items = answer.value && typeof answer.value === 'object' ? [answer.value as Item] : [];
        } else {
          const answer = await list(`/v1/send/pack/${encodeURIComponent(pack)}`);
          if (answer.kind !== 'ok') return statuses.length > 0 ? { kind: 'ok', value: statuses } : answer;
          items = answer.value;
        }
        const states = new Map(items.map((item) => [String(item.messageId), numberOf(item.deliveryState)]));
        for (const id of ids) {
          const state = states.get(messageIdOf(id));
          if (state !== undefined && state !== null)
            statuses.push({ upstreamId: id, status: STATES.get(state) ?? MessageStatus.Queued });
        }
      }
      return { kind: 'ok', value: statuses };
    },

    async findSent(query: SentQuery): Promise<CallResult<FoundSent[]>> {
      // The outbox of the day [C: /v1/send/live], and of the days before when the calls were made
      // before this day began in Tehran [C: /v1/send/archive by date; its days: I], read to the end.
      const from = query.from - SENT_WITHIN_MS;
      const to = query.to + SENT_WITHIN_MS;
      const paths = [`/v1/send/live?`];
      if (from < startOfTehranDay(Date.now()))
        paths.push(`/v1/send/archive?fromDate=${Math.floor(from / 1000)}&toDate=${Math.ceil(to / 1000)}&`);
      const sent = new Map<string, { messageId: string; status: number }[]>();
      const seenIds = new Set<string>();
      for (const path of paths) {
        let complete = false;
        // The order of the report is not documented [NOT FOUND]: once its times are seen to run one
        // way, the read stops at the first page past the calls' time; else it reads to the end.
        let order = 0;
        let last: number | null = null;
        for (let page = 1; page <= OUTBOX_PAGES && !complete; page++) {
          const answer = await list(`${path}pageNumber=${page}&pageSize=${PAGE_SIZE}`);
          if (answer.kind !== 'ok') return answer;
          complete = answer.value.length < PAGE_SIZE;
          for (const item of answer.value) {
            const sentAt = (numberOf(item.sendDateTime) ?? 0) * 1000;
            if (last !== null && sentAt !== last) order = order === 0 ? Math.sign(sentAt - last) : order;
            if (last !== null && order !== 0 && Math.sign(sentAt - last) === -order) order = NaN;
            last = sentAt;
            const messageId = String(item.messageId ?? '');
            if (numberOf(item.lineNumber) !== lineNumber || seenIds.has(messageId)) continue;
            if (sentAt < from || sentAt > to) continue;
            seenIds.add(messageId);
            const key = `${'0' + String(item.mobile ?? '').slice(-10)}\n${String(item.messageText ?? '')}`;
            const status = STATES.get(numberOf(item.deliveryState) ?? 8) ?? MessageStatus.Queued;
            sent.set(key, [...(sent.get(key) ?? []), { messageId, status }]);
          }
          if (last !== null && ((order === 1 && last > to) || (order === -1 && last < from))) complete = true;
        }
        if (!complete) return { kind: 'unknown', text: 'the outbox is longer than can be read' };
      }
      // Ours and theirs of the same receiver and text: as many on both sides, they pair up in order
      // (each went out once); none there, none went out; otherwise which went out cannot be said.
      const ours = new Map<string, SentQuery['messages'][number][]>();
      for (const m of query.messages) {
        const key = `${m.receptor}\n${m.text}`;
        ours.set(key, [...(ours.get(key) ?? []), m]);
      }
      const found: FoundSent[] = [];
      for (const [key, mine] of ours) {
        const theirs = (sent.get(key) ?? []).sort((a, b) => Number(a.messageId) - Number(b.messageId));
        mine.sort((a, b) => a.id - b.id);
        mine.forEach((m, i) => {
          if (theirs.length === 0) found.push({ id: m.id, upstreamId: null, status: 0 });
          else if (theirs.length !== mine.length)
            found.push({ id: m.id, upstreamId: null, status: 0, ambiguous: true });
          // The outbox names no pack [C: the live report's fields]: its status is read alone.
          else found.push({ id: m.id, upstreamId: theirs[i]!.messageId, status: theirs[i]!.status });
        });
      }
      return { kind: 'ok', value: found };
    },

    async info(): Promise<CallResult<{ creditRials: number | null; providerCredit?: number }>> {
      const answer = await request('GET', '/v1/credit');
      if (answer.kind !== 'ok') return answer;
      // [C] a number (the SDK's type; an object with `credit` in its doc comment): its unit is not
      // documented, so as rials only whether any is left is passed on; the number itself goes to
      // the connection test as SMS.ir says it.
      const credit = numberOf(
        answer.value && typeof answer.value === 'object' ? (answer.value as { credit?: unknown }).credit : answer.value,
      );
      const creditRials = credit !== null && credit <= 0 ? 0 : null;
      return { kind: 'ok', value: credit === null ? { creditRials } : { creditRials, providerCredit: credit } };
    },

    async inbox(from: number, to: number, page: number): Promise<CallResult<InboxPage>> {
      // The archive by date range [C: fromDate, toDate, pageNumber, pageSize; unix seconds: I].
      const answer = await list(
        `/v1/receive/archive?fromDate=${Math.floor(from / 1000)}&toDate=${Math.ceil(to / 1000)}` +
          `&pageNumber=${page}&pageSize=${PAGE_SIZE}`,
      );
      if (answer.kind !== 'ok') return answer;
      return {
        kind: 'ok',
        value: {
          items: answer.value.map((item) => {
            const receivedAt = (numberOf(item.receivedDateTime) ?? 0) * 1000;
            const sender = '0' + String(item.mobile ?? '').slice(-10);
            const text = String(item.messageText ?? '');
            return {
              // receiveReturnId where given [C]; else what makes the reply itself.
              upstreamId: String(item.receiveReturnId ?? `${sender}:${receivedAt}:${text}`),
              sender,
              receptor: String(item.number ?? ''),
              text,
              receivedAt,
            };
          }),
          // No page count in the answer: one more page while a page comes full.
          totalPages: answer.value.length < PAGE_SIZE ? page : page + 1,
        },
      };
    },
  };
}
