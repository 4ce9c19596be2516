import { describe, expect, it } from 'vitest';
import { DEFER_RETRY_MS, PROCESSING_DELAY_MS, nextMove } from './sandbox';
import { RELAY_FINAL_STATUSES } from '../../../../shared/email';

const NOW = 1_000_000;
const due = (status: any, sandbox_result: any = 'deliver', expires = NOW + 1) => ({
  seq: 1,
  status,
  sandbox_result,
  expires,
});

describe('nextMove', () => {
  it('picks a queued or scheduled message up, the outcome a moment later', () => {
    for (const status of ['queued', 'scheduled'])
      expect(nextMove(due(status), NOW)).toMatchObject({
        status: 'processed',
        dueAt: NOW + PROCESSING_DELAY_MS,
        attempt: false,
      });
  });

  it('gives each sandbox_result its outcome', () => {
    expect(nextMove(due('processed', 'deliver'), NOW)).toMatchObject({
      status: 'delivered',
      dueAt: null,
      attempt: true,
    });
    expect(nextMove(due('processed', 'bounce'), NOW).status).toBe('bounced');
    expect(nextMove(due('processed', 'fail'), NOW).status).toBe('failed');
    expect(nextMove(due('processed', 'suppress'), NOW).status).toBe('suppressed');
    expect(nextMove(due('processed', 'defer'), NOW)).toMatchObject({ status: 'deferred', dueAt: NOW + DEFER_RETRY_MS });
  });

  it('delivers a deferred message before it expires, fails it after; fails any attempt after expiry', () => {
    expect(nextMove(due('deferred', 'defer', NOW + 1), NOW).status).toBe('delivered');
    expect(nextMove(due('deferred', 'defer', NOW - 1), NOW).status).toBe('failed');
    expect(nextMove(due('processed', 'deliver', NOW - 1), NOW).status).toBe('failed');
  });

  it('leaves final statuses as they are', () => {
    for (const status of RELAY_FINAL_STATUSES)
      expect(nextMove(due(status), NOW)).toMatchObject({ status, dueAt: null });
  });
});
