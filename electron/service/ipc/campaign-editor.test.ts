// The campaign editor's IPC operations through the real dispatcher and core: drafts saved and
// turned into exactly one campaign, the dry run (audience explained, placeholders without values,
// links, samples, total cost against the credit, the last message's time), the superseded quote,
// the test send, the report's rows, counts, clicks and delivery chart, and sends as rows.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { writeSegment } from '../../../test/helpers/segments';
import { CampaignDraftFieldsSchema, type CampaignDraftFields } from '../../../shared/campaigns';
import { priceText } from '../../../shared/pricing';
import { createDispatcher, type IpcDispatcher } from './dispatcher';
import { ipcCalls } from '../../../test/helpers/ipc';

let core: Core;
let clock: ManualClock;
let dispatcher: IpcDispatcher;
let account: number;

const { ok, refused } = ipcCalls(() => dispatcher);

const fields = (overrides: Partial<CampaignDraftFields> = {}): CampaignDraftFields =>
  CampaignDraftFieldsSchema.parse({ ...overrides });

beforeEach(() => {
  clock = new ManualClock(Date.UTC(2026, 0, 5, 10, 0, 0));
  core = new Core({ dataDir: tempDir('chapar-ipc-editor-'), clock });
  applySeed(core, testSeed());
  dispatcher = createDispatcher(core, { mode: 'desktop' });
  account = core.accounts.findByName('acme')!.id;
});
afterEach(async () => {
  dispatcher.close();
  await core.close();
});

/** A: 4 numbers (one without a name), B: 3 numbers (2 also in A), C: 1 number of A; one of A opted out. */
async function segments() {
  const a = core.uploads.create(account, [
    { phone_number: '09120000001', NAME: 'Sara' },
    { phone_number: '09120000002', NAME: 'Ali' },
    { phone_number: '09120000003', NAME: '' },
    { phone_number: '09120000004', NAME: 'Maryam-with-a-long-name' },
  ]).segment_id;
  const b = core.uploads.create(account, [
    { phone_number: '09120000002', CITY: 'Tabriz' },
    { phone_number: '09120000003', CITY: 'Shiraz' },
    { phone_number: '09120000009', CITY: 'Yazd' },
  ]).segment_id;
  const c = core.uploads.create(account, [{ phone_number: '09120000001' }]).segment_id;
  await core.jobs.waitForIdle();
  core.optouts.add(account, ['09120000004']);
  return { a, b, c };
}

it('saves drafts as they are typed, lists them newest first, and keeps them per account', async () => {
  const first = await ok('campaigns:draftSave', { account_id: account, fields: fields({ name: 'Nowruz' }) });
  clock.advance(1000);
  const second = await ok('campaigns:draftSave', { account_id: account, fields: fields({ name: 'Yalda' }) });
  clock.advance(1000);
  const saved = await ok('campaigns:draftSave', {
    account_id: account,
    draft_id: first.draft_id,
    fields: fields({ name: 'Nowruz sale', template_body: 'سلام {{NAME}}' }),
  });
  expect(saved.fields).toMatchObject({ name: 'Nowruz sale', template_body: 'سلام {{NAME}}', send_datetime: null });
  expect(saved.updated_at).toBeGreaterThan(saved.created_at);
  expect((await ok('campaigns:drafts', { account_id: account })).map((d) => d.draft_id)).toEqual([
    first.draft_id,
    second.draft_id,
  ]);
  const other = core.accounts.findByName('other')!.id;
  expect(await ok('campaigns:drafts', { account_id: other })).toEqual([]);
  expect((await refused('campaigns:draftGet', { account_id: other, draft_id: first.draft_id })).code).toBe(400);
  expect(await ok('campaigns:draftDelete', { account_id: account, draft_id: second.draft_id })).toEqual({
    deleted: true,
  });
  expect(await ok('campaigns:draftDelete', { account_id: account, draft_id: second.draft_id })).toEqual({
    deleted: false,
  });
});

it('explains the audience: included, counted once, excluded, opted out, receiving', async () => {
  const { a, b, c } = await segments();
  const quote = await ok('campaigns:quote', {
    account_id: account,
    fields: fields({
      sender: '30001111',
      template_body: 'Hi {{NAME}} from {{city}}',
      inclusion_segments: [a, b],
      exclusion_segments: [c],
    }),
  });
  // A ∪ B = 1, 2, 3, 4, 9 (2 and 3 in both); 1 excluded by C; 4 opted out → 2, 3, 9.
  expect(quote.audience).toMatchObject({ included: 5, duplicates: 2, excluded: 1, opted_out: 1, recipients: 3 });
  expect(quote.audience.segments.map((s) => [s.role, s.members])).toEqual([
    ['include', 4],
    ['include', 3],
    ['exclude', 1],
  ]);
  expect(quote.columns).toEqual(['NAME', 'CITY', 'PHONE_NUMBER']);
  // 2 and 3 take their fields from A (the first inclusion segment): no CITY there; 3 has no NAME;
  // 9 (only in B) has no NAME.
  expect(quote.placeholders).toEqual([
    { name: 'NAME', known: true, missing: 2 },
    { name: 'CITY', known: true, missing: 2 },
  ]);
  expect(quote.problem).toMatchObject({ field: 'name', code: 400 });
});

it('prices every recipient as the execution will, shows samples, and checks the credit', async () => {
  const { a } = await segments();
  const draft = fields({
    name: 'Sale',
    sender: '30001111',
    template_body: 'Hi {{NAME}}, see https://shop.example/sale',
    inclusion_segments: [a],
    links: [{ actual_url: 'https://shop.example/sale', has_utm: true }],
  });
  const quote = await ok('campaigns:quote', { account_id: account, fields: draft });
  expect(quote.problem).toBeNull();
  expect(quote.audience.recipients).toBe(3);
  const [first, longest] = quote.samples;
  expect(first).toMatchObject({ kind: 'first', receptor: '09120000001' });
  expect(first!.text).toMatch(/^Hi Sara, see http:\/\/127\.0\.0\.1:8080\/l\/\w{8}\nلغو۱۱$/);
  // 4 (the longest name) is opted out: the longest of the others is Sara's.
  expect(longest).toMatchObject({ kind: 'longest', receptor: '09120000001' });
  const pricing = core.settings.pricing();
  const expected = ['Sara', 'Ali', ''].reduce(
    (total, name) => total + priceText(`Hi ${name}, see http://127.0.0.1:8080/l/QzXqjWva`, 'sms', pricing).costRials,
    0,
  );
  expect(quote.total_cost_rials).toBe(expected);
  expect(quote.enough_credit).toBe(true);
  expect(quote.links).toEqual([
    {
      idx: 0,
      actual_url: 'https://shop.example/sale',
      in_body: true,
      redirect_to: 'https://shop.example/sale?utm_source=chapar&utm_medium=sms&utm_campaign=%7Bid%7D',
      short_example: expect.stringMatching(/^http:\/\/127\.0\.0\.1:8080\/l\/\w{8}$/),
      added_characters: 'http://127.0.0.1:8080/l/12345678'.length - 'https://shop.example/sale'.length,
    },
  ]);
  // The quote and the execution agree to the rial.
  const created = await ok('campaigns:create', {
    account_id: account,
    ...draft,
    send_datetime: new Date(clock.now()).toISOString(),
  });
  await core.jobs.waitForIdle();
  const report = await ok('campaigns:report', { account_id: account, execution_id: created.execution_id });
  expect(report).toMatchObject({ sent: 3, cost: quote.total_cost_rials });

  core.credit.adjust(account, -core.credit.available(account) + 10, 'test', 'adjust');
  const poor = await ok('campaigns:quote', { account_id: account, fields: draft });
  expect(poor).toMatchObject({ enough_credit: false, credit_rials: 10 });
});

it('estimates the last message by the send rate and quiet hours, and names what creation would refuse', async () => {
  const { a } = await segments();
  const base = { name: 'Rate', sender: '30001111', template_body: 'Hello', inclusion_segments: [a] };
  const quote = await ok('campaigns:quote', {
    account_id: account,
    fields: fields({ ...base, send_datetime: '2026-01-05T12:00:00Z', send_rate: 1 }),
  });
  // 3 recipients at one a minute: the third two minutes after the start.
  expect(quote.send_at).toBe(Date.UTC(2026, 0, 5, 12, 0));
  expect(quote.estimated_last_message_at).toBe(Date.UTC(2026, 0, 5, 12, 2));
  const cases: Array<[Partial<CampaignDraftFields>, string | null, number]> = [
    [{ sender: '' }, 'sender', 400],
    [{ sender: 'bale_acme_bot' }, 'sender', 412],
    [{ send_datetime: '2026-02-30T10:00:00Z' }, 'send_datetime', 417],
    [{ quiet_hours: '25:00-08:00' }, 'quiet_hours', 400],
    [{ inclusion_segments: [a, 999] }, 'inclusion_segments', 400],
  ];
  for (const [change, field, code] of cases) {
    const { problem } = await ok('campaigns:quote', { account_id: account, fields: fields({ ...base, ...change }) });
    expect(problem, JSON.stringify(change)).toMatchObject({ field, code });
  }
});

it('a newer quote of the same editor stops an older one still reading (409)', async () => {
  const big = writeSegment(core, account, 'big', { from: 0, to: 60_000 });
  const draft = fields({ sender: '30001111', template_body: 'Hi {{NAME}}', inclusion_segments: [big] });
  const older = dispatcher.invoke('campaigns:quote', { account_id: account, fields: draft, quote_key: 'editor-1' });
  const newer = ok('campaigns:quote', { account_id: account, fields: draft, quote_key: 'editor-1' });
  const other = ok('campaigns:quote', { account_id: account, fields: draft, quote_key: 'editor-2' });
  const result = await older;
  expect(result.ok ? 200 : result.error.code).toBe(409);
  expect((await newer).audience.recipients).toBe(60_000);
  expect((await other).audience.recipients).toBe(60_000);
});

it('creating from a draft deletes it: the same draft cannot be scheduled twice', async () => {
  const { a } = await segments();
  const draft = await ok('campaigns:draftSave', {
    account_id: account,
    fields: fields({ name: 'Once', sender: '30001111', template_body: 'Hi', inclusion_segments: [a] }),
  });
  const input = {
    account_id: account,
    ...draft.fields,
    send_datetime: '2026-01-05T11:00:00Z',
    draft_id: draft.draft_id,
  };
  const created = await ok('campaigns:create', input);
  expect(created.execution_status).toBe('SCHEDULED');
  expect(await ok('campaigns:drafts', { account_id: account })).toEqual([]);
  expect((await refused('campaigns:create', input)).code).toBe(400);
  expect(await ok('campaigns:list', { account_id: account })).toHaveLength(1);
});

it('sends a test of the first recipient’s text to one number, charged as one message', async () => {
  const { a } = await segments();
  const before = core.credit.balance(account);
  const sent = await ok('campaigns:sendTest', {
    account_id: account,
    fields: fields({
      sender: '30001111',
      template_body: 'Hi {{NAME}} https://shop.example/x',
      inclusion_segments: [a],
      links: [{ actual_url: 'https://shop.example/x', has_utm: true }],
    }),
    receptor: '۰۹۳۵۱۲۳۴۵۶۷',
  });
  expect(sent).toMatchObject({ receptor: '09351234567', text: 'Hi Sara https://shop.example/x\nلغو۱۱' });
  expect(core.credit.balance(account)).toBe(before - sent.cost_rials);
  expect((await ok('sends:get', { send_id: sent.send_id })).messages).toBe(1);
  expect(
    (
      await refused('campaigns:sendTest', {
        account_id: account,
        fields: fields({ sender: '30001111', template_body: 'Hi', inclusion_segments: [a] }),
        receptor: '123',
      })
    ).code,
  ).toBe(411);
});

it('pages, counts and filters an execution’s recipients, and charts their deliveries', async () => {
  const big = writeSegment(core, account, 'big', { from: 0, to: 6_000 });
  const created = await ok('campaigns:create', {
    account_id: account,
    name: 'Chart',
    sender: '30001111',
    template_body: 'Hi {{NAME}}',
    send_datetime: new Date(clock.now()).toISOString(),
    inclusion_segments: [big],
  });
  await core.jobs.waitForIdle();
  const byExecution = { account_id: account, execution_id: created.execution_id };
  expect(await ok('campaigns:messageCount', byExecution)).toEqual({ count: 6_000 });
  // A deep unfiltered page is the same rows as the filtered path gives.
  const deep = await ok('campaigns:messages', { ...byExecution, page: 12, size: 500 });
  const all = await ok('campaigns:messages', {
    ...byExecution,
    page: 12,
    size: 500,
    status: [1, 2, 4, 10, 11, 13, 14, 6],
  });
  expect(deep.map((r) => r.messageid)).toEqual(all.map((r) => r.messageid));
  expect(deep).toHaveLength(500);
  // Odd steps: final times fall anywhere inside the chart's buckets.
  for (let i = 0; i < 12; i++) {
    clock.advance(61_237);
    await core.scheduler.waitForIdle();
  }
  await core.jobs.waitForIdle();
  const report = await ok('campaigns:report', byExecution);
  const chart = await ok('campaigns:deliveryChart', byExecution);
  expect(chart.bucket_ms).toBeGreaterThanOrEqual(60_000);
  const sum = (key: 'delivered' | 'failed') => chart.points.reduce((n, p) => n + p[key], 0);
  expect(sum('delivered')).toBe(report.delivered);
  expect(sum('failed')).toBe(report.failed);
  expect(chart.points.every((p) => (p.at - chart.points[0]!.at) % chart.bucket_ms === 0)).toBe(true);
  expect(report.delivered + report.failed).toBe(6_000);
  const delivered = await ok('campaigns:messageCount', { ...byExecution, status: [10] });
  expect(delivered.count).toBe(report.delivered);
  expect(
    (await ok('campaigns:messages', { ...byExecution, status: [10], size: 1000 })).every((r) => r.status === 10),
  ).toBe(true);
});

it('lists direct sends and campaign executions as rows, and filters messages by execution', async () => {
  const { a } = await segments();
  const panel = await ok('messages:send', {
    account_id: account,
    sender: '30001111',
    message: 'direct',
    receivers: ['09121111111', '09122222222'],
  });
  clock.advance(1000);
  const created = await ok('campaigns:create', {
    account_id: account,
    name: 'Rows',
    sender: '30001111',
    template_body: 'Hi {{NAME}}',
    send_datetime: new Date(clock.now()).toISOString(),
    inclusion_segments: [a],
  });
  await core.jobs.waitForIdle();
  const { rows, total } = await ok('sends:list', { account_id: account });
  expect(total).toBe(2);
  // The total counts the direct send and the execution, not the execution's batch send.
  expect((await ok('sends:list', {})).total).toBe(2);
  expect((await ok('sends:list', { account_id: core.accounts.findByName('other')!.id })).total).toBe(0);
  expect(rows.map((r) => [r.kind, r.name, r.messages])).toEqual([
    ['execution', 'Rows', 3],
    ['send', null, 2],
  ]);
  expect(rows[1]).toMatchObject({ send_id: panel.send_id, origin: 'panel', pending: 2, cost_rials: panel.total_rials });
  expect(rows[0]).toMatchObject({ execution_id: created.execution_id, campaign_id: created.campaign_id });
  const messages = await ok('messages:list', { account_id: account, execution_id: created.execution_id });
  expect(messages.rows.map((m) => m.receptor).sort()).toEqual(['09120000001', '09120000002', '09120000003']);
  expect(
    (await refused('sends:get', { account_id: core.accounts.findByName('other')!.id, send_id: panel.send_id })).code,
  ).toBe(400);
});
