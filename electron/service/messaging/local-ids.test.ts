// Callers' local ids: recorded with the accepted messages in the acceptance's own transaction, one
// message per local id for good, looked up (split) before a send and read back as statuses.
import { describe, expect, it } from 'vitest';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { ServiceError } from '../errors';
import { testCores } from '../../../test/helpers/core';
import { MessageStatus } from '../../../shared/lifecycle';
import type { AcceptCommand } from './accept';

const cores = testCores();

function makeCore() {
  const clock = new ManualClock();
  const core = cores.open({ clock });
  const account = core.accounts.findByName('acme')!;
  const other = core.accounts.findByName('other')!;
  return { core, clock, account, other };
}

function codeOf(run: () => unknown): number | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof ServiceError) return error.code;
    throw error;
  }
}

function command(accountId: number, overrides: Partial<AcceptCommand> = {}): AcceptCommand {
  return {
    accountId,
    origin: 'api-v1',
    sender: '30001111',
    text: 'hello',
    receivers: ['09120000001', 'bad', '09120000002'],
    rule: 'strict',
    localIds: ['a', 'b', undefined],
    ...overrides,
  };
}

const localRows = (core: Core) =>
  core.db.prepare('SELECT account_id, local_id, message_id FROM local_ids ORDER BY local_id').all();

describe('local ids', () => {
  it('are recorded for the accepted receivers only, beside their messages', () => {
    const { core, account } = makeCore();
    const recorded = core.messaging.accept.accept(command(account.id));
    // 'b' belonged to an invalid receptor: no message, so nothing for it to name.
    expect(localRows(core)).toEqual([{ account_id: account.id, local_id: 'a', message_id: recorded.firstMessageId }]);
    const split = core.messaging.accept.localIds.split(account.id, ['a', 'b', undefined, 'c']);
    expect(split.fresh).toEqual([1, 2, 3]);
    expect(split.earlier[0]).toMatchObject({
      localId: 'a',
      id: recorded.firstMessageId,
      receptor: '09120000001',
      sender: '30001111',
      text: recorded.price.text,
      status: MessageStatus.Queued,
      cost_rials: recorded.price.costRials,
    });
    expect(split.earlier.slice(1)).toEqual([undefined, undefined, undefined]);
  });

  it('belong to their account: another account may use the same ones', () => {
    const { core, account, other } = makeCore();
    core.messaging.accept.accept(command(account.id));
    expect(core.messaging.accept.localIds.split(other.id, ['a']).fresh).toEqual([0]);
    core.messaging.accept.accept(command(other.id, { sender: '30009999' }));
    expect(localRows(core)).toHaveLength(2);
  });

  it('never name two messages: a used one, one repeated in a call, or a count that differs are 400, nothing recorded', () => {
    const { core, account } = makeCore();
    core.messaging.accept.accept(command(account.id));
    const balance = core.credit.balance(account.id);
    const messages = () => core.db.prepare('SELECT COUNT(*) AS n FROM messages').get();
    const before = messages();
    expect(codeOf(() => core.messaging.accept.accept(command(account.id, { localIds: ['a', 'z', undefined] })))).toBe(
      400,
    );
    expect(codeOf(() => core.messaging.accept.accept(command(account.id, { localIds: ['x', 'x', undefined] })))).toBe(
      400,
    );
    expect(codeOf(() => core.messaging.accept.localIds.split(account.id, ['x', 'x']))).toBe(400);
    expect(codeOf(() => core.messaging.accept.accept(command(account.id, { localIds: ['q'] })))).toBe(400);
    expect(codeOf(() => core.messaging.accept.localIds.split(account.id, ['x'.repeat(201)]))).toBe(400);
    expect(messages()).toEqual(before);
    expect(core.credit.balance(account.id)).toBe(balance);
    expect(localRows(core)).toHaveLength(1);
  });

  it('are not kept when the send is refused for credit (418)', () => {
    const { core, account } = makeCore();
    core.credit.adjust(account.id, -core.credit.balance(account.id) + 10, 'almost nothing', 'adjust');
    expect(codeOf(() => core.messaging.accept.accept(command(account.id)))).toBe(418);
    expect(localRows(core)).toEqual([]);
  });

  it('read back as statuses in the order asked, unknown and foreign ones as 100 with message id 0', () => {
    const { core, clock, account, other } = makeCore();
    const mine = core.messaging.accept.accept(command(account.id, { dueAt: clock.now() + 3_600_000 }));
    core.messaging.accept.accept(command(other.id, { sender: '30009999', localIds: ['theirs', undefined, undefined] }));
    expect(core.messaging.statusLookup.byLocalIds(account.id, ['nope', 'a', 'theirs'])).toEqual([
      { messageid: 0, localid: 'nope', status: 100, statustext: expect.any(String) },
      { messageid: mine.firstMessageId, localid: 'a', status: MessageStatus.Scheduled, statustext: expect.any(String) },
      { messageid: 0, localid: 'theirs', status: 100, statustext: expect.any(String) },
    ]);
  });
});
