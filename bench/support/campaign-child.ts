// Child process of the campaign1m bench: a fresh workspace with two overlapping 600,000-member
// inclusion segments and a 200,000-member exclusion segment (written directly, as an import would
// leave them), then either
//   case:  a campaign through the real path (core.campaigns.create, the scheduler, the execution
//          job: freeze, reservation, personalized batches through the acceptance path), timed from
//          its due time to every message recorded;
//   floor: the same message rows written by one raw INSERT … SELECT (audience, personalization and
//          a fixed-length link done in SQL).
// Prints one JSON line: ms, messages, peak RSS, and (on Linux) the peak of its anonymous part: the
// rest is the database's pages, memory-mapped (db/database.ts), which the system takes back at will.
import fs from 'node:fs';
import { Core } from '../../electron/service/core';
import { writeSegment } from '../../test/helpers/segments';

const [dataDir, mode] = process.argv.slice(2);
if (!dataDir || (mode !== 'case' && mode !== 'floor')) throw new Error('usage: campaign-child.ts DATA_DIR case|floor');

const TEMPLATE = 'سلام {{NAME}}، حراج جمعه با ۳۰٪ تخفیف: https://shop.example/friday';
const core = new Core({ dataDir });
const account = core.accounts.create({ name: 'bench', active: true, credit_rials: 1_000_000_000_000 });
core.accounts.upsertLine(account.id, {
  number: '30001111',
  provider: 'sms',
  permissions: ['can_send_api_campaign', 'can_send_panel_campaign'],
});
// A long handoff keeps the lifecycle idle: the case measures recording, not delivery.
core.settings.setSimulator({ ...core.settings.simulator(), handoff_ms: 3_600_000, delivery_ms: 3_600_000 });

const now = Date.now();
const segment = (name: string, from: number, to: number) => writeSegment(core, account.id, name, { from, to });
const a = segment('A', 0, 600_000);
const b = segment('B', 400_000, 1_000_000);
const c = segment('C', 300_000, 500_000);
core.db.pragma('wal_checkpoint(TRUNCATE)');

/** RssAnon from /proc/self/status in bytes; 0 where there is none. */
const anonymous = () => {
  try {
    const kb = /^RssAnon:\s+(\d+) kB/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
};
let peak = process.memoryUsage.rss();
let peakAnon = anonymous();
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage.rss());
  peakAnon = Math.max(peakAnon, anonymous());
}, 20);
let ms: number;
let messages: number;
if (mode === 'case') {
  const created = core.campaigns.create(account.id, {
    sender: '30001111',
    name: 'bench',
    template_body: TEMPLATE,
    send_datetime: new Date(Date.now() - 1000).toISOString().replace(/\.\d+Z$/, 'Z'),
    inclusion_segments: [String(a), String(b)],
    exclusion_segments: [String(c)],
    links: [{ index: 0, actual_url: 'https://shop.example/friday', has_utm: 'true' }],
    utm: {},
  });
  const start = performance.now();
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      const row = core.db
        .prepare<[number], { audience: number | null; recorded: number; status: string; error: string | null }>(
          'SELECT audience, recorded, status, error FROM campaign_executions WHERE id = ?',
        )
        .get(created.execution_id)!;
      if (row.status === 'FAILED') reject(new Error(row.error ?? 'failed'));
      if (row.audience !== null && row.recorded === row.audience) resolve();
    };
    core.campaigns.events.on('execution', check);
  });
  ms = performance.now() - start;
  messages = core.db.prepare<[], number>('SELECT count(*) FROM messages').pluck().get()!;
} else {
  core.db
    .prepare(
      `INSERT INTO sends (id, account_id, line_id, sender, provider, text, pages, origin, message_count, total_rials, created_at)
       VALUES (1, ?, (SELECT id FROM lines LIMIT 1), '30001111', 'sms', ?, 3, 'campaign', 0, 0, ?)`,
    )
    .run(account.id, TEMPLATE, now);
  const start = performance.now();
  // Each recipient's own 8-character code, as the case writes them.
  const link = 'http://127.0.0.1:8080/l/';
  messages = core.db
    .prepare(
      `INSERT INTO messages (id, send_id, account_id, receptor, status, cost_rials, created_at, text)
       SELECT row_number() OVER (ORDER BY phone), 1, ?, phone, 1, 4500, ?,
              replace(replace(?, '{{NAME}}', fields), 'https://shop.example/friday',
                      ? || printf('%08d', row_number() OVER (ORDER BY phone))) || char(10) || 'لغو۱۱'
       FROM (SELECT m.phone AS phone, m.fields AS fields FROM segment_members m
             WHERE m.segment_id IN (?, ?)
               AND NOT EXISTS (SELECT 1 FROM segment_members e WHERE e.segment_id = ? AND e.phone = m.phone)
               AND NOT EXISTS (SELECT 1 FROM optouts o WHERE o.account_id = ? AND o.phone = m.phone)
             GROUP BY m.phone)`,
    )
    .run(account.id, Date.now(), TEMPLATE, link, a, b, c, account.id).changes;
  ms = performance.now() - start;
}
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage.rss());
await core.close();
process.stdout.write(
  JSON.stringify({ ms, messages, peakRssMb: peak / 2 ** 20, peakAnonMb: peakAnon / 2 ** 20 }) + '\n',
);
