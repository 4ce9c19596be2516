// The Kavenegar v1 client (reference/kavenegar-v1.md; also Najva's and Ghasedak's compatible
// endpoints): `{base}/v1/{key}/{scope}/{method}.json`, form bodies as the official SDKs post them.
// One text for every message of a call goes by sms/send (a comma list of receptors and of our ids as
// `localid`); own texts by sms/sendarray (JSON arrays, `localmessageids`). A local id per message
// lets an answer lost on the way be found again (sms/statuslocalmessageid) and a resend with the
// same id be recognised by the provider instead of sent twice [3p]. Replies are read page by page
// (sms/inboxpaged), which marks nothing read, so an answer lost on the way loses no reply.
import type {
  CallResult,
  Endpoint,
  FoundByLocalId,
  InboundItem,
  InboxPage,
  OutgoingMessage,
  UpstreamClient,
  UpstreamRecord,
  UpstreamStatus,
} from './client';
import { call, entriesOf, numberOf, recordOf } from './wire';

type Entry = Record<string, unknown>;

export function kavenegarV1Client(endpoint: Endpoint): UpstreamClient {
  const url = (method: string) => `${endpoint.baseUrl}/v1/${encodeURIComponent(endpoint.apiKey)}/${method}.json`;
  const post = async (method: string, form: Record<string, string>): Promise<CallResult<Entry[] | Entry>> => {
    const answer = entriesOf(
      await call(
        url(method),
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(form).toString(),
        },
        endpoint.timeoutMs,
      ),
    );
    if (answer.kind !== 'ok') return answer;
    const entries = answer.value;
    if (entries && typeof entries === 'object') return { kind: 'ok', value: entries as Entry[] | Entry };
    // An answer of success without its entries: the provider did something we cannot read.
    return { kind: 'unknown', text: 'an answer without entries' };
  };
  const list = (answer: CallResult<Entry[] | Entry>): CallResult<Entry[]> =>
    answer.kind !== 'ok'
      ? answer
      : Array.isArray(answer.value)
        ? { kind: 'ok', value: answer.value }
        : { kind: 'unknown', text: 'entries are not a list' };

  return {
    async send(messages: readonly OutgoingMessage[]): Promise<CallResult<UpstreamRecord[]>> {
      const shared = messages.every((m) => m.text === messages[0]!.text);
      const answer = list(
        shared
          ? await post('sms/send', {
              receptor: messages.map((m) => m.receptor).join(','),
              message: messages[0]!.text,
              sender: endpoint.sender,
              localid: messages.map((m) => String(m.localId)).join(','),
            })
          : await post('sms/sendarray', {
              receptor: JSON.stringify(messages.map((m) => m.receptor)),
              sender: JSON.stringify(messages.map(() => endpoint.sender)),
              message: JSON.stringify(messages.map((m) => m.text)),
              localmessageids: JSON.stringify(messages.map((m) => String(m.localId))),
            }),
      );
      if (answer.kind !== 'ok') return answer;
      if (answer.value.length !== messages.length)
        return { kind: 'unknown', text: `${answer.value.length} entries for ${messages.length} messages` };
      return { kind: 'ok', value: answer.value.map((entry, i) => recordOf(messages[i]!.id, entry)) };
    },

    async status(upstreamIds: readonly string[]): Promise<CallResult<UpstreamStatus[]>> {
      const answer = list(await post('sms/status', { messageid: upstreamIds.join(',') }));
      if (answer.kind !== 'ok') return answer;
      return {
        kind: 'ok',
        value: answer.value.map((entry) => ({
          upstreamId: String(entry.messageid ?? ''),
          status: numberOf(entry.status) ?? 0,
        })),
      };
    },

    async findByLocalIds(wanted: readonly { id: number; localId: number }[]): Promise<CallResult<FoundByLocalId[]>> {
      const answer = list(await post('sms/statuslocalmessageid', { localid: wanted.map((m) => m.localId).join(',') }));
      if (answer.kind !== 'ok') return answer;
      const byLocal = new Map(answer.value.map((entry) => [String(entry.localid ?? ''), entry]));
      return {
        kind: 'ok',
        value: wanted.map(({ id, localId }) => {
          const entry = byLocal.get(String(localId));
          const upstream = numberOf(entry?.messageid);
          return {
            id,
            upstreamId: upstream !== null && upstream > 0 ? String(upstream) : null,
            status: numberOf(entry?.status) ?? 100,
          };
        }),
      };
    },

    async costs(upstreamIds: readonly string[]) {
      // The full records, cost included [C]; it needs the caller's IP on the provider's allow-list
      // (407 otherwise [3p]), in which case the cost stays unknown.
      const answer = list(await post('sms/select', { messageid: upstreamIds.join(',') }));
      if (answer.kind !== 'ok') return answer;
      return {
        kind: 'ok' as const,
        value: answer.value.map((entry) => ({
          upstreamId: String(entry.messageid ?? ''),
          costRials: numberOf(entry.cost),
        })),
      };
    },

    async info(): Promise<CallResult<{ creditRials: number | null }>> {
      const answer = await post('account/info', {});
      if (answer.kind !== 'ok') return answer;
      const entry = Array.isArray(answer.value) ? answer.value[0] : answer.value;
      return { kind: 'ok', value: { creditRials: numberOf(entry?.remaincredit) } };
    },

    async inbox(from: number, to: number, page: number): Promise<CallResult<InboxPage>> {
      const form = {
        linenumber: endpoint.sender,
        startdate: String(Math.floor(from / 1000)),
        enddate: String(Math.ceil(to / 1000)),
        pagenumber: String(page),
      };
      const raw = await call(url('sms/inboxpaged'), formPost(form), endpoint.timeoutMs);
      const answer = entriesOf(raw);
      if (answer.kind === 'error' && answer.code === 404) {
        // A provider without the paged read: the unread ones, which that read marks read [3p];
        // they are recorded as soon as the answer is here (an answer lost on the way loses them).
        const unread = list(await post('sms/receive', { linenumber: endpoint.sender, isread: '0' }));
        if (unread.kind !== 'ok') return unread;
        return { kind: 'ok', value: { items: unread.value.map(inboundItem(endpoint.sender)), totalPages: 1 } };
      }
      if (answer.kind !== 'ok') return answer;
      if (!Array.isArray(answer.value)) return { kind: 'unknown', text: 'entries are not a list' };
      const body = raw.kind === 'ok' ? (raw.value.body as { metadata?: { totalPages?: unknown } }) : {};
      return {
        kind: 'ok',
        value: {
          items: (answer.value as Entry[]).map(inboundItem(endpoint.sender)),
          totalPages: numberOf(body.metadata?.totalPages) ?? 1,
        },
      };
    },
  };
}

const formPost = (form: Record<string, string>) => ({
  method: 'POST' as const,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(form).toString(),
});

const inboundItem =
  (line: string) =>
  (entry: Entry): InboundItem => ({
    upstreamId: String(entry.messageid ?? ''),
    sender: String(entry.sender ?? ''),
    receptor: String(entry.receptor ?? line),
    text: String(entry.message ?? ''),
    receivedAt: (numberOf(entry.date) ?? 0) * 1000,
  });
