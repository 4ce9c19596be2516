// Child process of the campaign crash test: opens a Core on the given data folder, and on the
// first start seeds an account, a 100,000-member segment and a campaign due at once; then prints
// each execution event (recipients recorded so far) as a JSON line, until the test kills it.
import { Core } from '../../electron/service/core';
import { applySeed } from '../../electron/service/seed';
import { testSeed } from '../helpers/server';
import { writeSegment } from '../helpers/segments';

const [dataDir, members, credit] = process.argv.slice(2);
if (!dataDir || !members || !credit) throw new Error('usage: kill-child.ts DATA_DIR MEMBERS CREDIT_RIALS');
const core = new Core({ dataDir, startScheduler: false });
const seed = testSeed({
  // Nothing moves past the queue while the test runs: the credit is what the campaign left.
  simulator: { seed: 7, handoff_ms: 3_600_000, delivery_ms: 3_600_000, outcomes: { '10': 1 } },
});
seed.accounts![0]!.credit_rials = Number(credit);
applySeed(core, seed);
const account = core.accounts.findByName('acme')!;
const segmentId = writeSegment(core, account.id, 'crash', { from: 0, to: Number(members) }, 300);
const created = core.campaigns.create(account.id, {
  sender: '30001111',
  name: 'crash',
  template_body: 'سلام {{NAME}} https://shop.example/x',
  send_datetime: '2026-01-01T00:00:00Z',
  inclusion_segments: [String(segmentId)],
  exclusion_segments: [],
  links: [{ index: 0, actual_url: 'https://shop.example/x', has_utm: 'true' }],
  utm: {},
});
core.campaigns.events.on('execution', () => {
  const row = core.db
    .prepare<[number], { frozen: number; recorded: number; status: string }>(
      'SELECT frozen, recorded, status FROM campaign_executions WHERE id = ?',
    )
    .get(created.execution_id)!;
  process.stdout.write(JSON.stringify({ execution_id: created.execution_id, ...row }) + '\n');
});
core.scheduler.start();
