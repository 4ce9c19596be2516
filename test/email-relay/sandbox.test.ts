// The sandbox moves messages (nothing leaves the machine): each sandbox_result reaches its final
// status with its delivery attempts recorded, a scheduled message waits for its time, defer is
// retried (delivered before expires, failed after), cancel, and a restart resumes from SQLite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/server';
import { PROCESSING_DELAY_MS, DEFER_RETRY_MS } from '../../electron/service/email/relay/sandbox';
import { call, expectMessage, messagesUrl, sendBody, startEmailServer, START, type EmailServer } from './support';

let server: EmailServer;
beforeAll(async () => {
  server = await startEmailServer();
});
afterAll(() => server.close());

const send = async (extra: Record<string, unknown> = {}, count = 1) => {
  const answer = await call(messagesUrl(server), { body: sendBody(count, extra) });
  expect(answer.status, answer.text).toBe(202);
  return answer.body.data as Array<{ id: string; status: string }>;
};
const read = async (id: string) => (await call(`${messagesUrl(server)}/${id}`)).body;
const iso = (ms: number) => new Date(ms).toISOString();

describe('the sandbox', () => {
  it.each([
    ['deliver', 'delivered'],
    ['bounce', 'bounced'],
    ['fail', 'failed'],
    ['suppress', 'suppressed'],
  ])('sandbox_result %s: queued, processed at once, then %s a moment later', async (result, final) => {
    const [item] = await send({ sandbox: true, sandbox_result: result });
    const sentAt = server.clock.now();
    expect((await read(item!.id)).status).toBe('queued');
    await server.advance(0);
    const processed = await read(item!.id);
    expect(processed.status).toBe('processed');
    expect(processed.sent_at).toBe(iso(sentAt));
    await server.advance(PROCESSING_DELAY_MS);
    const done = await read(item!.id);
    expect(done.status).toBe(final);
    expect(done.num_attempts).toBe(1);
    expect(done.updated_at).toBe(iso(server.clock.now()));
    expect(done.delivered_at).toBe(final === 'delivered' ? iso(server.clock.now()) : null);
    expect(done.delivery_attempts.map((a: any) => a.status)).toEqual(['processed', final]);
    for (const attempt of done.delivery_attempts) expect(attempt.log).toEqual(expect.any(String));
    // Final: it never moves again.
    await server.advance(DEFER_RETRY_MS * 10);
    expect((await read(item!.id)).status).toBe(final);
  });

  it('delivers by default', async () => {
    const [item] = await send();
    await server.advance(0);
    await server.advance(PROCESSING_DELAY_MS);
    expect((await read(item!.id)).status).toBe('delivered');
  });

  it('defers, then delivers on the retry before it expires', async () => {
    const [item] = await send({ sandbox_result: 'defer' });
    await server.advance(0);
    await server.advance(PROCESSING_DELAY_MS);
    const deferred = await read(item!.id);
    expect(deferred.status).toBe('deferred');
    expect(deferred.num_attempts).toBe(1);
    expect(deferred.delivered_at).toBeNull();
    await server.advance(DEFER_RETRY_MS);
    const done = await read(item!.id);
    expect(done.status).toBe('delivered');
    expect(done.num_attempts).toBe(2);
    expect(done.delivery_attempts.map((a: any) => a.status)).toEqual(['processed', 'deferred', 'delivered']);
  });

  it('defers, then fails on the retry once it has expired', async () => {
    const expires = iso(server.clock.now() + 10_000);
    const [item] = await send({ sandbox_result: 'defer', schedule: { expires } });
    expect(item).toMatchObject({ schedule: { expires: expect.any(String) } });
    await server.advance(0);
    await server.advance(PROCESSING_DELAY_MS);
    expect((await read(item!.id)).status).toBe('deferred');
    await server.advance(DEFER_RETRY_MS);
    const done = await read(item!.id);
    expect(done.status).toBe('failed');
    expect(done.delivery_attempts.at(-1).log).toMatch(/expired/i);
  });

  it('keeps a message for a future first_attempt scheduled until its time, then processes it', async () => {
    const at = server.clock.now() + 60 * 60 * 1000;
    const [item] = await send({ schedule: { first_attempt: iso(at) } });
    expect(item!.status).toBe('scheduled');
    expect((item as any).schedule.first_attempt).toBe(iso(at));
    await server.advance(60 * 60 * 1000 - 1000);
    expect((await read(item!.id)).status).toBe('scheduled');
    await server.advance(1000);
    expect((await read(item!.id)).status).toBe('processed');
    await server.advance(PROCESSING_DELAY_MS);
    expect((await read(item!.id)).status).toBe('delivered');
  });

  it('takes a first_attempt in the past as now (queued)', async () => {
    const [item] = await send({ schedule: { first_attempt: iso(server.clock.now() - 60_000) } });
    expect(item!.status).toBe('queued');
    expect((item as any).schedule.first_attempt).toBe(iso(server.clock.now()));
  });
});

describe('cancel', () => {
  it('cancels a queued or scheduled message (200, the message), and never moves it again', async () => {
    const [queued] = await send();
    const cancelled = await call(`${messagesUrl(server)}/${queued!.id}/cancel`, { method: 'POST' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ object: 'message', id: queued!.id, status: 'cancelled' });
    expect(cancelled.body.delivery_attempts.map((a: any) => a.status)).toEqual(['cancelled']);
    const [scheduled] = await send({ schedule: { first_attempt: iso(server.clock.now() + 60_000) } });
    expect((await call(`${messagesUrl(server)}/${scheduled!.id}/cancel`, { method: 'POST' })).body.status).toBe(
      'cancelled',
    );
    await server.advance(120_000);
    expect((await read(queued!.id)).status).toBe('cancelled');
    expect((await read(scheduled!.id)).status).toBe('cancelled');
  });

  it('answers 409 for a message already being sent or final, 404 for an unknown one', async () => {
    const [item] = await send();
    await server.advance(0);
    expectMessage(await call(`${messagesUrl(server)}/${item!.id}/cancel`, { method: 'POST' }), 409, /is processed/);
    await server.advance(PROCESSING_DELAY_MS);
    expectMessage(await call(`${messagesUrl(server)}/${item!.id}/cancel`, { method: 'POST' }), 409, /is delivered/);
    const [again] = await send();
    await call(`${messagesUrl(server)}/${again!.id}/cancel`, { method: 'POST' });
    expectMessage(await call(`${messagesUrl(server)}/${again!.id}/cancel`, { method: 'POST' }), 409, /is cancelled/);
    expectMessage(
      await call(`${messagesUrl(server)}/00000000-0000-4000-8000-000000000000/cancel`, { method: 'POST' }),
      404,
    );
  });
});

describe('a restart', () => {
  it('resumes moving messages from where the database left them', async () => {
    const dataDir = tempDir();
    const first = await startEmailServer(dataDir);
    const answer = await call(messagesUrl(first), { body: sendBody(3, { sandbox_result: 'defer' }) });
    await first.advance(0);
    await first.advance(PROCESSING_DELAY_MS);
    const ids = answer.body.data.map((item: any) => item.id);
    const now = first.clock.now();
    await first.close();

    const { ManualClock } = await import('../../electron/service/clock');
    const second = await startEmailServer(dataDir, new ManualClock(now));
    try {
      for (const id of ids) expect((await call(`${messagesUrl(second)}/${id}`)).body.status).toBe('deferred');
      await second.advance(DEFER_RETRY_MS);
      for (const id of ids) expect((await call(`${messagesUrl(second)}/${id}`)).body.status).toBe('delivered');
    } finally {
      await second.close();
    }
  });
});
void START;
