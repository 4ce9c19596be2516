// The inbox's paged read (Inbox.paged, API v1's sms/inboxpaged): receipt order with ties broken by
// id whatever order replies were recorded in, the window's bounds (inclusive start, exclusive end,
// at most two days: refused with the reason), and its statements walking the received index
// without a sort. The HTTP answer is test/api-v1/inboxpaged.test.ts's.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { ServiceError } from '../errors';
import { testCores } from '../../../test/helpers/core';
import { ApiCode } from '../../../shared/status';
import { INBOX_PAGE_RANGE_MS, INBOX_PAGE_SIZE, PAGED_COUNT_SQL, PAGED_SQL } from './inbox';

const START = Date.UTC(2026, 2, 1, 8);
const cores = testCores();

function open() {
  const core = cores.open({ clock: new ManualClock(START) });
  return { core, account: core.accounts.findByName('acme')!.id };
}

describe('Inbox.paged', () => {
  it('orders by receipt time, then id, and reads the window from its start up to (not at) its end', () => {
    const { core, account } = open();
    // Recorded newest first, three sharing one time: the order comes from the times, then the ids.
    const at = [START + 3000, START + 1000, START + 1000, START + 1000, START, START + INBOX_PAGE_RANGE_MS];
    const recorded = core.inbox.recordAll(
      at.map((receivedAt, i) => ({
        accountId: account,
        lineNumber: '30001111',
        sender: `0912000000${i}`,
        text: `r${i}`,
        receivedAt,
      })),
    );
    const ids = recorded.map((message) => message.id);
    const paged = core.inbox.paged(account, { lineNumber: '30001111', from: START, page: 1 });
    expect(paged.items.map((message) => message.id)).toEqual([ids[4], ids[1], ids[2], ids[3], ids[0]]);
    expect(paged).toMatchObject({ total: 5, page: 1, pages: 1, pageSize: INBOX_PAGE_SIZE });
    const later = core.inbox.paged(account, { lineNumber: '30001111', from: START + 1000, to: START + 3000, page: 1 });
    expect(later.items.map((message) => message.id)).toEqual([ids[1], ids[2], ids[3]]);
  });

  it('refuses a window wider than two days, or ending before it starts, saying why (400)', () => {
    const { core, account } = open();
    const refusal = (to: number) => {
      try {
        core.inbox.paged(account, { lineNumber: '30001111', from: START, to, page: 1 });
      } catch (error) {
        return error as ServiceError;
      }
      return null;
    };
    expect(refusal(START + INBOX_PAGE_RANGE_MS)).toBeNull();
    const wide = refusal(START + INBOX_PAGE_RANGE_MS + 1000);
    expect(wide).toBeInstanceOf(ServiceError);
    expect(wide!.code).toBe(ApiCode.BadRequest);
    expect(wide!.detail).toBe(
      'enddate is 172801 seconds after startdate; one read spans at most 172800 (2 days): read a longer period as several windows',
    );
    expect(refusal(START - 1000)).toMatchObject({ code: ApiCode.BadRequest, detail: 'enddate is before startdate' });
    expect(() => core.inbox.paged(account, { lineNumber: '30001111', from: START, page: 0 })).toThrow(
      /pagenumber counts from 1/,
    );
  });

  it('walks the received index in its order: no scan, no sort', () => {
    const { core } = open();
    const window = { account: 1, from: 0, to: 1, line: '30001111', read: null };
    for (const [sql, params] of [
      [PAGED_SQL, { ...window, limit: 200, offset: 0 }],
      [PAGED_COUNT_SQL, window],
    ] as const) {
      const plan = core.db
        .prepare<[object], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
        .all(params)
        .map((row) => row.detail)
        .join('\n');
      expect(plan).toContain('USING INDEX inbound_account_received (account_id=? AND received_at>? AND received_at<?)');
      expect(plan).not.toMatch(/TEMP B-TREE|^SCAN/m);
    }
  });
});
