// The IPPanel Edge client (reference/sms-upstreams.md "IPPanel Edge", from the Edge documentation):
// JSON with the key as `Authorization: <api key>`, no scheme [C]. Every call goes to `/v1/api/...`
// under the line's address [C: the documented base is https://edge.ippanel.com/v1]. One text for
// every message of a call goes as one bulk (`POST /v1/api/send`, `sending_type: "webservice"`,
// `params.recipients`), own texts as one bulk each in one `peer_to_peer` call (`params: [{recipients,
// message}]`) [C]; the answer is `data.message_outbox_ids`, one id per bulk [C], in the order of
// the bulks sent [I]. A message's id here is `bulkId:recipient` (E.164): a bulk's report lists its
// recipients, not ids of theirs [C].
//
// Statuses come from the report of a bulk's recipients, whose `message_status` is given once the
// bulk has finished [C]: 0 sent to the operator and 1 the operator took it (on their way), 2
// delivered, 3 not delivered, 4 blacklisted. A bulk that ends without being sent (its `state_id`
// in the outbox report: 3 rejected, 4 invalid recipients, 7 cancelled, 8 out of credit, 9 a system
// error [C]) never gets one: its messages end cancelled, refunded [I: nothing went out].
//
// IPPanel has no idempotency key [NOT FOUND]: an answer lost on the way is looked for in the outbox
// report (`POST /v1/api/report/new_list`, by line, time and text [C]) and the recipients of the
// bulks of our texts before anything is sent again (findSent). What a bulk cost is in that report
// (`cost`) [C]; its unit is NOT FOUND and taken as rials [I: calculate-price's example, 2,370 for a
// page, is an SMS's price in rials], and so is the credit (`GET /v1/api/payment/credit/mine`).
//
// Where the documentation is silent, the choices made (the local IPPanel, test/upstream/fakes/
// ippanel.ts, makes the same ones): the envelope `{data, meta: {status, message, message_code, ...}}`
// [C] with paging in `meta` (`current_page`, `last_page`) [C]; an answer about credit is the words
// of a 4xx [I]; the outbox and inbox reports list newest first [I: the inbox example's order].
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

/** A recipient's `message_status` [C] → the Kavenegar status of the same meaning. */
const STATUSES = new Map<number, number>([
  // Sent to the operator, taken by the operator: on its way.
  [0, MessageStatus.HandedToCarrier],
  [1, MessageStatus.HandedToCarrier],
  [2, MessageStatus.Delivered],
  [3, MessageStatus.Undelivered],
  // Blacklisted: the number refuses promotional texts (Kavenegar's 14, refunded).
  [4, MessageStatus.Blocked],
]);

/** A bulk's `state_id` once it has been sent [C: 6 "sent successfully"]. */
const SENT = 6;
/** States that end a bulk without sending it [C: new_list's notes]. */
const UNSENT = new Set([3, 4, 7, 8, 9]);

/** Rows per page of a report [I: per_page and limit default to 10 [C]; 100 is what the local IPPanel allows]. */
const PAGE_SIZE = 100;
/** Pages of a report read at most (100,000 rows): a longer outbox answers "cannot say" instead. */
const MAX_PAGES = 1_000;
/** A message found in the outbox was sent within this long of our call [I]. */
const SENT_WITHIN_MS = 10 * 60_000;
/** Bulks read at once (a status read of own texts is one report per message) [I: no limit documented]. */
const PARALLEL = 4;

const CREDIT_WORDS = /اعتبار|موجودی|credit|balance/i;
const TOO_MANY_WORDS = /بیش از حد مجاز|حداکثر|too many|maximum/i;

/**
 * IPPanel's envelope [C]: data and meta on a 2xx with `meta.status` true; else the answer's code.
 * HTTP 401 is the key [C]: the carrier's 403, which pauses the line. 429 and 5xx are tried again.
 * An answer about credit (402, or a 4xx whose words speak of it) pauses the line as Kavenegar's 418
 * does, until the credit is back [I: that answer is NOT FOUND]; one saying a call carried too many
 * recipients is the carrier's 414, which halves the calls [I: the cap is NOT FOUND]. Any other 422
 * is an invalid request [C] that fails the call's messages with IPPanel's words.
 */
export function ippanelData(answer: CallResult<Answer>): CallResult<{ data: unknown; meta: Item }> {
  if (answer.kind !== 'ok') return answer;
  const { httpStatus, body } = answer.value;
  const envelope = body && typeof body === 'object' ? (body as Item) : null;
  const meta = envelope?.meta && typeof envelope.meta === 'object' ? (envelope.meta as Item) : null;
  const text = typeof meta?.message === 'string' ? meta.message : typeof body === 'string' ? body.slice(0, 200) : '';
  if (httpStatus < 300 && meta?.status === true) return { kind: 'ok', value: { data: envelope!.data ?? null, meta } };
  const error = (code: number): CallResult<never> => ({ kind: 'error', code, text: text || `HTTP ${httpStatus}` });
  if (httpStatus === 401) return error(403);
  if (httpStatus === 429 || httpStatus >= 500) return error(httpStatus);
  if (httpStatus === 402 || (httpStatus >= 400 && CREDIT_WORDS.test(text))) return error(418);
  if (httpStatus === 413 || (httpStatus === 422 && TOO_MANY_WORDS.test(text))) return error(414);
  if (httpStatus >= 300) return error(httpStatus);
  // A 2xx without success: the provider did something we cannot read.
  return { kind: 'unknown', text: text || 'an answer without success' };
}

/**
 * The line's number at IPPanel, E.164 [C: `from_number` "+983000505"]: kept as digits (the panel's
 * "+98..." without the plus, or the number alone), so 98 is added where it is not there [I].
 */
export function ippanelLine(sender: string): string {
  const digits = sender.replace(/^\+/, '');
  return digits.startsWith('98') ? `+${digits}` : `+98${digits.replace(/^0/, '')}`;
}

/** 09XXXXXXXXX → +989XXXXXXXXX [C: recipients in E.164]. */
function e164(receptor: string): string {
  return receptor.startsWith('+') ? receptor : `+98${receptor.replace(/^(98|0)/, '')}`;
}

/** +989XXXXXXXXX → 09XXXXXXXXX, as the app keeps numbers. */
function local(number: unknown): string {
  return '0' + String(number ?? '').slice(-10);
}

function bulkOf(upstreamId: string): string {
  return upstreamId.slice(0, upstreamId.indexOf(':'));
}

function recipientOf(upstreamId: string): string {
  return upstreamId.slice(upstreamId.indexOf(':') + 1);
}

/** Runs `work` on each item, PARALLEL at a time, the results in order. */
async function eachAtOnce<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!);
      }
    }),
  );
  return results;
}

/** Ids grouped by their bulk, in the order first named. */
function byBulk(upstreamIds: readonly string[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const id of upstreamIds) {
    const bulk = bulkOf(id);
    const group = groups.get(bulk);
    if (group) group.push(id);
    else groups.set(bulk, [id]);
  }
  return groups;
}

export function ippanelEdgeClient(
  endpoint: Endpoint,
): UpstreamClient & Required<Pick<UpstreamClient, 'findSent' | 'inbox' | 'costs'>> {
  const line = ippanelLine(endpoint.sender);
  const request = async (
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<CallResult<{ data: unknown; meta: Item }>> =>
    ippanelData(
      await call(
        `${endpoint.baseUrl}/v1/api${path}`,
        {
          method,
          headers: {
            authorization: endpoint.apiKey,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        },
        endpoint.timeoutMs,
      ),
    );

  /** One page of a paged report: its rows and the last page [C: meta.last_page]. */
  const page = async (
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<CallResult<{ rows: Item[]; lastPage: number }>> => {
    const answer = await request(method, path, body);
    if (answer.kind !== 'ok') return answer;
    if (!Array.isArray(answer.value.data)) return { kind: 'unknown', text: 'data is not a list' };
    return {
      kind: 'ok',
      value: { rows: answer.value.data as Item[], lastPage: numberOf(answer.value.meta.last_page) ?? 1 },
    };
  };

  /** Every recipient of a bulk [C: /report/recipients by bulk_id, paged]. */
  const recipients = async (bulk: string): Promise<CallResult<Item[]>> => {
    const rows: Item[] = [];
    for (let number = 1, last = 1; number <= last; number++) {
      if (number > MAX_PAGES) return { kind: 'unknown', text: 'the bulk is longer than can be read' };
      const read = await page(
        'GET',
        `/report/recipients?bulk_id=${encodeURIComponent(bulk)}&page=${number}&per_page=${PAGE_SIZE}`,
      );
      if (read.kind !== 'ok') return read;
      rows.push(...read.value.rows);
      last = read.value.lastPage;
    }
    return { kind: 'ok', value: rows };
  };

  /** A bulk's row in the outbox report [C: /report/by_bulk]; null when IPPanel does not know it. */
  const bulkRow = async (bulk: string): Promise<CallResult<Item | null>> => {
    const answer = await request('GET', `/report/by_bulk?messages_outbox_id=${encodeURIComponent(bulk)}`);
    if (answer.kind !== 'ok') return answer;
    const data = answer.value.data;
    return { kind: 'ok', value: data && typeof data === 'object' ? (data as Item) : null };
  };

  /** A recipient row's status now, ours: null while its bulk has not finished (no status given). */
  const statusOf = (row: Item): number | null => {
    const status = numberOf(row.message_status);
    return status === null ? null : (STATUSES.get(status) ?? MessageStatus.HandedToCarrier);
  };

  return {
    async send(messages: readonly OutgoingMessage[]): Promise<CallResult<UpstreamRecord[]>> {
      const shared = messages.every((m) => m.text === messages[0]!.text);
      const numbers = messages.map((m) => e164(m.receptor));
      const answer = await request(
        'POST',
        '/send',
        shared
          ? {
              sending_type: 'webservice',
              from_number: line,
              message: messages[0]!.text,
              params: { recipients: numbers },
            }
          : {
              sending_type: 'peer_to_peer',
              from_number: line,
              params: messages.map((m, i) => ({ recipients: [numbers[i]], message: m.text })),
            },
      );
      if (answer.kind !== 'ok') return answer;
      const data = (answer.value.data ?? {}) as { message_outbox_ids?: unknown };
      const ids = Array.isArray(data.message_outbox_ids) ? data.message_outbox_ids : null;
      const bulks = shared ? 1 : messages.length;
      if (!ids || ids.length !== bulks || ids.some((id) => numberOf(id) === null))
        return { kind: 'unknown', text: `${ids?.length ?? 'no'} bulk ids for ${bulks} bulks` };
      // What it cost is not in the answer [C]: read with the statuses (costs).
      return {
        kind: 'ok',
        value: messages.map((m, i) => ({
          id: m.id,
          upstreamId: `${String(ids[shared ? 0 : i])}:${numbers[i]}`,
          status: MessageStatus.HandedToCarrier,
          costRials: null,
        })),
      };
    },

    async status(upstreamIds: readonly string[]): Promise<CallResult<UpstreamStatus[]>> {
      const groups = [...byBulk(upstreamIds)];
      const reads = await eachAtOnce(groups, async ([bulk, ids]): Promise<CallResult<UpstreamStatus[]>> => {
        const rows = await recipients(bulk);
        if (rows.kind !== 'ok') return rows;
        const now = new Map(rows.value.map((row) => [String(row.recipient), statusOf(row)]));
        const statuses: UpstreamStatus[] = [];
        const waiting: string[] = [];
        for (const id of ids) {
          const status = now.get(recipientOf(id));
          if (status === undefined || status === null) waiting.push(id);
          else statuses.push({ upstreamId: id, status });
        }
        if (waiting.length === 0) return { kind: 'ok', value: statuses };
        // Not finished: whether it ever will be, its state says.
        const row = await bulkRow(bulk);
        if (row.kind !== 'ok') return statuses.length > 0 ? { kind: 'ok', value: statuses } : row;
        const unsent = row.value !== null && UNSENT.has(numberOf(row.value.state_id) ?? -1);
        for (const id of waiting)
          statuses.push({ upstreamId: id, status: unsent ? MessageStatus.Cancelled : MessageStatus.HandedToCarrier });
        return { kind: 'ok', value: statuses };
      });
      const statuses = reads.flatMap((read) => (read.kind === 'ok' ? read.value : []));
      const failed = reads.find((read) => read.kind !== 'ok');
      return failed && statuses.length === 0 ? failed : { kind: 'ok', value: statuses };
    },

    async costs(upstreamIds: readonly string[]) {
      // A bulk's cost [C: by_bulk's `cost`], once it has been sent or has ended unsent (a bulk on
      // its way may not have been charged in full) [I]. Shared by its recipients evenly in whole
      // rials, the remainder to the first numbers in order, so a bulk's messages add up to it [I:
      // a recipient's own cost is NOT FOUND; the prices differ only between operators].
      const groups = [...byBulk(upstreamIds)];
      const reads = await eachAtOnce(
        groups,
        async ([bulk, ids]): Promise<CallResult<{ upstreamId: string; costRials: number | null }[]>> => {
          const unread = ids.map((upstreamId) => ({ upstreamId, costRials: null }));
          const row = await bulkRow(bulk);
          if (row.kind !== 'ok') return row;
          const state = numberOf(row.value?.state_id);
          const cost = numberOf(row.value?.cost);
          const count = numberOf(row.value?.rcpts_count) ?? 0;
          if (state === null || cost === null || count < 1 || (state !== SENT && !UNSENT.has(state)))
            return { kind: 'ok', value: unread };
          const total = Math.round(cost);
          const share = (rank: number) => Math.floor((total * (rank + 1)) / count) - Math.floor((total * rank) / count);
          if (total % count === 0)
            return { kind: 'ok', value: ids.map((upstreamId) => ({ upstreamId, costRials: share(0) })) };
          const all = await recipients(bulk);
          if (all.kind !== 'ok') return all;
          const ranks = new Map(
            all.value
              .map((r) => String(r.recipient))
              .sort()
              .map((recipient, rank) => [recipient, rank]),
          );
          return {
            kind: 'ok',
            value: ids.map((upstreamId) => {
              const rank = ranks.get(recipientOf(upstreamId));
              return { upstreamId, costRials: rank === undefined ? null : share(rank) };
            }),
          };
        },
      );
      const costs = reads.flatMap((read) => (read.kind === 'ok' ? read.value : []));
      const failed = reads.find((read) => read.kind !== 'ok');
      return failed && costs.length === 0 ? failed : { kind: 'ok', value: costs };
    },

    async findSent(query: SentQuery): Promise<CallResult<FoundSent[]>> {
      // The line's bulks made around the calls' time [C: new_list filters by sender number and
      // creation time, unix seconds], read to the last page whatever their order; with one text
      // only, filtered by it too [C: filters.message; how it matches is NOT FOUND, so every text
      // is compared whole here as well].
      const texts = new Set(query.messages.map((m) => m.text));
      const filters: Item = {
        number: line,
        create_from_date: String(Math.floor((query.from - SENT_WITHIN_MS) / 1000)),
        create_to_date: String(Math.ceil((query.to + SENT_WITHIN_MS) / 1000)),
      };
      if (texts.size === 1) filters.message = [...texts][0];
      const bulks = new Map<string, string>();
      for (let number = 1, last = 1; number <= last; number++) {
        if (number > MAX_PAGES) return { kind: 'unknown', text: 'the outbox is longer than can be read' };
        const read = await page('POST', '/report/new_list', { page: number, limit: PAGE_SIZE, filters });
        if (read.kind !== 'ok') return read;
        for (const row of read.value.rows) {
          const text = String(row.message ?? '');
          if (String(row.number ?? '') === line && texts.has(text)) bulks.set(String(row.messages_outbox_id), text);
        }
        last = read.value.lastPage;
      }
      // Who each bulk of one of our texts went to [C: the recipients' report].
      const lists = await eachAtOnce([...bulks], async ([bulk, text]) => ({
        bulk,
        text,
        rows: await recipients(bulk),
      }));
      const sent = new Map<string, { bulk: number; upstreamId: string; status: number }[]>();
      for (const { bulk, text, rows } of lists) {
        if (rows.kind !== 'ok') return rows;
        for (const row of rows.value) {
          const key = `${local(row.recipient)}\n${text}`;
          const found = {
            bulk: Number(bulk),
            upstreamId: `${bulk}:${String(row.recipient)}`,
            status: statusOf(row) ?? MessageStatus.HandedToCarrier,
          };
          sent.set(key, [...(sent.get(key) ?? []), found]);
        }
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
        const theirs = (sent.get(key) ?? []).sort((a, b) => a.bulk - b.bulk);
        mine.sort((a, b) => a.id - b.id);
        mine.forEach((m, i) => {
          if (theirs.length === 0) found.push({ id: m.id, upstreamId: null, status: 0 });
          else if (theirs.length !== mine.length)
            found.push({ id: m.id, upstreamId: null, status: 0, ambiguous: true });
          else found.push({ id: m.id, upstreamId: theirs[i]!.upstreamId, status: theirs[i]!.status });
        });
      }
      return { kind: 'ok', value: found };
    },

    async info(): Promise<CallResult<{ creditRials: number | null }>> {
      const answer = await request('GET', '/payment/credit/mine');
      if (answer.kind !== 'ok') return answer;
      // [C] data.credit, a number with a fraction; rials [I, as costs].
      const data = answer.value.data;
      const credit = numberOf(data && typeof data === 'object' ? (data as Item).credit : null);
      return { kind: 'ok', value: { creditRials: credit === null ? null : Math.floor(credit) } };
    },

    async inbox(from: number, to: number, number: number): Promise<CallResult<InboxPage>> {
      // The inbox report [C: POST messages-inbox, paged], newest first [I]: read page by page until
      // one reaches back past `from`. Its own cursor (filters.from_id [C]) is not needed: the
      // carrier reads by time and knows the replies it has seen. Replies of the account's other
      // numbers are left out.
      const read = await page('POST', '/report/messages-inbox', { page: number, per_page: PAGE_SIZE });
      if (read.kind !== 'ok') return read;
      const rows = read.value.rows;
      const times = rows.map((row) => (numberOf(row.time) ?? 0) * 1000);
      const oldest = times.length > 0 ? Math.min(...times) : -Infinity;
      return {
        kind: 'ok',
        value: {
          items: rows
            .filter((row, i) => String(row.number ?? '') === line && times[i]! >= from && times[i]! <= to)
            .map((row) => ({
              upstreamId: String(row.messages_inbox_id ?? ''),
              sender: local(row.from),
              receptor: String(row.number ?? '').replace(/^\+/, ''),
              text: String(row.message ?? ''),
              receivedAt: (numberOf(row.time) ?? 0) * 1000,
            })),
          totalPages: number < read.value.lastPage && oldest >= from ? number + 1 : number,
        },
      };
    },
  };
}
