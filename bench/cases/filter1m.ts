// filter1m: issue 36's targeting by column. A 1,000,000-member segment with NAME and CITY columns,
// CITY written the ways sheets write it (تهران, Arabic presentation forms ﺗﻬﺮﺍﻥ, with spaces and
// ZWNJ, the older spelling طهران, كرج with an Arabic kaf, Latin, Persian digits in a district):
// - the case: the count of CITY = تهران as the editor asks it (segments:combineCount), on a reader
//   thread (Segments.audienceCountOffThread), every member's CITY tested by the filter (never
//   a count kept from before);
// - the floor: the same count without a filter, on the same reader thread (the distinct members
//   the filter is tested on), measured in the same run;
// - in `extra`: the raw SQL count of the segment on the main thread, the longest the main thread's
//   event loop was held during the filtered counts, and the freeze's statement over the whole
//   audience (audienceSelect, one chunk) with and without the filter.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import fs from 'node:fs';
import { Core } from '../../electron/service/core';
import { applySeed } from '../../electron/service/seed';
import { tempDir, testSeed } from '../../test/helpers/server';
import { audienceSelect } from '../../electron/service/contacts/audience';
import { FIELD_SEPARATOR } from '../../electron/service/contacts/fields';
import type { AudienceFilter } from '../../shared/audience-filter';
import { median, type BenchCase } from '../case';

const MEMBERS = 1_000_000;
const RUNS = 5;
/** CITY of member i by i mod 10; 0, 1, 2, 3 and 8 are Tehran folded. */
const CITIES = ['تهران', 'ﺗﻬﺮﺍﻥ', ' تهران ', 'تهـران', 'طهران', 'كرج', 'کرج', 'قم ۲', 'تهران', 'Tehran'];
const TEHRAN = MEMBERS * 0.5;

const filter1m: BenchCase = {
  name: 'filter1m',
  async run() {
    const dir = tempDir('chapar-bench-filter-');
    const core = new Core({ dataDir: dir, startScheduler: false });
    try {
      applySeed(core, testSeed());
      const account = core.accounts.findByName('acme')!.id;
      const segment = Number(
        core.db
          .prepare(
            `INSERT INTO segments (account_id, name, columns, status, member_count, origin, created_at, updated_at)
             VALUES (?, 'cities', '["NAME","CITY"]', 'ready', ?, 'import', 0, 0)`,
          )
          .run(account, MEMBERS).lastInsertRowid,
      );
      process.stdout.write('  writing 1,000,000 members ...\n');
      core.db
        .prepare(
          `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
           INSERT INTO segment_members (segment_id, phone, fields)
           SELECT ?, '09' || (100000000 + (i * 7919) % 900000000),
             'customer ' || i || ? || CASE i % 10 ${CITIES.map((city, k) => `WHEN ${k} THEN '${city}'`).join(' ')} END
           FROM n`,
        )
        .run(MEMBERS, segment, FIELD_SEPARATOR);
      core.db.pragma('wal_checkpoint(TRUNCATE)');
      // Filtered counts are kept until the data changes (Segments.audienceCount): each run asks
      // with a value written differently (trailing spaces, folded away) so that none is kept.
      const tehran = (run: number): AudienceFilter => ({
        all: [{ column: 'city', op: 'equals', value: 'تهران' + ' '.repeat(run) }],
      });
      const filter = tehran(0);
      const audience = { include: [segment], exclude: [], filter };

      // Warm up: the reader thread's boot and the file's pages.
      await core.segments.audienceCountOffThread(account, { ...audience, filter: tehran(RUNS + 1) });
      await core.segments.audienceCountOffThread(account, { ...audience, filter: null });

      const times: number[] = [];
      const floors: number[] = [];
      const raws: number[] = [];
      let held = 0;
      for (let run = 0; run < RUNS; run++) {
        const delay = monitorEventLoopDelay({ resolution: 5 });
        delay.enable();
        let started = performance.now();
        const counted = await core.segments.audienceCountOffThread(account, { ...audience, filter: tehran(run + 1) });
        times.push(performance.now() - started);
        delay.disable();
        held = Math.max(held, delay.max / 1e6);
        if (counted !== TEHRAN) throw new Error(`counted ${counted}, expected ${TEHRAN}`);
        started = performance.now();
        const all = await core.segments.audienceCountOffThread(account, { ...audience, filter: null });
        floors.push(performance.now() - started);
        if (all !== MEMBERS) throw new Error(`counted ${all} members`);
        started = performance.now();
        core.db.prepare('SELECT count(*) FROM segment_members WHERE segment_id = ?').pluck().get(segment);
        raws.push(performance.now() - started);
      }

      // The freeze's statement over the whole audience in one chunk, with and without the filter.
      const freeze = (withFilter: boolean) => {
        const started = performance.now();
        const select = core.db.transaction(() =>
          audienceSelect(core.db, { ...audience, accountId: account, filter: withFilter ? filter : null }, '', null),
        )();
        const n = core.db
          .prepare(`SELECT count(*) FROM (${select.sql})`)
          .pluck()
          .get(...select.params) as number;
        if (n !== (withFilter ? TEHRAN : MEMBERS)) throw new Error(`froze ${n}`);
        return performance.now() - started;
      };
      const plainFreeze = freeze(false);
      const filteredFreeze = freeze(true);

      const ms = median(times);
      const floorMs = median(floors);
      const round = (value: number) => Math.round(value);
      return {
        name: 'filter1m',
        ms,
        floorMs,
        ratio: ms / floorMs,
        target: 'filtered count < 1000 ms off the main thread (ratio: the filter’s cost over the plain count)',
        extra: {
          members: MEMBERS,
          matching: TEHRAN,
          max_ms: round(Math.max(...times)),
          raw_sql_count_ms: round(median(raws)),
          loop_held_max_ms: round(held),
          freeze_select_plain_ms: round(plainFreeze),
          freeze_select_filtered_ms: round(filteredFreeze),
        },
      };
    } finally {
      await core.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default filter1m;
