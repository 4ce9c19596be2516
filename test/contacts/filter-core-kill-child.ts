// Child process of the save-as-segment crash test: opens a Core on the given data folder, writes a
// segment of MEMBERS members with a CITY column, starts "save as segment" of it filtered to
// CITY = تهران, and prints each progress event as a JSON line until the test kills it (SIGKILL).
import { Core } from '../../electron/service/core';
import { applySeed } from '../../electron/service/seed';
import { FIELD_SEPARATOR } from '../../electron/service/contacts/fields';
import { testSeed } from '../helpers/server';

const MEMBERS = 300_000;
/** CITY of member i by i mod 4: the first two are Tehran folded. */
const CITIES = ['تهران', 'ﺗﻬﺮﺍﻥ', 'كرج', 'طهران'];

const [dataDir] = process.argv.slice(2);
if (dataDir) {
  const core = new Core({ dataDir });
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
  core.db
    .prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
       INSERT INTO segment_members (segment_id, phone, fields)
       SELECT ?, '09' || (100000000 + (i * 7919) % 900000000),
         'n' || i || ? || CASE i % 4 ${CITIES.map((city, k) => `WHEN ${k} THEN '${city}'`).join(' ')} END FROM n`,
    )
    .run(MEMBERS, segment, FIELD_SEPARATOR);
  const started = core.segments.combine(
    account,
    {
      name: 'Tehran',
      include: [segment],
      exclude: [],
      filter: { all: [{ column: 'CITY', op: 'equals', value: 'تهران' }] },
    },
    (progress) => process.stdout.write(JSON.stringify(progress) + '\n'),
  );
  process.stdout.write(JSON.stringify({ started }) + '\n');
}
