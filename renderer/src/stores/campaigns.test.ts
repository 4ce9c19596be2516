import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  clickThrough,
  createCampaignsStore,
  followExecutions,
  FOLLOW_UP_POLL_MS,
  LIST_REFRESH_MS,
  listRows,
  REPORT_POLL_MS,
  rowQuery,
  statusOf,
} from './campaigns';
import { fakeApi, importJob, importProgress, until } from '../test/fakes';
import type { CampaignSummary } from '../../../shared/ipc/contracts/campaigns';
import type { FakeHandlers, PayloadOf } from '../../../shared/ipc';
import {
  CampaignDraftFieldsSchema,
  FAILED_RESULT_STATUSES,
  type CampaignDraft,
  type ExecutionReport,
  type ExecutionStatus,
} from '../../../shared/campaigns';

const report = (overrides: Partial<ExecutionReport> = {}): ExecutionReport => ({
  execution_id: 7,
  campaign_id: 3,
  execution_status: 'RUNNING',
  send_datetime: '2026-01-05T10:00:00Z',
  started_at: '2026-01-05T10:00:01Z',
  finished_at: null,
  audience: 100,
  sent: 40,
  delivered: 30,
  failed: 5,
  pending: 5,
  cost: 40 * 1500,
  skipped: 0,
  refunded: 0,
  clicks: 3,
  track_links: true,
  paused: false,
  reserved: 0,
  estimated_last_message_at: null,
  error: null,
  ...overrides,
});

const campaign = (id: number, last: ExecutionReport | null, createdAt = id): CampaignSummary => ({
  campaign_id: id,
  name: `campaign ${id}`,
  sender: '30001111',
  template_body: 'Hi {{NAME}}',
  inclusion_segments: [1],
  exclusion_segments: [],
  links: [],
  send_rate: null,
  quiet_hours: null,
  track_links: true,
  filter: null,
  file_name: null,
  series: null,
  created_at: createdAt,
  last_execution: last,
});

const draft = (id: number, updatedAt: number, fields: Partial<CampaignDraft['fields']> = {}): CampaignDraft => ({
  draft_id: id,
  account_id: 1,
  fields: CampaignDraftFieldsSchema.parse({ name: `draft ${id}`, ...fields }),
  created_at: 0,
  updated_at: updatedAt,
});

const push = (overrides: Partial<PayloadOf<'campaigns:execution'>> = {}): PayloadOf<'campaigns:execution'> => ({
  execution_id: 7,
  campaign_id: 3,
  account_id: 1,
  status: 'RUNNING',
  ...overrides,
});

/** The fakes of an open report whose execution answers `current()`. */
function reportHandlers(current: () => ExecutionReport, counts: { filtered?: number } = {}): FakeHandlers {
  return {
    'campaigns:report': () => current(),
    'campaigns:get': () => ({ ...campaign(3, current()), executions: [current()] }),
    'campaigns:linkClicks': () => [
      { idx: 0, actual_url: 'https://shop.example/a', has_utm: true, clicks: 4, clickers: 3 },
    ],
    'campaigns:messageCount': (input) => ({
      count: input.clicked === true ? 3 : input.status ? (counts.filtered ?? 5) : current().sent,
    }),
    'campaigns:deliveryChart': () => ({ bucket_ms: 60_000, points: [{ at: 0, delivered: 30, failed: 5 }] }),
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the campaigns list', () => {
  it('shows each execution state as the user names it', () => {
    const cases: Array<[ExecutionStatus, boolean, string]> = [
      ['SCHEDULED', false, 'scheduled'],
      ['SCHEDULED', true, 'paused'],
      ['RUNNING', false, 'running'],
      ['RUNNING', true, 'paused'],
      ['COMPLETED', false, 'completed'],
      // An ended execution is what it ended as, even if it was paused when it ended.
      ['CANCELLED', true, 'cancelled'],
      ['FAILED', false, 'failed'],
    ];
    for (const [status, paused, shown] of cases)
      expect(statusOf(report({ execution_status: status, paused }))).toBe(shown);
  });

  it('merges drafts (last edited first) above campaigns (newest first) with their last execution', () => {
    const rows = listRows(
      [draft(1, 10, { send_datetime: '2026-01-06T08:00:00Z' }), draft(2, 20)],
      [
        campaign(3, report({ execution_id: 7, campaign_id: 3, paused: true })),
        campaign(4, report({ execution_id: 9, campaign_id: 4, execution_status: 'COMPLETED', sent: 100 })),
      ],
    );
    expect(rows.map((r) => (r.kind === 'draft' ? `d${r.draft_id}` : `c${r.campaign_id}`))).toEqual([
      'd2',
      'd1',
      'c4',
      'c3',
    ]);
    expect(rows[1]).toMatchObject({ status: 'draft', send_at: Date.UTC(2026, 0, 6, 8) });
    expect(rows[0]).toMatchObject({ status: 'draft', send_at: null });
    expect(rows[2]).toMatchObject({ status: 'completed', execution_id: 9, sent: 100, audience: 100 });
    expect(rows[3]).toMatchObject({ status: 'paused', execution_id: 7, sent: 40, cost: 60_000 });
  });

  it('reads drafts and campaigns of the account, and follows its executions at most once a second', async () => {
    vi.useFakeTimers();
    let lists = 0;
    const { api, transport } = fakeApi({
      'campaigns:drafts': () => [draft(1, 5)],
      'campaigns:list': () => {
        lists++;
        return [campaign(3, report({ sent: lists }))];
      },
    });
    const store = createCampaignsStore(api);
    const stop = followExecutions(api, store);
    await store.getState().load(1);
    store.getState().showList();
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().list?.map((r) => r.kind)).toEqual(['draft', 'campaign']);
    const before = lists;

    for (let i = 0; i < 20; i++) transport.emit('campaigns:execution', push());
    // Another account's executions change nothing here.
    transport.emit('campaigns:execution', push({ account_id: 2 }));
    await vi.advanceTimersByTimeAsync(LIST_REFRESH_MS * 2 + 10);
    expect(lists - before).toBeGreaterThanOrEqual(1);
    expect(lists - before).toBeLessThanOrEqual(2);
    const row = store.getState().list?.[1];
    expect(row?.kind === 'campaign' && row.sent).toBe(lists);

    // Off screen, pushes read nothing.
    store.getState().hideList();
    const hidden = lists;
    transport.emit('campaigns:execution', push());
    await vi.advanceTimersByTimeAsync(LIST_REFRESH_MS * 3);
    expect(lists).toBe(hidden);
    stop();
  });
});

describe('an execution report', () => {
  it('reads the counts, links, chart, campaign and rows count; click-through over delivered', async () => {
    const { api } = fakeApi(reportHandlers(() => report({ execution_status: 'COMPLETED', pending: 0 })));
    const store = createCampaignsStore(api);
    await store.getState().load(1);
    await store.getState().openReport(7);
    const { view, rowCount } = store.getState();
    expect(view).toMatchObject({ executionId: 7, missing: false, clickers: 3 });
    expect(view?.report?.sent).toBe(40);
    expect(view?.campaign?.name).toBe('campaign 3');
    expect(view?.chart?.points).toHaveLength(1);
    expect(view?.links?.[0]).toMatchObject({ clicks: 4, clickers: 3 });
    expect(rowCount).toBe(40);
    expect(clickThrough(3, view!.report!)).toBe(3 / 30);
    // Nothing delivered yet: over the sent.
    expect(clickThrough(2, { delivered: 0, sent: 8 })).toBe(0.25);
    expect(clickThrough(0, { delivered: 0, sent: 0 })).toBeNull();
  });

  it('counts who clicked again only when a click was made', async () => {
    let clicks = 3;
    let clickerCounts = 0;
    const handlers = reportHandlers(() => report({ clicks }));
    const { api } = fakeApi({
      ...handlers,
      'campaigns:messageCount': (input) => {
        if (input.clicked === true) clickerCounts++;
        return handlers['campaigns:messageCount']!(input);
      },
    });
    const store = createCampaignsStore(api);
    await store.getState().load(1);
    await store.getState().openReport(7);
    await store.getState().refreshReport();
    await store.getState().refreshReport();
    expect(clickerCounts).toBe(1);
    clicks = 4;
    await store.getState().refreshReport();
    expect(clickerCounts).toBe(2);
    store.getState().closeReport();
  });

  it('says an execution it cannot read is missing', async () => {
    const { api } = fakeApi({
      'campaigns:report': () => {
        throw { code: 400, message: 'execution 70 unknown' };
      },
    });
    const store = createCampaignsStore(api);
    await store.getState().load(1);
    await store.getState().openReport(70);
    expect(store.getState().view?.missing).toBe(true);
  });

  it('follows its own execution’s pushes, throttled, and polls until the run has settled', async () => {
    vi.useFakeTimers();
    let reads = 0;
    let status: ExecutionStatus = 'RUNNING';
    let pending = 5;
    const handlers = reportHandlers(() => report({ execution_status: status, pending }));
    const { api, transport } = fakeApi({
      ...handlers,
      'campaigns:drafts': () => [],
      'campaigns:list': () => [],
      'campaigns:report': () => {
        reads++;
        return report({ execution_status: status, sent: reads, pending });
      },
    });
    const store = createCampaignsStore(api);
    const stop = followExecutions(api, store);
    await store.getState().load(1);
    await store.getState().openReport(7);
    expect(reads).toBe(1);
    const version = store.getState().view!.version;

    for (let i = 0; i < 30; i++) transport.emit('campaigns:execution', push());
    // Another execution's pushes do not touch this report.
    transport.emit('campaigns:execution', push({ execution_id: 8 }));
    await vi.advanceTimersByTimeAsync(900);
    expect(reads).toBeLessThanOrEqual(3);
    expect(store.getState().view!.version).toBeGreaterThan(version);
    expect(store.getState().view!.report!.sent).toBe(reads);

    // Quiet: still read every few seconds while running (delivery reports come without pushes).
    const quiet = reads;
    await vi.advanceTimersByTimeAsync(REPORT_POLL_MS * 3 + 100);
    expect(reads - quiet).toBeGreaterThanOrEqual(2);
    expect(reads - quiet).toBeLessThanOrEqual(4);

    // Over, but delivery reports still to come: still read.
    status = 'COMPLETED';
    await vi.advanceTimersByTimeAsync(REPORT_POLL_MS + 100);
    const over = reads;
    expect(store.getState().view!.report!.execution_status).toBe('COMPLETED');
    await vi.advanceTimersByTimeAsync(REPORT_POLL_MS * 2 + 100);
    expect(reads).toBeGreaterThan(over);

    // Settled: polling stops.
    pending = 0;
    await vi.advanceTimersByTimeAsync(REPORT_POLL_MS + 100);
    const ended = reads;
    expect(store.getState().view!.report!.pending).toBe(0);
    await vi.advanceTimersByTimeAsync(REPORT_POLL_MS * 5);
    expect(reads).toBe(ended);

    // Closed: pushes read nothing.
    store.getState().closeReport();
    transport.emit('campaigns:execution', push());
    await vi.advanceTimersByTimeAsync(REPORT_POLL_MS);
    expect(reads).toBe(ended);
    stop();
  });

  it('asks the recipients by the filter, a page at a time', async () => {
    const asked: unknown[] = [];
    const { api } = fakeApi({
      ...reportHandlers(() => report({ execution_status: 'COMPLETED' }), { filtered: 5 }),
      'campaigns:messages': (input) => {
        asked.push(input);
        return [];
      },
    });
    const store = createCampaignsStore(api);
    await store.getState().load(1);
    await store.getState().openReport(7);
    store.getState().setFilter({ group: 'failed', clicked: 'not_clicked' });
    expect(store.getState().rowCount).toBeNull();
    await until(store, (s) => s.rowCount !== null);
    expect(store.getState().rowCount).toBe(5);
    await store.getState().recipients(400, 200);
    expect(asked[0]).toEqual({
      account_id: 1,
      execution_id: 7,
      status: [...FAILED_RESULT_STATUSES],
      clicked: false,
      page: 3,
      size: 200,
    });
    expect(rowQuery({ group: 'all', clicked: 'clicked' })).toEqual({ clicked: true });
    expect(rowQuery({ group: 'delivered', clicked: 'any' })).toEqual({ status: [10] });
  });

  it('pauses, resumes and cancels, and shows the answer at once', async () => {
    let current = report();
    const { api } = fakeApi({
      ...reportHandlers(() => current),
      'campaigns:pause': () => (current = report({ paused: true })),
      'campaigns:resume': () => (current = report({ paused: false })),
      'campaigns:cancel': () =>
        (current = report({ execution_status: 'CANCELLED', finished_at: '2026-01-05T10:05:00Z' })),
    });
    const store = createCampaignsStore(api);
    await store.getState().load(1);
    await store.getState().openReport(7);
    expect(await store.getState().control('pause')).toBe(true);
    expect(statusOf(store.getState().view!.report!)).toBe('paused');
    expect(await store.getState().control('resume')).toBe(true);
    expect(statusOf(store.getState().view!.report!)).toBe('running');
    expect(await store.getState().control('cancel')).toBe(true);
    expect(statusOf(store.getState().view!.report!)).toBe('cancelled');
    store.getState().closeReport();
  });
});

describe('follow-ups', () => {
  it('makes a segment of the clickers, follows its import to the end and reads its size', async () => {
    vi.useFakeTimers();
    let job = importJob({ job_id: 21, segment_id: 30, status: 'running', fraction: 0.5 });
    const asked: unknown[] = [];
    const { api } = fakeApi({
      ...reportHandlers(() => report({ execution_status: 'COMPLETED' })),
      'campaigns:segmentFromResults': (input) => {
        asked.push(input);
        return { segment_id: 30, job_id: 21 };
      },
      'imports:get': () => job,
      'segments:get': () => ({
        id: 30,
        name: 'Clicked',
        member_count: 3,
        columns: [],
        status: 'ready',
        source: { kind: 'results', label: null },
        created_at: 0,
        opted_out: 0,
        campaigns: [],
      }),
    });
    const store = createCampaignsStore(api);
    await store.getState().load(1);
    await store.getState().openReport(7);
    expect(await store.getState().createSegment('clicked', 'Clicked')).toBe(true);
    expect(asked).toEqual([{ account_id: 1, execution_id: 7, kind: 'clicked', name: 'Clicked' }]);
    expect(store.getState().followUp).toMatchObject({ segmentId: 30, status: 'running', fraction: 0.5, members: null });

    // A push moves it on; the poll reads where it ended.
    store.getState().followImport(importProgress({ job_id: 21, segment_id: 30, status: 'running', fraction: 0.8 }));
    expect(store.getState().followUp?.fraction).toBe(0.8);
    // Another job's push is not this follow-up's.
    store.getState().followImport(importProgress({ job_id: 99, status: 'failed' }));
    expect(store.getState().followUp?.status).toBe('running');
    job = { ...job, status: 'done', fraction: 1, valid: 3 };
    await vi.advanceTimersByTimeAsync(FOLLOW_UP_POLL_MS + 10);
    await until(store, (s) => s.followUp?.members !== null);
    expect(store.getState().followUp).toMatchObject({ status: 'done', members: 3 });
  });

  it('resends to the failed in the language of the UI and answers the new execution', async () => {
    let asked: unknown;
    const { api } = fakeApi({
      ...reportHandlers(() => report({ execution_status: 'COMPLETED' })),
      'campaigns:resendFailed': (input) => {
        asked = input;
        return { campaign_id: 4, execution_id: 12, execution_status: 'SCHEDULED', segment_id: 31 };
      },
    });
    const store = createCampaignsStore(api);
    await store.getState().load(1);
    await store.getState().openReport(7);
    expect(await store.getState().resendFailed('fa')).toBe(12);
    expect(asked).toMatchObject({ execution_id: 7, language: 'fa' });
    expect(store.getState().resending).toBe(false);
  });

  it('asks the core for the resend quote in the language of the UI, and forgets it', async () => {
    let asked: unknown;
    const quote = { name: 'Sale (resend #1)', left_out: { opted_out: 1, blocked: 2, invalid: 0 } };
    const { api } = fakeApi({
      ...reportHandlers(() => report({ execution_status: 'COMPLETED' })),
      'campaigns:resendQuote': (input) => {
        asked = input;
        return quote as never;
      },
    });
    const store = createCampaignsStore(api);
    await store.getState().load(1);
    await store.getState().openReport(7);
    expect(await store.getState().quoteResend('en')).toEqual(quote);
    expect(asked).toMatchObject({ account_id: 1, execution_id: 7, language: 'en' });
    expect(store.getState()).toMatchObject({ resendQuote: quote, quotingResend: false });
    store.getState().forgetResendQuote();
    expect(store.getState().resendQuote).toBeNull();
  });
});
