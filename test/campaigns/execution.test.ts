// Campaign executions over the real core, HTTP server and SQLite, with the scheduler's manual
// clock (no test sleeps for a send time): the audience arithmetic, personalization and short
// links (a recipient's text holds its own link; following it redirects with the UTM query and
// shows on that recipient), credit reserved and refunded, cancel, pause and resume, quiet hours and
// send rate, and report counts that add up.
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/service/clock';
import { KEY, startServer, testSeed, type TestServer } from '../helpers/server';
import { accountId, request } from '../api-v2/support';
import { MessageStatus } from '../../shared/lifecycle';

let server: TestServer;
let clock: ManualClock;

afterEach(async () => {
  await server?.close();
});

// 2026-11-27 is a Friday; 06:30 UTC is 10:00 in Tehran.
const FRIDAY_10 = '2026-11-27T10:00:00+03:30';
const FRIDAY_10_MS = Date.UTC(2026, 10, 27, 6, 30);

async function start(overrides: Parameters<typeof testSeed>[0] = {}) {
  clock = new ManualClock(Date.UTC(2026, 10, 23, 8, 0));
  server = await startServer({ clock, seed: testSeed(overrides) });
  return server;
}

const acme = () => accountId(server.core, 'acme');

/** A ready segment of `phones` (with optional columns), through the contacts upload. */
async function segment(phones: string[], columns: Record<string, (i: number) => string> = {}): Promise<number> {
  const contacts = phones.map((phone_number, i) => ({
    phone_number,
    ...Object.fromEntries(Object.entries(columns).map(([name, value]) => [name, value(i)])),
  }));
  const { segment_id } = server.core.uploads.create(acme(), contacts);
  await server.core.jobs.waitForIdle();
  expect(server.core.segments.get(acme(), segment_id).status).toBe('ready');
  return segment_id;
}

const range = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => '0912' + String(from + i).padStart(7, '0'));

async function create(fields: Record<string, string | string[]>) {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(fields))
    for (const one of Array.isArray(value) ? value : [value]) form.append(key, one);
  const result = await request(`${server.url}/v2/sms/campaigns`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  expect(result.status, result.text).toBe(201);
  return result.body.entries as { campaign_id: number; execution_id: number; execution_status: string };
}

const report = (id: number) => server.core.campaigns.report(acme(), id);

/** POST /v2/sms/campaigns/executions/{id}/{pause|resume|cancel}: the report it answers. */
async function control(id: number, action: 'pause' | 'resume' | 'cancel') {
  const result = await request(`${server.url}/v2/sms/campaigns/executions/${id}/${action}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}` },
  });
  expect(result.status, result.text).toBe(200);
  return result.body.entries as ReturnType<typeof report>;
}

/** Moves the clock in steps and lets every due job and lifecycle move run. */
async function runFor(ms: number, step = 1_000) {
  for (let t = 0; t < ms; t += step) {
    clock.advance(step);
    await settle();
  }
}
async function settle() {
  for (let i = 0; i < 5; i++) {
    await server.core.jobs.waitForIdle();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function expectCountsAddUp(r: ReturnType<typeof report>) {
  expect(r.audience).toBe(r.sent + r.skipped);
  expect(r.sent).toBe(r.delivered + r.failed + r.pending);
  const costs = server.core.campaigns
    .messages(acme(), r.execution_id, { size: 1000 })
    .reduce((sum, m) => sum + m.cost, 0);
  if (r.sent <= 1000) expect(r.cost).toBe(costs);
}

describe('campaign execution', () => {
  it('sends at its time to A ∪ B − C − opt-outs, personalized, each with its own short link', async () => {
    await start();
    const a = await segment(range(0, 60), { NAME: (i) => `Ali${i}` });
    const b = await segment(range(40, 40), { NAME: (i) => `Bahar${i}`, CITY: () => 'Tehran' });
    const c = await segment(range(70, 5));
    server.core.optouts.add(acme(), ['09120000001', '09120000075']);
    const created = await create({
      sender: '30001111',
      name: 'Friday sale',
      template_body: 'Hi {{NAME}} from {{city}}! Sale: https://shop.example/sale?x=1#top',
      send_datetime: FRIDAY_10,
      inclusion_segments: [String(a), String(b)],
      exclusion_segments: String(c),
      'links[0]actual_url': 'https://shop.example/sale?x=1#top',
      'links[0]has_utm': 'true',
      'utm.utm_source': 'newsletter',
    });
    expect(created.execution_status).toBe('SCHEDULED');
    // A ∪ B = 0..79 (80 numbers), minus C (70..74) = 75, minus the two opted out (1 in A, 75 in B) = 73.
    expect(report(created.execution_id).audience).toBe(73);
    await runFor(60_000, 10_000);
    expect(report(created.execution_id).execution_status).toBe('SCHEDULED');

    clock.advance(FRIDAY_10_MS - clock.now());
    await settle();
    await runFor(10_000);
    const r = report(created.execution_id);
    expect(r.execution_status).toBe('COMPLETED');
    expect(r.audience).toBe(73);
    expect(r.sent).toBe(73);
    expectCountsAddUp(r);

    const rows = server.core.campaigns.messages(acme(), created.execution_id, { size: 500 });
    expect(rows).toHaveLength(73);
    const receptors = rows.map((m) => m.receptor);
    expect(new Set(receptors).size).toBe(73);
    expect(receptors).not.toContain('09120000001');
    expect(receptors).not.toContain('09120000075');
    expect(receptors).not.toContain('09120000072');
    // A member of A and B takes A's fields (the first inclusion segment); B's CITY is missing there.
    const r50 = rows.find((m) => m.receptor === '09120000050')!;
    expect(r50.message).toMatch(/^Hi Ali50 from ! Sale: http:\/\/127\.0\.0\.1:\d+\/l\/[2-9A-HJ-NP-Za-km-z]{8}\nلغو۱۱$/);
    const r79 = rows.find((m) => m.receptor === '09120000079')!;
    expect(r79.message).toContain('Hi Bahar39 from Tehran!');
    const link = /(http:\/\/\S+\/l\/\S{8})/.exec(r79.message)![1]!;
    expect(rows.filter((m) => m.message.includes(link))).toHaveLength(1);

    const visit = await fetch(link, { redirect: 'manual', headers: { 'user-agent': 'test-phone' } });
    expect(visit.status).toBe(302);
    expect(visit.headers.get('location')).toBe(
      `https://shop.example/sale?x=1&utm_source=newsletter&utm_medium=sms&utm_campaign=${created.campaign_id}#top`,
    );
    const after = server.core.campaigns.messages(acme(), created.execution_id, { clicked: true });
    expect(after.map((m) => m.receptor)).toEqual(['09120000079']);
    expect(after[0]!.clicks).toBe(1);
    expect(report(created.execution_id).clicks).toBe(1);
    // Another code of the same alphabet (the last letter changed, never to itself) is unknown.
    const unknown = link.slice(0, -1) + (link.endsWith('x') ? 'y' : 'x');
    expect((await fetch(unknown, { redirect: 'manual' })).status).toBe(404);
  });

  it('reserves the credit first and fails with nothing recorded when it is short', async () => {
    await start();
    const a = await segment(range(0, 30));
    const id = acme();
    const balance = server.core.credit.balance(id);
    // Leave credit for 10 two-page... one-page messages only (1,500 rials each).
    server.core.credit.adjust(id, -(balance - 15_000), 'test', 'adjust');
    const created = await create({
      sender: '30001111',
      name: 'Too big',
      template_body: 'سلام',
      send_datetime: '2026-01-01T00:00:00Z',
      inclusion_segments: String(a),
    });
    await settle();
    const r = report(created.execution_id);
    expect(r.execution_status).toBe('FAILED');
    expect(r.error).toMatch(/credit/);
    expect(r.sent).toBe(0);
    expect(server.core.credit.balance(id)).toBe(15_000);
    expect(server.core.credit.held(id)).toBe(0);
  });

  it('cancel: messages not handed over end 13, refunded; the rest of the reservation is released', async () => {
    await start();
    const a = await segment(range(0, 50));
    const id = acme();
    const before = server.core.credit.balance(id);
    const created = await create({
      sender: '30001111',
      name: 'Slow',
      template_body: 'سلام',
      send_datetime: '2026-01-01T00:00:00Z',
      inclusion_segments: String(a),
      send_rate: '10',
    });
    await settle();
    await runFor(2 * 60_000 + 30_000, 5_000);
    const mid = report(created.execution_id);
    expect(mid.execution_status).toBe('RUNNING');
    expect(mid.sent).toBe(50);
    expect(mid.pending).toBeGreaterThan(0);
    // Minutes 0, 1 and 2 went out (30); minutes 3 and 4 (20) wait in 2.
    const waiting = server.core.campaigns
      .messages(id, created.execution_id, { status: [MessageStatus.Scheduled, MessageStatus.Queued] })
      .map((m) => m.messageid);
    expect(waiting).toHaveLength(20);
    const cancelled = await control(created.execution_id, 'cancel');
    expect(cancelled.execution_status).toBe('CANCELLED');
    await settle();
    const rows = server.core.campaigns.messages(id, created.execution_id, { size: 100 });
    expect(rows.filter((m) => waiting.includes(m.messageid)).every((m) => m.status === MessageStatus.Cancelled)).toBe(
      true,
    );
    expect(cancelled.skipped).toBe(0);
    // 1,500 rials a message (one UCS-2 page at 150 tomans); the 20 cancelled are refunded.
    await runFor(10_000);
    const final = report(created.execution_id);
    expectCountsAddUp(final);
    const refundedForThirteens = 20 * 1_500;
    expect(final.refunded).toBeGreaterThanOrEqual(refundedForThirteens);
    expect(server.core.credit.balance(id)).toBe(before - final.cost + final.refunded);
    expect(server.core.credit.held(id)).toBe(0);
    expect(server.core.credit.ledgerSum(id)).toBe(server.core.credit.balance(id));
  });

  it('pause holds messages not yet due in 2; resume sends them from then on at the same rate', async () => {
    await start();
    const a = await segment(range(0, 30));
    const created = await create({
      sender: '30001111',
      name: 'Paced',
      template_body: 'hello',
      send_datetime: '2026-01-01T00:00:00Z',
      inclusion_segments: String(a),
      send_rate: '10',
    });
    await settle();
    await runFor(10_000);
    let r = report(created.execution_id);
    expect(r.sent).toBe(30);
    // First minute's 10 went out; the next 20 wait in 2 for minutes 1 and 2.
    const scheduled = () =>
      server.core.campaigns
        .messages(acme(), created.execution_id, { status: [MessageStatus.Scheduled] })
        .map((m) => m.messageid);
    expect(scheduled()).toHaveLength(20);
    r = await control(created.execution_id, 'pause');
    expect(r.paused).toBe(true);
    await runFor(10 * 60_000, 30_000);
    expect(scheduled()).toHaveLength(20);
    r = await control(created.execution_id, 'resume');
    expect(r.paused).toBe(false);
    await runFor(10_000);
    expect(scheduled()).toHaveLength(10);
    await runFor(60_000, 5_000);
    expect(scheduled()).toHaveLength(0);
    await runFor(30_000, 5_000);
    r = report(created.execution_id);
    expect(r.execution_status).toBe('COMPLETED');
    expectCountsAddUp(r);
  });

  it('quiet hours: nothing goes out between 22:00 and 08:00 Tehran time; the estimate says when the last does', async () => {
    await start();
    const a = await segment(range(0, 25));
    // 23:00 Tehran = 19:30 UTC.
    const created = await create({
      sender: '30001111',
      name: 'Night',
      template_body: 'hello',
      send_datetime: '2026-11-23T23:00:00+03:30',
      inclusion_segments: String(a),
      send_rate: '10',
      quiet_hours: '22:00-08:00',
    });
    const before = report(created.execution_id);
    // 25 at 10 a minute from 08:00 Tehran (04:30 UTC next day): slots 08:00, 08:01, 08:02.
    expect(before.estimated_last_message_at).toBe('2026-11-24T04:32:00.000Z');
    clock.advance(Date.UTC(2026, 10, 23, 19, 30) - clock.now());
    await settle();
    await runFor(60_000, 10_000);
    let r = report(created.execution_id);
    expect(r.execution_status).toBe('RUNNING');
    expect(r.sent).toBe(25);
    expect(
      server.core.campaigns.messages(acme(), created.execution_id, { status: [MessageStatus.Scheduled] }),
    ).toHaveLength(25);
    clock.advance(Date.UTC(2026, 10, 24, 4, 30) - clock.now());
    await settle();
    await runFor(10_000);
    expect(
      server.core.campaigns.messages(acme(), created.execution_id, { status: [MessageStatus.Scheduled] }),
    ).toHaveLength(15);
    await runFor(3 * 60_000, 10_000);
    r = report(created.execution_id);
    expect(r.execution_status).toBe('COMPLETED');
    expect(r.estimated_last_message_at).toBe('2026-11-24T04:32:00.000Z');
    expectCountsAddUp(r);
  });

  it('writes short links under the configured public base, which forwards to this server', async () => {
    await start();
    const a = await segment(range(0, 3));
    server.core.campaigns.setShortLinkBase('https://go.shop.ir/');
    const created = await create({
      sender: '30001111',
      name: 'Base',
      template_body: 'See https://shop.example/x',
      send_datetime: '2026-01-01T00:00:00Z',
      inclusion_segments: String(a),
      'links[0]actual_url': 'https://shop.example/x',
    });
    await settle();
    const [first] = server.core.campaigns.messages(acme(), created.execution_id, { size: 1 });
    const code = /^See https:\/\/go\.shop\.ir\/l\/(\w{8})\n/.exec(first!.message)![1]!;
    // The same code on the local server: what the public base forwards to.
    const visit = await fetch(`${server.url}/l/${code}`, { redirect: 'manual' });
    expect(visit.status).toBe(302);
    expect(visit.headers.get('location')).toBe('https://shop.example/x');
  });
});
