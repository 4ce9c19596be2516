// A process killed (SIGKILL) in the middle of executing a 100,000-recipient campaign, then started
// again: the execution resumes from its last committed batch and ends with exactly 100,000
// messages, none twice, and the credit debited exactly once per message — by the ledger, and by
// what the account can still afford afterwards.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../electron/service/core';
import { eventually, exited, ROOT, tempDir } from '../helpers/server';
import { ApiCode } from '../../shared/status';

const MEMBERS = 100_000;
// "سلام name N https://…/l/XXXXXXXX" with the opt-out phrase is one UCS-2 page (70 units) or two:
// the test reads the real cost from the messages and checks the account against it.
const SPARE_MESSAGES = 5;

describe('a campaign execution killed mid-way', () => {
  // A test that fails before its kill leaves the child running (it never ends on its own): killed
  // and its exit awaited; a test that timed out may still hold its core: closed (a second close
  // waits for the first). Then the folder goes, once nothing writes into it.
  let running: ChildProcess | undefined;
  let opened: Core | undefined;
  let workspace: string | undefined;
  afterEach(async () => {
    if (running) {
      running.kill('SIGKILL');
      await exited(running);
      running = undefined;
    }
    await opened?.close();
    opened = undefined;
    if (workspace) fs.rmSync(workspace, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    workspace = undefined;
  });

  it('resumes after SIGKILL with every recipient once and one debit per message', { timeout: 180_000 }, async () => {
    const dataDir = tempDir('chapar-campaign-crash-');
    workspace = dataDir;
    // Two pages of 1,500 rials at most per message, plus room for five more one-page messages.
    const credit = MEMBERS * 3_000 + SPARE_MESSAGES * 1_500;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'test/campaigns/kill-child.ts'), dataDir, String(MEMBERS), String(credit)],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    running = child;
    let stderr = '';
    child.stderr!.on('data', (data) => (stderr += data));
    const killedAt = await new Promise<{ recorded: number; execution_id: number }>((resolve, reject) => {
      let buffer = '';
      child.stdout!.on('data', (data: Buffer) => {
        buffer += data.toString();
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const event = JSON.parse(buffer.slice(0, newline)) as { recorded: number; execution_id: number };
          buffer = buffer.slice(newline + 1);
          if (event.recorded >= 20_000) {
            child.kill('SIGKILL');
            resolve(event);
          }
        }
      });
      child.on('exit', (code, signal) => {
        if (signal !== 'SIGKILL') reject(new Error(`child ended ${code} before the kill:\n${stderr}`));
      });
    });
    await exited(child);
    running = undefined;

    const core = new Core({ dataDir });
    opened = core;
    try {
      const id = killedAt.execution_id;
      const before = core.db
        .prepare<[number], { recorded: number }>('SELECT recorded FROM campaign_executions WHERE id = ?')
        .get(id)!;
      // Killed in the middle: some recipients recorded, not all.
      expect(before.recorded).toBeGreaterThanOrEqual(20_000);
      expect(before.recorded).toBeLessThan(MEMBERS);

      const deadline = Date.now() + 120_000;
      for (;;) {
        const row = core.db
          .prepare<[number], { recorded: number; audience: number }>(
            'SELECT recorded, audience FROM campaign_executions WHERE id = ?',
          )
          .get(id)!;
        if (row.recorded === MEMBERS) break;
        if (Date.now() > deadline) throw new Error(`stuck at ${row.recorded}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const account = core.accounts.findByName('acme')!;
      // Everything recorded, the execution's next step gives back what its reservation still
      // holds: waited for, not assumed done within a fixed 200 ms.
      await eventually(() => (core.credit.held(account.id) === 0 ? true : undefined), 30_000);
      const totals = core.db
        .prepare<[number], { messages: number; receptors: number; cost: number; sends: number }>(
          `SELECT count(*) AS messages, count(DISTINCT m.receptor) AS receptors, total(m.cost_rials) AS cost,
             count(DISTINCT m.send_id) AS sends
           FROM campaign_batches b JOIN messages m ON m.send_id = b.send_id WHERE b.execution_id = ?`,
        )
        .get(id)!;
      expect(totals.messages).toBe(MEMBERS);
      expect(totals.receptors).toBe(MEMBERS);
      expect(core.db.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(MEMBERS);
      expect(core.db.prepare('SELECT count(*) FROM campaign_batches WHERE execution_id = ?').pluck().get(id)).toBe(
        totals.sends,
      );
      // One 'send' debit per batch, together exactly the messages' costs; nothing held any more.
      const debits = core.db
        .prepare<[number], { n: number; sum: number }>(
          "SELECT count(*) AS n, -total(amount_rials) AS sum FROM credit_ledger WHERE account_id = ? AND kind = 'send'",
        )
        .get(account.id)!;
      expect(debits).toEqual({ n: totals.sends, sum: totals.cost });
      expect(core.credit.held(account.id)).toBe(0);
      expect(core.credit.balance(account.id)).toBe(credit - totals.cost);
      expect(core.credit.ledgerSum(account.id)).toBe(core.credit.balance(account.id));
      // What is left buys exactly the spare messages (and the rest of the two-page margin).
      const left = core.credit.balance(account.id);
      const affordable = Math.floor(left / 1_500);
      const receivers = Array.from({ length: affordable + 1 }, (_, i) => '0935' + String(i).padStart(7, '0'));
      const quote = core.messaging.accept.quote({
        accountId: account.id,
        origin: 'panel',
        sender: '30001111',
        text: 'سلام',
        receivers,
        rule: 'lenient',
      });
      expect(quote.refusal).toBe(ApiCode.NoCredit);
      const sent = core.messaging.accept.accept({
        accountId: account.id,
        origin: 'panel',
        sender: '30001111',
        text: 'سلام',
        receivers: receivers.slice(0, affordable),
        rule: 'lenient',
      });
      expect(sent.accepted).toBe(affordable);
      expect(core.credit.balance(account.id)).toBe(left - affordable * 1_500);
    } finally {
      await core.close();
    }
  });
});
