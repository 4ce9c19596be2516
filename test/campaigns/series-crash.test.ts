// A daily series whose occurrence is killed (SIGKILL) while it records its recipients, in the real
// `serve` process on a real SQLite file, then started again: that occurrence ends with every
// recipient exactly once and one debit per message, and the next day's occurrence still comes.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../electron/service/core';
import { applySeed } from '../../electron/service/seed';
import { wallTimeAt } from '../../shared/time-zone';
import { eventually, KEY, spawnServe, tempDir, testSeed, type ServeProcess } from '../helpers/server';
import { writeSegment } from '../helpers/segments';

const MEMBERS = 40_000;
const KILL_AFTER = 5_000;
const DAY = 86_400_000;

const running: ServeProcess[] = [];
const folders: string[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()!.stop('SIGKILL');
  for (const folder of folders.splice(0))
    fs.rmSync(folder, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
});

async function serve(dataDir: string): Promise<ServeProcess> {
  const process = await spawnServe({ dataDir, env: { CHAPAR_TEST_CLOCK: '1' } });
  running.push(process);
  return process;
}

async function api(url: string, route: string, body?: unknown) {
  const response = await fetch(`${url}${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await response.json()) as { entries: any };
}

describe('a series occurrence killed while recording', () => {
  it(
    'resumes after SIGKILL: each recipient once, one debit per message, the next occurrence still made',
    {
      timeout: 240_000,
    },
    async () => {
      const dataDir = tempDir('chapar-series-crash-');
      folders.push(dataDir);
      // The workspace: a 40,000-member segment and a daily series due a minute from now (Tehran).
      const credit = 2 * MEMBERS * 3_000;
      const core = new Core({ dataDir, startScheduler: false });
      let campaignId: number;
      let executionId: number;
      try {
        const seed = testSeed({
          // Nothing moves past the queue meanwhile: the credit is what the campaign spent.
          simulator: { seed: 7, handoff_ms: 3_600_000, delivery_ms: 3_600_000, outcomes: { '10': 1 } },
        });
        seed.accounts![0]!.credit_rials = credit;
        applySeed(core, seed);
        const account = core.accounts.findByName('acme')!;
        const segmentId = writeSegment(core, account.id, 'daily', { from: 0, to: MEMBERS }, 300);
        const at = wallTimeAt(Date.now() + 60_000, 'Asia/Tehran');
        const created = core.campaigns.create(account.id, {
          sender: '30001111',
          name: 'daily',
          template_body: 'سلام {{NAME}}',
          send_datetime: new Date().toISOString(),
          inclusion_segments: [String(segmentId)],
          exclusion_segments: [],
          links: [],
          utm: {},
          repeat: 'daily',
          repeat_time: `${at.hour}:${String(at.minute).padStart(2, '0')}`,
        });
        campaignId = created.campaign_id;
        executionId = created.execution_id;
      } finally {
        await core.close();
      }

      const first = await serve(dataDir);
      await api(first.url, '/test/clock', { advance_ms: 120_000 });
      await eventually(async () => {
        const report = (await api(first.url, `/v2/sms/campaigns/executions/${executionId}`)).entries;
        return report.sent >= KILL_AFTER ? true : undefined;
      }, 120_000);
      running.splice(running.indexOf(first), 1);
      await first.stop('SIGKILL');

      const killed = new Database(path.join(dataDir, 'chapar.db'), { readonly: true });
      const recordedAtKill = killed
        .prepare<[number], number>('SELECT recorded FROM campaign_executions WHERE id = ?')
        .pluck()
        .get(executionId)!;
      killed.close();
      expect(recordedAtKill).toBeGreaterThanOrEqual(KILL_AFTER);
      expect(recordedAtKill).toBeLessThan(MEMBERS);

      const second = await serve(dataDir);
      await eventually(async () => {
        const report = (await api(second.url, `/v2/sms/campaigns/executions/${executionId}`)).entries;
        return report.sent === MEMBERS && report.reserved === 0 ? true : undefined;
      }, 150_000);
      let listed = (await api(second.url, `/v2/sms/campaigns/${campaignId}/executions`)).entries;
      const today = listed.series.occurrences.at(-1);
      expect(today).toMatchObject({ execution_id: executionId, missed: false });
      // The next day's is made, at the same local time.
      expect(listed.series.occurrences[0]).toMatchObject({ status: 'SCHEDULED', at: today.at + DAY });
      // And it comes: a day later (the service's clock moved), it starts.
      await api(second.url, '/test/clock', { advance_ms: DAY + 120_000 });
      const next = listed.series.occurrences[0].execution_id as number;
      await eventually(async () => {
        const report = (await api(second.url, `/v2/sms/campaigns/executions/${next}`)).entries;
        return report.sent > 0 ? true : undefined;
      }, 60_000);
      listed = (await api(second.url, `/v2/sms/campaigns/${campaignId}/executions`)).entries;
      expect(listed.series.occurrences).toHaveLength(3);
      running.splice(running.indexOf(second), 1);
      await second.stop('SIGKILL');

      const db = new Database(path.join(dataDir, 'chapar.db'), { readonly: true });
      try {
        const totals = db
          .prepare<[number], { messages: number; receptors: number; cost: number; sends: number }>(
            `SELECT count(*) AS messages, count(DISTINCT m.receptor) AS receptors, total(m.cost_rials) AS cost,
             count(DISTINCT m.send_id) AS sends
           FROM campaign_batches b JOIN messages m ON m.send_id = b.send_id WHERE b.execution_id = ?`,
          )
          .get(executionId)!;
        expect(totals).toMatchObject({ messages: MEMBERS, receptors: MEMBERS });
        // One execution per occurrence day, never two.
        const perDay = db
          .prepare(
            'SELECT occurrence, count(*) AS n FROM campaign_executions WHERE campaign_id = ? GROUP BY occurrence',
          )
          .all(campaignId) as Array<{ n: number }>;
        expect(perDay.every((row) => row.n === 1)).toBe(true);
        // Every message of every occurrence paid once: the send debits are exactly the messages' costs.
        const allCost = db.prepare('SELECT total(cost_rials) FROM messages').pluck().get() as number;
        const debits = db
          .prepare(
            "SELECT -total(amount_rials) FROM credit_ledger WHERE kind = 'send' AND account_id = (SELECT id FROM accounts WHERE name = 'acme')",
          )
          .pluck()
          .get() as number;
        expect(debits).toBe(allCost);
        const balance = db.prepare("SELECT credit_rials FROM accounts WHERE name = 'acme'").pluck().get() as number;
        const ledger = db
          .prepare(
            "SELECT total(amount_rials) FROM credit_ledger WHERE account_id = (SELECT id FROM accounts WHERE name = 'acme')",
          )
          .pluck()
          .get();
        expect(balance).toBe(ledger);
        expect(balance).toBe(credit - allCost);
      } finally {
        db.close();
      }
    },
  );
});
