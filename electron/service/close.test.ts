// Core.close() waits for everything that writes into the workspace. Each round opens a copy of one
// prepared workspace, starts every kind of writer at once (an export of 200,000 messages, a
// retention run archiving old months, an import, a backup, an email send and a campaign, with the
// scheduler moving the queued messages), lets them run for a different short while each round,
// closes the core and then watches the folder for a second: no file may appear, grow, shrink or
// disappear after close() resolved, and no partial file (`.part`) may be left. Every call the
// window had in flight has its answer by then, and a call made after close() began is refused.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Core } from './core';
import { ManualClock } from './clock';
import { applySeed } from './seed';
import { createDispatcher } from './ipc/dispatcher';
import { FIELD_SEPARATOR } from './contacts/fields';
import { tempDir, testSeed } from '../../test/helpers/server';
import { writeSegment } from '../../test/helpers/segments';

const DAY = 86_400_000;
const EXPORTED = 200_000;
const OLD = 30_000;
const ROUNDS = 20;
const START = Date.UTC(2025, 0, 6, 9, 0, 0);

let root: string;
let template: string;
let importFile: string;
let now: number;
let account: number;
let emailSegment: number;
let campaignSegment: number;

function accept(core: Core, count: number, prefix: string): void {
  for (let from = 0; from < count; from += 10_000)
    core.messaging.accept.accept({
      accountId: account,
      origin: 'panel',
      sender: '30001111',
      text: 'Hello',
      receivers: Array.from(
        { length: Math.min(10_000, count - from) },
        (_, i) => `${prefix}${String(from + i).padStart(7, '0')}`,
      ),
      rule: 'lenient',
    });
}

beforeAll(async () => {
  root = tempDir('chapar-close-');
  template = path.join(root, 'template');
  const clock = new ManualClock(START);
  const core = new Core({ dataDir: template, clock, startScheduler: false });
  const seed = testSeed();
  // 230,000 messages and a campaign: far more than the usual test credit.
  seed.accounts![0]!.credit_rials = 1e12;
  applySeed(core, seed);
  account = core.accounts.findByName('acme')!.id;
  // Old messages, final: what the retention run archives and removes.
  accept(core, OLD, '0912');
  for (let i = 0; i < 3; i++) {
    clock.advance(60_000);
    await core.scheduler.drain();
  }
  clock.advance(120 * DAY);
  // New messages, queued: what the export writes and the scheduler moves once the core starts.
  accept(core, EXPORTED, '0935');
  campaignSegment = writeSegment(core, account, 'customers', { from: 0, to: 20_000 });
  emailSegment = Number(
    core.db
      .prepare(
        `INSERT INTO segments (account_id, name, columns, status, member_count, origin, created_at, updated_at)
         VALUES (?, 'mail', '["EMAIL","NAME"]', 'ready', 5000, 'import', ?, ?)`,
      )
      .run(account, clock.now(), clock.now()).lastInsertRowid,
  );
  core.db
    .prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < 5000)
       INSERT INTO segment_members (segment_id, phone, fields)
       SELECT ?, '0913' || printf('%07d', i), 'c' || i || '@example.com' || ? || 'Customer ' || i FROM n`,
    )
    .run(emailSegment, FIELD_SEPARATOR);
  now = clock.now();
  await core.close();
  importFile = path.join(root, 'customers.csv');
  fs.writeFileSync(
    importFile,
    'phone,name\n' + Array.from({ length: 50_000 }, (_, i) => `0914${String(i).padStart(7, '0')},n${i}`).join('\n'),
  );
}, 300_000);

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

/** Every file under `dir` with its size and modification time, one line each. */
function listing(dir: string): string {
  const lines: string[] = [];
  const walk = (at: string) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const file = path.join(at, entry.name);
      if (entry.isDirectory()) walk(file);
      else {
        const stat = fs.statSync(file);
        lines.push(`${path.relative(dir, file)} ${stat.size} ${stat.mtimeMs}`);
      }
    }
  };
  walk(dir);
  return lines.sort().join('\n');
}

/** Partial files under `dir` (relative paths). */
function partFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.part'))
    .map((name) => path.dirname(name));
}

it(`leaves the workspace untouched once close() resolved, with every kind of writer busy (${ROUNDS} rounds)`, async () => {
  const caught = new Set<string>();
  for (let round = 0; round < ROUNDS; round++) {
    const dataDir = path.join(root, `round-${round}`);
    fs.cpSync(template, dataDir, { recursive: true });
    const core = new Core({ dataDir, clock: new ManualClock(now) });
    const dispatcher = createDispatcher(core, { mode: 'desktop' });
    const call = (channel: string, input: unknown) => dispatcher.invoke(channel, input);

    const preview = (await call('workspace:retentionPreview', { months: 2, action: 'archive' })) as {
      ok: true;
      value: { cutoff: number; messages: number };
    };
    expect(preview.value.messages).toBe(OLD);
    const calls = [
      call('messages:export', { account_id: account, format: round % 2 ? 'xlsx' : 'csv' }),
      call('workspace:applyRetention', { months: 2, action: 'archive', cutoff: preview.value.cutoff }),
      call('imports:start', {
        account_id: account,
        file: importFile,
        name: `import ${round}`,
        mapping: { phone: 0, columns: [{ index: 1, name: 'NAME' }] },
      }),
      call('backup:create', undefined),
      call('email:send', {
        account_id: account,
        segment_id: emailSegment,
        from: { email: 'shop@example.com', name: 'Shop' },
        subject: 'Hello {{NAME}}',
        text: 'Dear {{NAME}}',
        expected_count: 5000,
        request_id: `close-round-${round}`,
      }),
    ];
    core.campaigns.create(account, {
      sender: '30001111',
      name: `campaign ${round}`,
      template_body: 'سلام {{NAME}}',
      send_datetime: '2024-01-01T00:00:00Z',
      inclusion_segments: [String(campaignSegment)],
      exclusion_segments: [],
      links: [],
      utm: {},
    });
    // Close lands at a different point of the work each round; what was under way then is noted.
    await new Promise((resolve) => setTimeout(resolve, (round * 97) % 1500));
    for (const row of core.db.prepare("SELECT DISTINCT type FROM jobs WHERE state = 'running'").pluck().all())
      caught.add(String(row));
    if (partFiles(dataDir).length > 0) caught.add(`part:${partFiles(dataDir).join(',')}`);
    const closed = core.close();
    const late = await call('messages:count', { account_id: account });
    await closed;
    dispatcher.close();

    // Each call the window made has its answer: done, or stopped by the close (never a failure).
    for (const answer of await Promise.all(calls))
      if (!answer.ok) expect(answer.error).toMatchObject({ reason: 'workspace_closing' });
    expect(late).toMatchObject({ ok: false, error: { reason: 'workspace_closing' } });
    const before = listing(dataDir);
    expect(before).not.toMatch(/\.part /);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(listing(dataDir), `round ${round}`).toBe(before);
    fs.rmSync(dataDir, { recursive: true });
  }
  // The rounds did catch the writers in the middle of their work (the export's partial file; jobs).
  expect([...caught].some((what) => what.startsWith('part:') && what.includes('exports'))).toBe(true);
  expect([...caught].filter((what) => !what.startsWith('part:')).length).toBeGreaterThanOrEqual(2);
}, 600_000);
