// Names the user types in the app, and the values a panel send fills in, reach the core with
// Persian ی/ک where an Arabic keyboard gave ي/ك; what other programs send (the HTTP API's
// uploads and campaigns, the same core operations) is kept as sent.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { createDispatcher, type IpcDispatcher } from './dispatcher';
import { ipcCalls } from '../../../test/helpers/ipc';

let core: Core;
let dispatcher: IpcDispatcher;
let account: number;
const { ok } = ipcCalls(() => dispatcher);

beforeEach(() => {
  core = new Core({ dataDir: tempDir('chapar-ipc-names-'), clock: new ManualClock(Date.UTC(2026, 0, 5, 10)) });
  applySeed(core, testSeed());
  dispatcher = createDispatcher(core, { mode: 'desktop' });
  account = core.accounts.findByName('acme')!.id;
});
afterEach(async () => {
  dispatcher.close();
  await core.close();
});

async function uploadedSegment(): Promise<number> {
  // An upload through the API keeps its Arabic letters, as its program sent them.
  const { segment_id } = core.uploads.create(account, [{ phone_number: '09120000001', NAME: 'علي كريمي' }]);
  await core.jobs.waitForIdle();
  return segment_id;
}

it('stores segment and campaign names typed with Arabic ي/ك in Persian letters', async () => {
  const segment_id = await uploadedSegment();
  const renamed = await ok('segments:rename', { account_id: account, segment_id, name: 'مشتريان كرج' });
  expect(renamed.name).toBe('مشتریان کرج');
  expect((await ok('segments:get', { account_id: account, segment_id })).name).toBe('مشتریان کرج');

  const combined = await ok('segments:combine', {
    account_id: account,
    include: [segment_id],
    exclude: [],
    name: 'تركيب يك',
  });
  expect((await ok('segments:get', { account_id: account, segment_id: combined.segment_id })).name).toBe('ترکیب یک');

  const created = await ok('campaigns:create', {
    account_id: account,
    sender: '30001111',
    name: 'كمپين پاييزي',
    template_body: 'سلام {{NAME}}',
    send_datetime: '2026-01-06T10:00:00Z',
    inclusion_segments: [segment_id],
  });
  expect((await ok('campaigns:get', { account_id: account, campaign_id: created.campaign_id })).name).toBe(
    'کمپین پاییزی',
  );

  // The same core operation as the HTTP API calls it keeps the name as sent.
  const api = core.campaigns.create(account, {
    sender: '30001111',
    name: 'كمپين API',
    template_body: 'سلام',
    send_datetime: '2026-01-06T10:00:00Z',
    inclusion_segments: [String(segment_id)],
    exclusion_segments: [],
    links: [],
    utm: {},
  });
  expect(core.campaigns.get(account, api.campaign_id).name).toBe('كمپين API');
});

it('fills a panel send with Persian ی/ک from values written with Arabic letters', async () => {
  const segment_id = await uploadedSegment();
  const input = { account_id: account, sender: '30001111', message: 'سلام {{NAME}}', segment_id };
  const preview = await ok('compose:preview', input);
  expect(preview.final_text.startsWith('سلام علی کریمی')).toBe(true);
  const sent = await ok('messages:send', input);
  const texts = core.db.prepare('SELECT text FROM messages WHERE send_id = ?').pluck().all(sent.send_id) as string[];
  expect(texts).toHaveLength(1);
  expect(texts[0]!.startsWith('سلام علی کریمی')).toBe(true);
});
