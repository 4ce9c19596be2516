import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { encodeMessageEntries } from './message-entries';
import { envelope } from './envelope';
import { ApiCode, MessageStatus, messageStatusText } from '../../../shared/status';
import type { MessageInfo } from '../../../shared/api';

/** What Fastify would have sent: JSON.stringify of the envelope, as UTF-8. */
const stringified = (entries: MessageInfo[]) => Buffer.from(JSON.stringify(envelope(ApiCode.Ok, entries)), 'utf8');

const accepted = (n: number, receptor: string, text = 'تخفیف ویژه\nلغو۱۱'): MessageInfo => ({
  messageid: 1_000 + n,
  message: text,
  status: MessageStatus.Queued,
  statustext: messageStatusText[MessageStatus.Queued],
  sender: '30001111',
  receptor,
  date: 1_790_000_000,
  cost: 1_500,
});

const oddString = fc.string({
  unit: fc.oneof(
    fc.constantFrom('"', '\\', '\n', '\u0000', '\u001f', '\u007f', '\u2028', 'ی', '۱', '😀', '\ud800', '\udc00'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 12,
});
const oddNumber = fc.oneof(
  fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  fc.double(),
  fc.constantFrom(-0, -1, 0.5, 1e21, Number.NaN, Number.POSITIVE_INFINITY),
);
const entry: fc.Arbitrary<MessageInfo> = fc.record({
  messageid: oddNumber,
  message: fc.oneof(fc.constant('shared text'), oddString),
  status: fc.constantFrom(0, 1, 15),
  statustext: fc.constantFrom(...Object.values(messageStatusText)),
  sender: fc.oneof(fc.constant('30001111'), oddString),
  receptor: fc.oneof(fc.constant('09121234567'), oddString),
  date: fc.oneof(fc.constant(1_790_000_000), oddNumber),
  cost: fc.oneof(fc.constant(1_500), oddNumber),
});

describe('the send answer encoder', () => {
  it('writes the bytes JSON.stringify + UTF-8 write, for a typical send with rejected entries among accepted ones', () => {
    const entries = [
      accepted(0, '09120000000'),
      {
        ...accepted(0, 'abc"\\'),
        messageid: 0,
        message: '',
        status: 0,
        statustext: messageStatusText[0],
        sender: '',
        date: 0,
        cost: 0,
      },
      accepted(1, '09120000001'),
      {
        ...accepted(1, '09120000001'),
        messageid: 0,
        message: '',
        status: 15,
        statustext: messageStatusText[15],
        sender: '',
        date: 0,
        cost: 0,
      },
      accepted(2, '09120000002', 'another text'),
    ];
    expect(encodeMessageEntries(entries).equals(stringified(entries))).toBe(true);
    expect(encodeMessageEntries([]).equals(stringified([]))).toBe(true);
  });

  it('writes the same bytes as JSON.stringify + UTF-8 for any entries (fast-check)', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 30 }), (entries) => {
        expect(encodeMessageEntries(entries).toString('hex')).toBe(stringified(entries).toString('hex'));
      }),
      { numRuns: 2_000 },
    );
  });

  it('keeps 10,000 entries byte for byte', () => {
    const entries = Array.from({ length: 10_000 }, (_, n) => accepted(n, '0912' + String(n).padStart(7, '0')));
    expect(encodeMessageEntries(entries).equals(stringified(entries))).toBe(true);
  });
});
