// Child process of the import1m bench: opens a Core on a fresh data folder and imports the given
// file through the real path (preview, queued job, scheduler, worker thread, batched commits).
// Prints one JSON line: elapsed ms from start() to the job's end, rows, and the process's peak RSS
// (the worker thread shares it), sampled and as reported by the OS.
import { Core } from '../../electron/service/core';

const [dataDir, file] = process.argv.slice(2);
if (!dataDir || !file) throw new Error('usage: import-child.ts DATA_DIR FILE');
const core = new Core({ dataDir });
const account = core.accounts.create({ name: 'bench', active: true, ip_allowlist: [] });
let peak = process.memoryUsage.rss();
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
const start = performance.now();
const { jobId } = await core.imports.start(account.id, { file, name: 'bench' });
const job = await core.imports.wait(jobId);
const ms = performance.now() - start;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage.rss());
await core.close();
process.stdout.write(
  JSON.stringify({
    ms,
    status: job.status,
    valid: job.valid,
    invalid: job.invalid,
    total: job.total,
    peakRssMb: peak / 2 ** 20,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  }) + '\n',
);
