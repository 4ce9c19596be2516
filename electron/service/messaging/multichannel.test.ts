// Several channels in one call (version 3): all accepted or none. A refusal of any channel (418 for
// the whole call's credit, 412, 400, 411) leaves nothing behind: no send, message, ledger row or due
// range, the balance as it was, and the next message ids free. What each channel records is what
// Accept records for that line alone.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Core } from '../core';
import { ServiceError } from '../errors';
import { testCores } from '../../../test/helpers/core';
import { Multichannel, type MultichannelCommand } from './multichannel';

const cores = testCores();

function makeCore() {
  const core = cores.open();
  const account = core.accounts.findByName('acme')!.id;
  const multichannel = new Multichannel(core.db, core.accounts, core.messaging.accept);
  return { core, account, multichannel };
}

/** Everything an acceptance writes, for one account and the lifecycle's queues. */
function footprint(core: Core, account: number) {
  const n = (sql: string, ...args: unknown[]) => (core.db.prepare(sql).get(...args) as { n: number }).n;
  return {
    sends: n('SELECT COUNT(*) AS n FROM sends WHERE account_id = ?', account),
    messages: n('SELECT COUNT(*) AS n FROM messages WHERE account_id = ?', account),
    ledger: n('SELECT COUNT(*) AS n FROM credit_ledger WHERE account_id = ?', account),
    due: n('SELECT COUNT(*) AS n FROM message_due'),
    simulatorDue: n('SELECT COUNT(*) AS n FROM simulator_due'),
    balance: core.credit.balance(account),
    nextId: n('SELECT COALESCE(MAX(id), 0) + 1 AS n FROM messages'),
  };
}

function code(run: () => unknown): number | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof ServiceError) return error.code;
    throw error;
  }
}

/** Sets the account's balance to exactly `rials`. */
function setBalance(core: Core, account: number, rials: number) {
  const delta = rials - core.credit.balance(account);
  if (delta !== 0) core.credit.adjust(account, delta, 'test', 'adjust');
}

const base = (account: number): MultichannelCommand => ({
  accountId: account,
  origin: 'api-v3',
  text: 'سلام',
  receivers: ['09121234567', '09121234568', '09121234569'],
  rule: 'strict',
  senders: { sms: '30001111', bale: 'bale_acme_bot' },
});

describe('multichannel acceptance', () => {
  it('records one send per channel in the order sms, bale, rubika, each as Accept records that line', () => {
    const { core, account, multichannel } = makeCore();
    const command = { ...base(account), senders: { rubika: 'rubika_acme', sms: '30001111', bale: 'bale_acme_bot' } };
    const quotes = (['30001111', 'bale_acme_bot', 'rubika_acme'] as const).map((sender) =>
      core.messaging.accept.quote({ ...command, sender }),
    );
    const accepted = multichannel.send(command);
    expect(accepted.map((each) => each.channel)).toEqual(['sms', 'bale', 'rubika']);
    accepted.forEach(({ recorded }, i) => {
      expect(recorded.line.provider).toBe(accepted[i]!.channel);
      expect(recorded.price).toEqual(quotes[i]!.price);
      expect(recorded.totalRials).toBe(quotes[i]!.totalRials);
    });
    // Consecutive ids across the channels: each send's after the one before.
    expect(accepted[1]!.recorded.firstMessageId).toBe(accepted[0]!.recorded.firstMessageId + 3);
    expect(accepted[2]!.recorded.firstMessageId).toBe(accepted[1]!.recorded.firstMessageId + 3);
    expect(footprint(core, account).due).toBe(3);
  });

  it('418 on the bale channel, when the credit covers SMS alone, undoes the SMS send: nothing left behind', () => {
    const { core, account, multichannel } = makeCore();
    const sms = core.messaging.accept.quote({ ...base(account), sender: '30001111' }).totalRials;
    const bale = core.messaging.accept.quote({ ...base(account), sender: 'bale_acme_bot' }).totalRials;
    setBalance(core, account, sms + bale - 1);
    const before = footprint(core, account);
    expect(code(() => multichannel.send(base(account)))).toBe(418);
    expect(footprint(core, account)).toEqual(before);
    // SMS alone is covered; then the exact total of both is accepted.
    expect(code(() => multichannel.send({ ...base(account), senders: { sms: '30001111' } }))).toBeNull();
    setBalance(core, account, sms + bale);
    expect(code(() => multichannel.send(base(account)))).toBeNull();
    expect(core.credit.balance(account)).toBe(0);
  });

  it.each<[string, Partial<MultichannelCommand>, number]>([
    [
      'an unknown rubika line after good ones',
      { senders: { sms: '30001111', bale: 'bale_acme_bot', rubika: 'x_bot' } },
      412,
    ],
    ['an SMS line under bale', { senders: { sms: '30001111', bale: '30001111' } }, 412],
    ['a bale line under rubika', { senders: { sms: '30001111', rubika: 'bale_acme_bot' } }, 412],
    ['an unknown file on bale', { files: { bale: '3f2504e0-4f89-41d3-9a0c-0305e82c3301' } }, 400],
    ['a file for a channel not sent on', { files: { rubika: '3f2504e0-4f89-41d3-9a0c-0305e82c3301' } }, 400],
    ['a file for sms', { files: { sms: 'x' } as MultichannelCommand['files'] }, 400],
    ['no channel', { senders: {} }, 400],
    ['no valid receiver', { receivers: ['bad'] }, 411],
  ])('%s: refused, nothing recorded', (_label, change, expected) => {
    const { core, account, multichannel } = makeCore();
    const before = footprint(core, account);
    expect(code(() => multichannel.send({ ...base(account), ...change }))).toBe(expected);
    expect(footprint(core, account)).toEqual(before);
  });

  it('a file rides on its messenger channel only', () => {
    const { core, account, multichannel } = makeCore();
    const data = Buffer.from([1, 2, 3]);
    const baleFile = core.files.save(account, 'bale', { name: 'a.png', mime: 'image/png', data }).id;
    const rubikaFile = core.files.save(account, 'rubika', { name: 'a.ogg', mime: 'audio/ogg', data }).id;
    const accepted = multichannel.send({
      ...base(account),
      senders: { sms: '30001111', bale: 'bale_acme_bot', rubika: 'rubika_acme' },
      files: { bale: baleFile, rubika: rubikaFile },
    });
    const fileOf = (sendId: number) =>
      core.db.prepare<[number], { file_id: string | null }>('SELECT file_id FROM sends WHERE id = ?').get(sendId)!
        .file_id;
    expect(accepted.map(({ recorded }) => fileOf(recorded.sendId))).toEqual([null, baleFile, rubikaFile]);
    // Swapped, each file is another provider's: 400, nothing recorded.
    const before = footprint(core, account);
    const swapped = { ...base(account), senders: { bale: 'bale_acme_bot', rubika: 'rubika_acme' } };
    expect(code(() => multichannel.send({ ...swapped, files: { bale: rubikaFile, rubika: baleFile } }))).toBe(400);
    expect(footprint(core, account)).toEqual(before);
  });

  it('inside a caller’s transaction it is a savepoint: the caller’s rollback undoes it too', () => {
    const { core, account, multichannel } = makeCore();
    const before = footprint(core, account);
    expect(() =>
      core.db.transaction(() => {
        multichannel.send(base(account));
        throw new Error('caller changed its mind');
      })(),
    ).toThrow('caller changed its mind');
    expect(footprint(core, account)).toEqual(before);
  });

  it('for any credit and any channels: all channels recorded and exactly their total debited, or none (418)', () => {
    const { core, account, multichannel } = makeCore();
    const lines = { sms: '30001111', bale: 'bale_acme_bot', rubika: 'rubika_acme' } as const;
    fc.assert(
      fc.property(
        fc.subarray(['sms', 'bale', 'rubika'] as const, { minLength: 1 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: -3000, max: 3000 }),
        fc.constantFrom('x', 'س'.repeat(100), 'hello laghv11'),
        (channels, count, slack, text) => {
          const senders = Object.fromEntries(channels.map((channel) => [channel, lines[channel]]));
          const command = {
            ...base(account),
            text,
            senders,
            receivers: Array.from({ length: count }, (_, i) => `0912000000${i}`),
          };
          const total = channels.reduce(
            (sum, channel) => sum + core.messaging.accept.quote({ ...command, sender: lines[channel] }).totalRials,
            0,
          );
          setBalance(core, account, Math.max(0, total + slack));
          const before = footprint(core, account);
          const refused = code(() => multichannel.send(command));
          const after = footprint(core, account);
          if (before.balance < total) {
            expect(refused).toBe(418);
            expect(after).toEqual(before);
          } else {
            expect(refused).toBeNull();
            expect(after.balance).toBe(before.balance - total);
            expect(after.messages).toBe(before.messages + count * channels.length);
            expect(after.sends).toBe(before.sends + channels.length);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
