// "New segment from results" through the real import pipeline: the segment made of an execution's
// failed recipients holds exactly those numbers (with their segment's columns) once the import
// is done, and the other kinds pick delivered, clicked and never-clicked recipients.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCore, type TestCore } from '../../../test/contacts/support';
import { FIELD_SEPARATOR } from '../contacts/fields';
import { RESULTS_DIR, segmentFromResults, type ResultKind } from './results';

const open: TestCore[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) {
    await t.close();
    fs.rmSync(t.dir, { recursive: true, force: true });
  }
});

/** Recipients of execution 1: [phone, segment, fields, status, clicks], in two batches of 4 and 3. */
const RECIPIENTS: Array<[string, number, string[], number, number]> = [
  ['09120000001', 501, ['Ali', 'Tehran'], 10, 1],
  ['09120000002', 501, ['Sara', 'Shiraz'], 11, 0],
  ['09120000003', 502, ['Qom'], 6, 2],
  ['09120000004', 501, ['Reza, Jr.', 'Yazd'], 13, 0],
  ['09120000005', 502, ['Rasht'], 14, 0],
  ['09120000006', 501, ['Mina', 'Karaj'], 4, 0],
  ['09120000007', 502, ['Tabriz'], 10, 0],
];

function fixture(t: TestCore): { accountId: number; executionId: number } {
  const db = t.core.db;
  const accountId = t.accountId;
  const now = Date.now();
  const campaignId = Number(
    db
      .prepare(
        `INSERT INTO campaigns (account_id, name, sender, template_body, utm_source, utm_medium, utm_campaign, created_at)
         VALUES (?, 'c', '30001111', 'Hi {{NAME}}', 'chapar', 'sms', '1', ?)`,
      )
      .run(accountId, now).lastInsertRowid,
  );
  const executionId = Number(
    db
      .prepare(
        `INSERT INTO campaign_executions (campaign_id, account_id, status, send_datetime, send_at, segment_columns, created_at)
         VALUES (?, ?, 'COMPLETED', '2026-11-20T10:00:00+03:30', ?, ?, ?)`,
      )
      .run(campaignId, accountId, now, JSON.stringify({ 501: ['NAME', 'CITY'], 502: ['CITY'] }), now).lastInsertRowid,
  );
  const lineId = db
    .prepare<[number], number>(`SELECT id FROM lines WHERE account_id = ? AND number = '30001111'`)
    .pluck()
    .get(accountId)!;
  const recipient = db.prepare(
    'INSERT INTO campaign_recipients (execution_id, seq, phone, segment_id, fields, cost_rials) VALUES (?, ?, ?, ?, ?, 1500)',
  );
  const send = db.prepare(
    `INSERT INTO sends (account_id, line_id, sender, provider, text, pages, origin, message_count, total_rials, created_at)
     VALUES (?, ?, '30001111', 'sms', 'Hi {{NAME}}', 1, 'campaign', ?, 0, ?)`,
  );
  const message = db.prepare(
    `INSERT INTO messages (send_id, account_id, receptor, status, cost_rials, created_at, text)
     VALUES (?, ?, ?, ?, 1500, ?, ?)`,
  );
  const batch = db.prepare(
    `INSERT INTO campaign_batches (execution_id, first_seq, count, send_id, first_message_id, due_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const click = db.prepare(
    'INSERT INTO campaign_clicks (execution_id, message_id, link_idx, clicked_at) VALUES (?, ?, 0, ?)',
  );
  db.transaction(() => {
    RECIPIENTS.forEach(([phone, segmentId, fields], seq) =>
      recipient.run(executionId, seq, phone, segmentId, fields.join(FIELD_SEPARATOR)),
    );
    for (const [firstSeq, count] of [
      [0, 4],
      [4, 3],
    ] as const) {
      const sendId = Number(send.run(accountId, lineId, count, now).lastInsertRowid);
      let firstMessageId = 0;
      for (let seq = firstSeq; seq < firstSeq + count; seq++) {
        const [phone, , fields, status, clicks] = RECIPIENTS[seq]!;
        const id = Number(message.run(sendId, accountId, phone, status, now, `Hi ${fields[0]}`).lastInsertRowid);
        if (seq === firstSeq) firstMessageId = id;
        for (let c = 0; c < clicks; c++) click.run(executionId, id, now);
      }
      batch.run(executionId, firstSeq, count, sendId, firstMessageId, now);
      // A message of another send between two batches.
      message.run(sendId, accountId, '09129999999', 6, now, 'elsewhere');
    }
  })();
  return { accountId, executionId };
}

function core(): TestCore {
  const t = openCore();
  open.push(t);
  return t;
}

async function segmentOf(t: TestCore, accountId: number, executionId: number, kind: ResultKind) {
  const { segmentId, jobId } = await segmentFromResults(t.core.db, t.core.imports, {
    accountId,
    executionId,
    kind,
    name: `${kind} of execution ${executionId}`,
    dataDir: t.dir,
  });
  const job = await t.core.imports.wait(jobId);
  expect(job).toMatchObject({ status: 'done', invalid: 0, duplicates: 0 });
  const segment = t.core.segments.get(accountId, segmentId);
  const { members } = t.core.segments.members(accountId, segmentId, { limit: 100 });
  return { segment, members };
}

describe('segmentFromResults', () => {
  it('failed: exactly the recipients that ended in 6, 11, 13 or 14, with their columns', async () => {
    const t = core();
    const { accountId, executionId } = fixture(t);
    const { segment, members } = await segmentOf(t, accountId, executionId, 'failed');
    expect(segment).toMatchObject({
      name: `failed of execution ${executionId}`,
      status: 'ready',
      columns: ['NAME', 'CITY'],
    });
    expect(members).toMatchObject([
      { phone: '09120000002', fields: { NAME: 'Sara', CITY: 'Shiraz' } },
      { phone: '09120000003', fields: { NAME: '', CITY: 'Qom' } },
      { phone: '09120000004', fields: { NAME: 'Reza, Jr.', CITY: 'Yazd' } },
      { phone: '09120000005', fields: { NAME: '', CITY: 'Rasht' } },
    ]);
    // The file handed to the import goes once the import is over.
    await new Promise((resolve) => setImmediate(resolve));
    expect(fs.readdirSync(path.join(t.dir, RESULTS_DIR))).toEqual([]);
  });

  it('delivered, clicked and not clicked', async () => {
    const t = core();
    const { accountId, executionId } = fixture(t);
    const phones = async (kind: ResultKind) =>
      (await segmentOf(t, accountId, executionId, kind)).members.map((member) => member.phone);
    expect(await phones('delivered')).toEqual(['09120000001', '09120000007']);
    expect(await phones('clicked')).toEqual(['09120000001', '09120000003']);
    expect(await phones('not_clicked')).toEqual([
      '09120000002',
      '09120000004',
      '09120000005',
      '09120000006',
      '09120000007',
    ]);
  });

  it('no matching recipient: an empty segment', async () => {
    const t = core();
    const { accountId, executionId } = fixture(t);
    t.core.db.prepare('UPDATE messages SET status = 10').run();
    const { segment, members } = await segmentOf(t, accountId, executionId, 'failed');
    expect(segment).toMatchObject({ status: 'ready', member_count: 0 });
    expect(members).toEqual([]);
  });

  it("another account's execution is 404", async () => {
    const t = core();
    const { executionId } = fixture(t);
    await expect(
      segmentFromResults(t.core.db, t.core.imports, {
        accountId: t.otherId,
        executionId,
        kind: 'failed',
        name: 'x',
        dataDir: t.dir,
      }),
    ).rejects.toMatchObject({ code: 404 });
  });
});

describe('results files left by a crash', () => {
  it('are removed on the next start unless their import is still open', async () => {
    const t = openCore();
    const dir = path.join(t.dir, RESULTS_DIR);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'execution-1-failed-orphan.csv'), 'phone_number\n09120000001\n');
    await t.close();
    const again = openCore(t.dir);
    open.push(again);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe("a finished execution's outcomes", () => {
  it('are kept once every message is final, and read from then on', () => {
    const t = core();
    const { accountId, executionId } = fixture(t);
    const stored = () =>
      t.core.db
        .prepare<[number], string | null>('SELECT outcomes FROM campaign_executions WHERE id = ?')
        .pluck()
        .get(executionId);
    // One message still on its way (4): counted, not kept.
    expect(t.core.campaigns.report(accountId, executionId)).toMatchObject({ sent: 7, delivered: 2, pending: 1 });
    expect(stored()).toBeNull();
    t.core.db.prepare("UPDATE messages SET status = 10 WHERE receptor = '09120000006'").run();
    const report = t.core.campaigns.report(accountId, executionId);
    expect(report).toMatchObject({ sent: 7, delivered: 3, failed: 4, pending: 0 });
    expect(JSON.parse(stored()!)).toEqual({ sent: 7, delivered: 3, failed: 4, pending: 0 });
    // Messages archived later: the report keeps what they were.
    t.core.db.prepare("DELETE FROM messages WHERE receptor <> '09129999999'").run();
    expect(t.core.campaigns.report(accountId, executionId)).toMatchObject({
      sent: 7,
      delivered: 3,
      failed: 4,
      pending: 0,
    });
  });
});
