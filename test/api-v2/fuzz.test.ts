// Property-based: thousands of random bodies thrown at POST /v2/sms/send and /v2/sms/status.
// Each answer must be the envelope with a known code, HTTP == return.status, entries [] on errors,
// and the code must be the one a small model of spec 4.1 / 4.2 predicts; the server still
// answers /health afterwards.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/service/clock';
import { HEALTH_MESSAGE } from '../../electron/service/http/routes/health';
import { apiCodeMessage, type ApiCode } from '../../shared/status';
import { post, startServer, testSeed, type TestServer } from '../helpers/server';
import { MESSAGE_INFO_FIELDS, request, uploadFile, type HttpResult } from './support';

// The receivers rule, written out from spec 4.1 rather than imported.
const RECEIVER = /^((\+?98)|0)?9[0-9]{9}$/;
const PHRASE = '\nلغو۱۱';
const LINES: Record<string, 'sms' | 'bale' | 'rubika'> = {
  '30001111': 'sms',
  bale_acme_bot: 'bale',
  rubika_acme: 'rubika',
};
const SEND_CODES = [200, 400, 411, 412, 414, 418];
const STATUS_CODES = [200, 400, 414];

let server: TestServer;
let baleFile: string;

beforeAll(async () => {
  const seed = testSeed();
  seed.accounts![0]!.credit_rials = 1_000_000_000_000;
  server = await startServer({ seed, clock: new ManualClock() });
  const upload = await uploadFile(server.url, 'bale');
  baleFile = upload.body.entries.file_id;
});
afterAll(() => server.close());

// ---- the model

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What fetch puts on the wire for a JS string: lone surrogates become U+FFFD. */
const wellFormed = (text: string) =>
  text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

/** The body as the server parses it, or a marker when it is not JSON at all. */
function asReceived(wire: string | undefined): { json: false } | { json: true; value: unknown } {
  if (wire === undefined) return { json: false };
  try {
    return { json: true, value: JSON.parse(wellFormed(wire)) };
  } catch {
    return { json: false };
  }
}

function expectedSendCode(body: unknown): ApiCode {
  if (!isRecord(body)) return 400;
  const { message, sender, receivers, file_id } = body;
  if (Array.isArray(receivers) && receivers.length > 10_000) return 414;
  if (typeof message !== 'string' || message.length === 0 || typeof sender !== 'string') return 400;
  if (!Array.isArray(receivers) || receivers.length === 0 || !receivers.every((r) => typeof r === 'string')) return 400;
  if (!(file_id === undefined || file_id === null || (typeof file_id === 'string' && file_id.length <= 100)))
    return 400;
  const provider = Object.hasOwn(LINES, sender) ? LINES[sender] : undefined;
  if (!provider) return 412;
  if (typeof file_id === 'string' && file_id !== '' && !(file_id === baleFile && provider === 'bale')) return 400;
  if (!receivers.some((r) => RECEIVER.test(r as string))) return 411;
  return 200;
}

function expectedStatusCode(body: unknown): ApiCode {
  if (!isRecord(body)) return 400;
  const ids = body['messageids'];
  // Not in the spec: our limit, as many ids as one send makes (README).
  if (Array.isArray(ids) && ids.length > 10_000) return 414;
  if (!Array.isArray(ids) || !ids.every((id) => Number.isSafeInteger(id))) return 400;
  return 200;
}

function checkEnvelope(result: HttpResult, known: number[], expected: ApiCode | undefined): void {
  expect(known, result.text.slice(0, 300)).toContain(result.status);
  expect(isRecord(result.body)).toBe(true);
  expect(Object.keys(result.body).sort()).toEqual(['entries', 'return']);
  expect(result.body.return).toEqual({ status: result.status, message: apiCodeMessage[result.status as ApiCode] });
  if (result.status !== 200) expect(result.body.entries).toEqual([]);
  else expect(Array.isArray(result.body.entries)).toBe(true);
  if (expected !== undefined) expect(result.status, result.text.slice(0, 300)).toBe(expected);
}

/** Every SMS-line text is UCS-2: 70 UTF-16 units for one page, else ceil(units / 67) (PRODUCT.md). */
function ucs2Pages(text: string): number {
  return text.length <= 70 ? 1 : Math.ceil(text.length / 67);
}

function checkSendEntries(body: Record<string, unknown>, entries: Array<Record<string, unknown>>): void {
  const receivers = body['receivers'] as string[];
  const message = wellFormed(body['message'] as string);
  const provider = LINES[body['sender'] as string]!;
  expect(entries).toHaveLength(receivers.length);
  const seen = new Set<string>();
  entries.forEach((entry, i) => {
    const raw = receivers[i]!;
    expect(Object.keys(entry).sort()).toEqual(MESSAGE_INFO_FIELDS);
    if (!RECEIVER.test(raw)) {
      expect(entry).toMatchObject({
        status: 0,
        messageid: 0,
        receptor: raw,
        message: '',
        sender: '',
        date: 0,
        cost: 0,
      });
      return;
    }
    const canonical = '0' + raw.slice(-10);
    if (seen.has(canonical)) {
      expect(entry).toMatchObject({
        status: 15,
        messageid: 0,
        receptor: canonical,
        message: '',
        sender: '',
        date: 0,
        cost: 0,
      });
      return;
    }
    seen.add(canonical);
    expect(entry).toMatchObject({ status: 1, receptor: canonical, sender: body['sender'] });
    expect(entry['messageid']).toBeGreaterThan(0);
    const text = entry['message'] as string;
    if (provider === 'sms') {
      expect(text.endsWith(PHRASE)).toBe(true);
      expect(entry['cost']).toBe(ucs2Pages(text) * 1500);
    } else {
      expect(text).toBe(message);
      expect(entry['cost']).toBe(500);
    }
  });
}

// ---- the arbitraries

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
const oddText = fc.string({
  unit: fc.oneof(
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    loneSurrogate,
    fc.constantFrom('\u0000', '\u200f', '\u202e', 'لغو', '۱۱', ' ', '\n', '😀'),
  ),
  maxLength: 40,
});
const anyText = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  oddText,
  fc.string({ unit: fc.constantFrom('س', '😀', 'a'), minLength: 60, maxLength: 90 }),
);

const phone = fc
  .tuple(fc.constantFrom('', '0', '98', '+98', '0098', '+', '9', '00'), fc.stringMatching(/^9[0-9]{7,10}$/))
  .map(([prefix, digits]) => prefix + digits);
const stringReceiver = fc.oneof(
  { weight: 4, arbitrary: phone },
  { weight: 1, arbitrary: fc.constantFrom('09121234567', '+989121234567', '9121234567', '۰۹۱۲۱۲۳۴۵۶۷', '') },
  { weight: 1, arbitrary: anyText },
);
const receiver = fc.oneof(
  { weight: 6, arbitrary: stringReceiver },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.constant(null), fc.boolean(), fc.constant([])) },
);
const receiverList = fc.array(stringReceiver, { minLength: 1, maxLength: 6 });
const receivers = fc.oneof(
  { weight: 16, arbitrary: fc.array(receiver, { maxLength: 6 }) },
  { weight: 2, arbitrary: fc.oneof(anyText, fc.integer(), fc.constant(null), fc.dictionary(fc.string(), phone)) },
  { weight: 1, arbitrary: fc.constantFrom(Array(10_001).fill('09121234567'), Array(10_001).fill(1)) },
);
const sender = fc.constantFrom('30001111', 'bale_acme_bot', 'rubika_acme', '30002222', '30009999');
const fileId = fc.oneof(
  fc.constant(null),
  fc.constant(''),
  fc.uuid(),
  fc.string({ maxLength: 120 }),
  fc.constant('x'.repeat(101)),
  fc.integer(),
  fc.constant('__bale_file__'),
);
// Mostly well-shaped requests (so the rules past validation are exercised), some with any field
// missing or of any type.
const sendBody = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record(
      {
        message: anyText.filter((text) => text.length > 0),
        sender,
        receivers: receiverList,
        file_id: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fileId }),
      },
      { requiredKeys: ['message', 'sender', 'receivers'] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        message: fc.oneof(
          { weight: 6, arbitrary: anyText },
          { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.constant(null), fc.array(fc.string())) },
        ),
        sender: fc.oneof({ weight: 6, arbitrary: sender }, { weight: 1, arbitrary: fc.oneof(anyText, fc.integer()) }),
        receivers,
        file_id: fileId,
      },
      { requiredKeys: [] },
    ),
  },
);
const messageId = fc.oneof(fc.integer({ min: -5, max: 300 }), fc.maxSafeInteger(), fc.integer());
const statusBody = fc.oneof(
  { weight: 3, arbitrary: fc.record({ messageids: fc.array(messageId, { maxLength: 12 }) }) },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        messageids: fc.oneof(
          {
            weight: 8,
            arbitrary: fc.array(fc.oneof(messageId, fc.double(), fc.string(), fc.constant(null), fc.constant(1e300)), {
              maxLength: 12,
            }),
          },
          { weight: 1, arbitrary: fc.integer({ min: 9_995, max: 10_005 }).map((n) => Array(n).fill(1)) },
          { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
        ),
      },
      { requiredKeys: [] },
    ),
  },
);
/** Bodies as text on the wire: JSON of the value, or raw text that may not be JSON at all. */
const wireOf = (value: unknown) => fc.constant(JSON.stringify(value));
const rawText = fc.oneof(
  fc.json(),
  anyText,
  fc.constantFrom('', '{', '[1,', 'null', '{"messageids":[1,]}', '{"message":"x",}'),
);

async function fire(path: string, wire: string | undefined): Promise<HttpResult> {
  // A body that is undefined (JSON.stringify of undefined) is sent as no body at all.
  return post(`${server.url}${path}`, wire ?? '');
}

describe('fuzzing the v2 endpoints', () => {
  it('POST /v2/sms/send answers every body as the model predicts, in the envelope', async () => {
    const substitute = (value: unknown): unknown =>
      isRecord(value) && value['file_id'] === '__bale_file__' ? { ...value, file_id: baleFile } : value;
    const body = fc.oneof(
      { weight: 5, arbitrary: sendBody.map(substitute).chain(wireOf) },
      { weight: 2, arbitrary: fc.anything({ maxDepth: 3, maxKeys: 6 }).chain(wireOf) },
      { weight: 1, arbitrary: rawText },
    );
    await fc.assert(
      fc.asyncProperty(body, async (wire) => {
        const received = asReceived(wire);
        const expected = received.json ? expectedSendCode(received.value) : 400;
        const result = await fire('/v2/sms/send', wire);
        checkEnvelope(result, SEND_CODES, expected);
        if (result.status === 200 && received.json)
          checkSendEntries(received.value as Record<string, unknown>, result.body.entries);
      }),
      { numRuns: 1500 },
    );
  });

  it('POST /v2/sms/status answers every body as the model predicts, in the envelope', async () => {
    const body = fc.oneof(
      { weight: 5, arbitrary: statusBody.chain(wireOf) },
      { weight: 2, arbitrary: fc.anything({ maxDepth: 3, maxKeys: 6 }).chain(wireOf) },
      { weight: 1, arbitrary: rawText },
    );
    await fc.assert(
      fc.asyncProperty(body, async (wire) => {
        const received = asReceived(wire);
        const expected = received.json ? expectedStatusCode(received.value) : 400;
        const result = await fire('/v2/sms/status', wire);
        checkEnvelope(result, STATUS_CODES, expected);
        if (result.status === 200 && received.json) {
          const ids = (received.value as { messageids: number[] }).messageids;
          expect(result.body.entries.map((e: { messageid: number }) => e.messageid)).toEqual(
            ids.map((id) => (Object.is(id, -0) ? 0 : id)),
          );
          for (const entry of result.body.entries) expect([1, 4, 10, 11, 13, 14, 100]).toContain(entry.status);
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('still answers /health afterwards', async () => {
    const health = await request(`${server.url}/health`);
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ message: HEALTH_MESSAGE });
  });
});
