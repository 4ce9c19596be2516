// Child process of the campaign crash test: opens a Core on the given data folder, and on the
// first start seeds an account, a 100,000-member segment and a campaign due at once; then prints
// each execution event (recipients recorded so far) as a JSON line, until the test kills it.
import { Core } from '../../electron/service/core';
import { applySeed } from '../../electron/service/seed';
import { testSeed } from '../helpers/server';

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
const now = Date.now();
const segmentId = Number(
  core.db
    .prepare(
      `INSERT INTO segments (account_id, name, columns, status, member_count, origin, created_at, updated_at)
       VALUES (?, 'crash', '["NAME"]', 'ready', ?, 'import', ?, ?)`,
    )
    .run(account.id, Number(members), now, now).lastInsertRowid,
);
core.db
  .prepare(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
     INSERT INTO segment_members (segment_id, phone, fields)
     SELECT ?, '09' || (100000000 + (i * 7919) % 900000000), 'name ' || (i % 300) FROM n`,
  )
  .run(Number(members), segmentId);
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
