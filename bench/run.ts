// `npm run bench [-- name ...]`: runs every case in bench/cases (or the named ones), prints a table
// of each case's median time next to its floor measured in the same run, and writes
// bench/results.json. Benchmarks are not tests: nothing here fails on a slow machine.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchCase, BenchResult } from './case';

const here = path.dirname(fileURLToPath(import.meta.url));

async function main(): Promise<void> {
  const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
  const files = fs
    .readdirSync(path.join(here, 'cases'))
    .filter((file) => file.endsWith('.ts'))
    .sort();
  const results: BenchResult[] = [];
  for (const file of files) {
    const benchCase = ((await import(path.join(here, 'cases', file))) as { default: BenchCase }).default;
    if (wanted.length > 0 && !wanted.includes(benchCase.name)) continue;
    process.stdout.write(`running ${benchCase.name} ...\n`);
    results.push(await benchCase.run());
  }
  const rows = results.map((r) => ({
    case: r.name,
    'median ms': r.ms.toFixed(1),
    'floor ms': r.floorMs === null ? '-' : r.floorMs.toFixed(1),
    ratio: r.ratio === null ? '-' : r.ratio.toFixed(2),
    target: r.target,
    ...Object.fromEntries(Object.entries(r.extra).map(([k, v]) => [k, String(v)])),
  }));
  console.table(rows);
  const out = path.join(here, 'results.json');
  fs.writeFileSync(
    out,
    JSON.stringify({ date: new Date().toISOString(), node: process.version, results }, null, 2) + '\n',
  );
  console.log(`written ${path.relative(process.cwd(), out)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
