// Targeting by column through the IPC the editor calls, with the real core and dispatcher: the
// live count with a filter (on a reader thread: a million-member count leaves the event loop free),
// the columns' commonest values, "save as segment" of a filtered audience, the quote's filtered-out
// count and its refusal of an unknown column, drafts keeping their filter.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Core } from '../core';
import { applySeed } from '../seed';
import { eventually, tempDir, testSeed } from '../../../test/helpers/server';
import { ipcCalls } from '../../../test/helpers/ipc';
import { createDispatcher, type IpcDispatcher } from './dispatcher';
import { FIELD_SEPARATOR } from '../contacts/fields';
import { CampaignDraftFieldsSchema } from '../../../shared/campaigns';
import type { AudienceFilter } from '../../../shared/audience-filter';
import { en } from '../../../renderer/src/i18n/en';
import { fa } from '../../../renderer/src/i18n/fa';
import fs from 'node:fs';
import { ROOT } from '../../../test/helpers/server';

let core: Core;
let dispatcher: IpcDispatcher;
let account: number;

const { ok, refused } = ipcCalls(() => dispatcher);

beforeEach(() => {
  core = new Core({ dataDir: path.join(tempDir('chapar-ipc-filter-'), 'data') });
  applySeed(core, testSeed());
  dispatcher = createDispatcher(core, { mode: 'desktop' });
  account = core.accounts.findByName('acme')!.id;
});
afterEach(async () => {
  dispatcher.close();
  await core.close();
});

const phone = (n: number) => `0912${String(n).padStart(7, '0')}`;

/** A ready segment of rows [number, ...values] with `columns`, written as an import leaves it. */
function segment(name: string, columns: string[], rows: Array<[number, ...string[]]>): number {
  const id = Number(
    core.db
      .prepare(
        `INSERT INTO segments (account_id, name, columns, status, member_count, origin, created_at, updated_at)
         VALUES (?, ?, ?, 'ready', ?, 'import', 0, 0)`,
      )
      .run(account, name, JSON.stringify(columns), rows.length).lastInsertRowid,
  );
  const insert = core.db.prepare('INSERT INTO segment_members (segment_id, phone, fields) VALUES (?, ?, ?)');
  for (const [n, ...values] of rows) insert.run(id, phone(n), values.join(FIELD_SEPARATOR));
  return id;
}

const tehran: AudienceFilter = { all: [{ column: 'CITY', op: 'equals', value: 'تهران' }] };

function shop() {
  const a = segment(
    'a',
    ['NAME', 'CITY'],
    [
      [1, 'x', 'تهران'],
      [2, 'y', 'ﺗﻬﺮﺍﻥ'],
      [3, 'z', 'قم'],
      [4, 'w', 'كرج'],
      [5, 'v', 'تهران '],
      [6, 'u', 'طهران'],
    ],
  );
  // 3 is in Tehran by b's row, but a has it first (Qom); 7 is only in b.
  const b = segment(
    'b',
    ['City', 'AGE'],
    [
      [3, 'تهران', '20'],
      [7, 'تهران', '30'],
      [8, 'کرج', '40'],
    ],
  );
  const out = segment('out', [], [[5]]);
  core.optouts.add(account, [phone(2)]);
  return { a, b, out };
}

describe('targeting by column over IPC', () => {
  it('counts a filtered audience, judging a number by its first inclusion segment', async () => {
    const { a, b, out } = shop();
    const count = (include: number[], exclude: number[] = [], filter: AudienceFilter | null = tehran) =>
      ok('segments:combineCount', { account_id: account, include, exclude, filter });
    // a: 1, 2 (opted out), 5; b: 7 (3 is a's Qom).
    expect(await count([a, b])).toEqual({ count: 3 });
    expect(await count([b, a])).toEqual({ count: 4 }); // 3 by b's row now
    expect(await count([a, b], [out])).toEqual({ count: 2 });
    expect(await count([a, b], [], null)).toEqual({ count: 7 });
    // A filtered count is kept until the opt-outs or a segment change.
    core.optouts.add(account, [phone(1)]);
    expect(await count([a, b])).toEqual({ count: 2 });
    expect(core.segments.audienceCount(account, { include: [a, b], filter: tehran })).toBe(2);
    core.db.prepare('DELETE FROM segment_members WHERE segment_id = ? AND phone = ?').run(b, phone(7));
    core.db.prepare('UPDATE segments SET member_count = 2, updated_at = 1 WHERE id = ?').run(b);
    expect(await count([a, b])).toEqual({ count: 1 });
    const unknown = await refused('segments:combineCount', {
      account_id: account,
      include: [a],
      filter: { all: [{ column: 'AGE', op: 'equals', value: '20' }] },
    });
    expect(unknown.reason).toBe('filter.column_unknown');
    const reversed = await refused('segments:combineCount', {
      account_id: account,
      include: [b],
      filter: { all: [{ column: 'AGE', op: 'between', kind: 'number', from: '50', to: '10' }] },
    });
    expect(reversed.reason).toBe('filter.bounds_reversed');
  });

  it('offers each column with its commonest values, folded', async () => {
    const { a, b } = shop();
    const columns = await ok('segments:columnValues', { account_id: account, segment_ids: [a, b] });
    expect(columns.map((c) => c.column)).toEqual(['NAME', 'CITY', 'AGE']);
    const city = columns.find((c) => c.column === 'CITY')!;
    expect(city.sampled).toBe(9);
    expect(city.values.slice(0, 2)).toEqual([
      { value: 'تهران', count: 5 },
      { value: 'کرج', count: 2 },
    ]);
    const one = await ok('segments:columnValues', { account_id: account, segment_ids: [b], column: 'age' });
    expect(one).toEqual([
      {
        column: 'AGE',
        sampled: 3,
        distinct: 3,
        values: [
          { value: '20', count: 1 },
          { value: '30', count: 1 },
          { value: '40', count: 1 },
        ],
      },
    ]);
  });

  it('saves a filtered audience as a segment, its columns kept', async () => {
    const { a, b, out } = shop();
    const saved = await ok('segments:fromAudience', {
      account_id: account,
      include: [a, b],
      exclude: [out],
      filter: tehran,
      name: 'تهرانی‌ها',
    });
    await core.imports.wait(saved.job_id);
    await core.jobs.waitForIdle();
    const made = await ok('segments:get', { account_id: account, segment_id: saved.segment_id });
    // A combine keeps each segment's column names as written (b's City beside a's CITY).
    expect(made).toMatchObject({ member_count: 2, columns: ['NAME', 'CITY', 'City', 'AGE'] });
    expect(made.source.label).toContain('CITY = تهران');
    const members = await ok('segments:members', { account_id: account, segment_id: saved.segment_id });
    expect(members.members.map((m) => [m.phone, m.fields['CITY'], m.fields['City'], m.fields['AGE']]).sort()).toEqual([
      [phone(1), 'تهران', '', ''],
      [phone(7), '', 'تهران', '30'],
    ]);
    // Its count agrees with the live one.
    expect(
      await ok('segments:combineCount', { account_id: account, include: [a, b], exclude: [out], filter: tehran }),
    ).toEqual({
      count: 2,
    });
  });

  it('quotes a filtered campaign: who the filter leaves out, and an unknown column as the problem', async () => {
    const { a, b } = shop();
    const fields = CampaignDraftFieldsSchema.parse({
      name: 'Tehran',
      sender: '30001111',
      template_body: 'سلام {{NAME}}',
      inclusion_segments: [a, b],
      filter: tehran,
    });
    const quote = await ok('campaigns:quote', { account_id: account, fields });
    expect(quote.audience).toMatchObject({ included: 8, excluded: 0, opted_out: 1, filtered_out: 4, recipients: 3 });
    expect(quote.problem).toBeNull();
    const bad = await ok('campaigns:quote', {
      account_id: account,
      fields: { ...fields, filter: { all: [{ column: 'BIRTHDAY', op: 'equals', value: 'x' }] } },
    });
    expect(bad.problem).toMatchObject({ code: 400, reason: 'filter.column_unknown' });
    // A draft keeps its filter.
    const draft = await ok('campaigns:draftSave', { account_id: account, fields });
    expect((await ok('campaigns:draftGet', { account_id: account, draft_id: draft.draft_id })).fields.filter).toEqual(
      tehran,
    );
    // Created from the editor, the campaign says its filter.
    const created = await ok('campaigns:create', {
      account_id: account,
      ...fields,
      send_datetime: '2030-01-01T10:00:00Z',
      draft_id: draft.draft_id,
    });
    expect((await ok('campaigns:get', { account_id: account, campaign_id: created.campaign_id })).filter).toEqual(
      tehran,
    );
  });

  it('counts a million members with a filter on a reader thread, the event loop free meanwhile', async () => {
    const id = Number(
      core.db
        .prepare(
          `INSERT INTO segments (account_id, name, columns, status, member_count, origin, created_at, updated_at)
           VALUES (?, 'million', '["CITY"]', 'ready', 1000000, 'import', 0, 0)`,
        )
        .run(account).lastInsertRowid,
    );
    core.db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < 1000000)
         INSERT INTO segment_members (segment_id, phone, fields)
         SELECT ?, '09' || (100000000 + (i * 7919) % 900000000), CASE i % 4 WHEN 0 THEN 'ﺗﻬﺮﺍﻥ' WHEN 1 THEN 'تهران' ELSE 'كرج' END FROM n`,
      )
      .run(id);
    const before = core.readers.stats().started;
    let longest = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 5);
    try {
      const counted = await ok('segments:combineCount', { account_id: account, include: [id], filter: tehran });
      expect(counted).toEqual({ count: 500_000 });
    } finally {
      clearInterval(ticker);
    }
    expect(core.readers.stats().started).toBeGreaterThan(before);
    // The count itself takes most of a second or more here; the main thread was never held for long.
    expect(longest).toBeLessThan(250);
    await eventually(() => (core.readers.stats().busy === 0 ? true : undefined));
  }, 90_000);
});

describe('the filter’s reasons', () => {
  it('each has its sentence in both languages', () => {
    const sources = ['electron/service/campaigns/form.ts', 'shared/column-values.ts'].map((file) =>
      fs.readFileSync(path.join(ROOT, file), 'utf8'),
    );
    const reasons = new Set(sources.flatMap((text) => [...text.matchAll(/'filter\.([a-z_]+)'/g)].map((m) => m[1]!)));
    expect(reasons.size).toBeGreaterThanOrEqual(12);
    for (const reason of reasons) {
      expect(en.errors.reasons.filter, reason).toHaveProperty(reason);
      expect(fa.errors.reasons.filter, reason).toHaveProperty(reason);
    }
  });
});
