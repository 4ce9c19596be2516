// The lifecycle table (shared/lifecycle.ts) drives the core: every move it lists is made (with its
// refund exactly when it says), every move it does not list is refused, and no status number is
// written anywhere in the service's or the renderer's source but in the table.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../../test/helpers/server';
import { testCores } from '../../../test/helpers/core';
import { ALL_STATUSES, FINAL_STATUSES, LIFECYCLE, STORED_STATUSES, moveOf } from '../../../shared/lifecycle';
import { outcomeFor } from './carriers/simulator';

const cores = testCores();

describe('the lifecycle table drives the core', () => {
  it('makes exactly the moves the table lists, refunding exactly the ones it marks', () => {
    const core = cores.open();
    const account = core.accounts.findByName('acme')!.id;
    const { firstMessageId: id } = core.messaging.accept.accept({
      accountId: account,
      origin: 'api-v2',
      sender: '30001111',
      text: 'x',
      receivers: ['09120000001'],
      rule: 'strict',
    });
    const setStatus = core.db.prepare('UPDATE messages SET status = ? WHERE id = ?');
    const refunds = core.db.prepare("DELETE FROM credit_ledger WHERE kind = 'refund' AND message_id = ?");
    let checked = 0;
    for (const from of STORED_STATUSES)
      for (const to of ALL_STATUSES) {
        setStatus.run(from, id);
        refunds.run(id);
        const balance = core.credit.balance(account);
        const moved = core.messaging.lifecycle.report([{ id, status: to }]);
        const move = moveOf(from, to);
        expect({ from, to, moved: moved.length }).toEqual({ from, to, moved: move ? 1 : 0 });
        const refunded = core.credit.balance(account) - balance;
        expect({ from, to, refunded }).toEqual({ from, to, refunded: move?.refund ? 1500 : 0 });
        // Put the credit back as it was for the next pair.
        if (refunded)
          core.db.prepare('UPDATE accounts SET credit_rials = credit_rials - ? WHERE id = ?').run(refunded, account);
        checked++;
      }
    expect(checked).toBe(STORED_STATUSES.length * ALL_STATUSES.length);
  });

  it('final statuses have no moves, answers-only statuses are never stored, the simulator ends in a final one', () => {
    for (const status of ALL_STATUSES) {
      if (LIFECYCLE[status].final) expect(LIFECYCLE[status].moves).toEqual([]);
      if (!LIFECYCLE[status].stored) for (const from of STORED_STATUSES) expect(moveOf(from, status)).toBeNull();
    }
    const simulator = { seed: 1, handoff_ms: 0, delivery_ms: 0, outcomes: { '10': 1, '11': 1, '13': 1, '14': 1 } };
    const seen = new Set<number>();
    for (let id = 1; id < 2000; id++) seen.add(outcomeFor(simulator, id));
    expect([...seen].sort((a, b) => a - b)).toEqual([...FINAL_STATUSES].sort((a, b) => a - b));
  });

  it('no status number is written in the service or renderer source outside the table', () => {
    // SQL comparisons with a number, comparisons in code, switch cases and number-keyed tables.
    const literal =
      /\bstatus\s*(=|==|===|!==|!=|<>|IN\s*\()\s*[0-9]|\bcase\s+(0|1|2|4|6|10|11|13|14|15|100)\s*:|^\s*(0|1|2|4|6|10|11|13|14|15|100)\s*:\s*['"{]/m;
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !file.includes('migrations')) {
          const lines = fs.readFileSync(file, 'utf8').split('\n');
          lines.forEach((line, i) => {
            if (literal.test(line)) offenders.push(`${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
          });
        }
      }
    };
    walk(path.join(ROOT, 'electron'));
    walk(path.join(ROOT, 'renderer', 'src'));
    expect(offenders).toEqual([]);
  });
});
