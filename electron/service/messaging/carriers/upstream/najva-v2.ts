// The Najva v2 client: a provider speaking the spec's own v2 API (reference/sms-upstreams.md
// "Najva v2"): `POST {base}/v2/sms/send` (one text, `receivers`), `/v2/sms/send-p2p` (a text per
// receiver), `/v2/sms/status` (`messageids`), JSON with `Authorization: Bearer <key>`. It has no
// idempotency key and no search by our ids [NOT FOUND], so an answer lost on the way cannot be
// found again: the carrier holds such messages for the user's review instead of sending twice.
// Its credit: the v1-compatible `account/info` Najva also serves [C, S14], tried by the same key;
// where that read is closed, a status lookup checks the key (sending nothing).
import type {
  CallResult,
  Endpoint,
  FileUpload,
  OutgoingMessage,
  UpstreamClient,
  UpstreamRecord,
  UpstreamStatus,
} from './client';
import { call, entriesOf, numberOf, recordOf } from './wire';

type Entry = Record<string, unknown>;

export function najvaV2Client(endpoint: Endpoint): UpstreamClient {
  const post = async (path: string, body: unknown): Promise<CallResult<Entry[]>> => {
    const answer = entriesOf(
      await call(
        `${endpoint.baseUrl}${path}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${endpoint.apiKey}` },
          body: JSON.stringify(body),
        },
        endpoint.timeoutMs,
      ),
    );
    if (answer.kind !== 'ok') return answer;
    return Array.isArray(answer.value)
      ? { kind: 'ok', value: answer.value as Entry[] }
      : { kind: 'unknown', text: 'entries are not a list' };
  };

  return {
    async send(messages: readonly OutgoingMessage[]): Promise<CallResult<UpstreamRecord[]>> {
      const shared = messages.every((m) => m.text === messages[0]!.text);
      // One call carries one file (the carrier never mixes them): the provider's own id of it.
      const file = messages[0]!.upstreamFileId ? { file_id: messages[0]!.upstreamFileId } : {};
      const answer = shared
        ? await post('/v2/sms/send', {
            receivers: messages.map((m) => m.receptor),
            message: messages[0]!.text,
            sender: endpoint.sender,
            ...file,
          })
        : await post('/v2/sms/send-p2p', {
            messages: messages.map((m) => ({ receiver: m.receptor, message: m.text })),
            sender: endpoint.sender,
            ...file,
          });
      if (answer.kind !== 'ok') return answer;
      if (answer.value.length !== messages.length)
        return { kind: 'unknown', text: `${answer.value.length} entries for ${messages.length} messages` };
      return {
        kind: 'ok',
        value: answer.value.map((entry, i) => recordOf(messages[i]!.id, entry)),
      };
    },

    async uploadFile(file: FileUpload): Promise<CallResult<string>> {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(file.data)], { type: file.mime }), file.name);
      const answer = entriesOf(
        await call(
          `${endpoint.baseUrl}/upload-file/bale`,
          { method: 'POST', headers: { authorization: `Bearer ${endpoint.apiKey}` }, body: form },
          endpoint.timeoutMs,
        ),
      );
      if (answer.kind !== 'ok') return answer;
      // The documented `file_id`, and the `fild_id` a provider's own test fixture spells [3p].
      const entries = (answer.value ?? {}) as { file_id?: unknown; fild_id?: unknown };
      const id = entries.file_id ?? entries.fild_id;
      return typeof id === 'string' && id !== '' ? { kind: 'ok', value: id } : { kind: 'unknown', text: 'no file id' };
    },

    async status(upstreamIds: readonly string[]): Promise<CallResult<UpstreamStatus[]>> {
      const answer = await post('/v2/sms/status', { messageids: upstreamIds.map(Number) });
      if (answer.kind !== 'ok') return answer;
      return {
        kind: 'ok',
        value: answer.value.map((entry) => ({
          upstreamId: String(entry.messageid ?? ''),
          status: numberOf(entry.status) ?? 0,
        })),
      };
    },

    async info(): Promise<CallResult<{ creditRials: number | null }>> {
      const answer = entriesOf(
        await call(
          `${endpoint.baseUrl}/v1/${encodeURIComponent(endpoint.apiKey)}/account/info.json`,
          { method: 'GET' },
          endpoint.timeoutMs,
        ),
      );
      if (answer.kind === 'ok') {
        const entry = (Array.isArray(answer.value) ? answer.value[0] : answer.value) as Entry | undefined;
        return { kind: 'ok', value: { creditRials: numberOf(entry?.remaincredit) } };
      }
      // No v1 read for this key (no such endpoint, an IP allow-list): the key is checked by a v2
      // status lookup, which sends nothing; the credit stays unknown.
      const checked = await post('/v2/sms/status', { messageids: [1] });
      return checked.kind === 'ok' ? { kind: 'ok', value: { creditRials: null } } : checked;
    },
  };
}
