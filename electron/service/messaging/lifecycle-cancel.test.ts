// Lifecycle.cancel (version 1's sms/cancel): the account's messages not handed to the carrier yet
// end 13 with their cost refunded exactly once; anything else is left as it is.
import { describe, expect, it } from 'vitest';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { testCores } from '../../../test/helpers/core';
import { MessageStatus } from '../../../shared/lifecycle';

const cores = testCores();

function makeCore() {
  const clock = new ManualClock();
  const core = cores.open({ clock });
  return { core, clock, account: core.accounts.findByName('acme')!, other: core.accounts.findByName('other')! };
}

const statusOf = (core: Core, id: number) =>
  (core.db.prepare('SELECT status FROM messages WHERE id = ?').get(id) as { status: number }).status;

describe('Lifecycle.cancel', () => {
  it('cancels scheduled and queued messages of the account once, refunding each once', () => {
    const { core, clock, account } = makeCore();
    const scheduled = core.messaging.accept.accept({
      accountId: account.id,
      origin: 'api-v1',
      sender: '30001111',
      text: 'later',
      receivers: ['09120000001', '09120000002'],
      rule: 'strict',
      dueAt: clock.now() + 3_600_000,
    });
    const queued = core.messaging.accept.accept({
      accountId: account.id,
      origin: 'api-v1',
      sender: '30001111',
      text: 'now',
      receivers: ['09120000003'],
      rule: 'strict',
    });
    const afterSends = core.credit.balance(account.id);
    const first = scheduled.firstMessageId;
    const ids = [first, first, queued.firstMessageId, 999_999];
    const changes = core.messaging.lifecycle.cancel(account.id, ids);
    expect(changes.map((change) => change.id)).toEqual([first, queued.firstMessageId]);
    expect(statusOf(core, first)).toBe(MessageStatus.Cancelled);
    expect(statusOf(core, first + 1)).toBe(MessageStatus.Scheduled);
    expect(core.credit.balance(account.id)).toBe(afterSends + scheduled.price.costRials + queued.price.costRials);
    // Again: nothing moves, nothing is refunded twice.
    expect(core.messaging.lifecycle.cancel(account.id, ids)).toEqual([]);
    expect(core.credit.balance(account.id)).toBe(afterSends + scheduled.price.costRials + queued.price.costRials);
    // The released due time finds a cancelled message and passes over it.
    clock.advance(3_600_001);
    while (core.messaging.lifecycle.step() !== null);
    expect(statusOf(core, first)).toBe(MessageStatus.Cancelled);
    expect(statusOf(core, first + 1)).not.toBe(MessageStatus.Scheduled);
  });

  it("leaves another account's messages and messages handed to the carrier as they are", () => {
    const { core, clock, account, other } = makeCore();
    const theirs = core.messaging.accept.accept({
      accountId: other.id,
      origin: 'api-v1',
      sender: '30009999',
      text: 'theirs',
      receivers: ['09120000001'],
      rule: 'strict',
      dueAt: clock.now() + 3_600_000,
    });
    const mine = core.messaging.accept.accept({
      accountId: account.id,
      origin: 'api-v1',
      sender: '30001111',
      text: 'mine',
      receivers: ['09120000002'],
      rule: 'strict',
    });
    clock.advance(60_000);
    while (core.messaging.lifecycle.step() !== null);
    expect(statusOf(core, mine.firstMessageId)).toBe(MessageStatus.HandedToCarrier);
    const balance = core.credit.balance(other.id);
    expect(core.messaging.lifecycle.cancel(account.id, [theirs.firstMessageId, mine.firstMessageId])).toEqual([]);
    expect(statusOf(core, theirs.firstMessageId)).toBe(MessageStatus.Scheduled);
    expect(statusOf(core, mine.firstMessageId)).toBe(MessageStatus.HandedToCarrier);
    expect(core.credit.balance(other.id)).toBe(balance);
  });
});
