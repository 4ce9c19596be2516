// `npm run serve -- --host 127.0.0.1 --port N --data DIR --seed FILE`: the headless service, the
// contract other tools rely on. Prints a line with http://HOST:PORT once it accepts requests, and
// stops cleanly on SIGTERM/SIGINT (the scheduler finishes its batch, the database is closed).
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { Core } from '../service/core';
import { OffsetClock } from '../service/clock';
import { applySeed, ensureDemoAccount } from '../service/seed';
import { buildHttpServer } from '../service/http/server';
import { defaultDataDir } from '../service/workspace/paths';
import { extraHttpPlugins } from './plugins';

const USAGE = 'usage: npm run serve -- [--host 127.0.0.1] [--port 8080] [--data DIR] [--seed FILE]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8080' },
      data: { type: 'string' },
      seed: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0-65535\n${USAGE}`);
  const dataDir = values.data ?? defaultDataDir();

  // End-to-end tests move the service's time forward instead of waiting (never set by users).
  const testClock = process.env.CHAPAR_TEST_CLOCK === '1' ? new OffsetClock() : null;
  const core = new Core({ dataDir, clock: testClock ?? undefined });
  if (values.seed) applySeed(core, JSON.parse(fs.readFileSync(values.seed, 'utf8')));
  const demo = values.seed ? null : ensureDemoAccount(core);

  const app = await buildHttpServer({ core, plugins: await extraHttpPlugins(core, { host: values.host }) });
  if (testClock)
    app.post<{ Body: { advance_ms?: number } }>('/test/clock', (request) => {
      const ms = Number(request.body?.advance_ms);
      if (!Number.isFinite(ms) || ms < 0) return { now: testClock.now() };
      testClock.advance(ms);
      return { now: testClock.now() };
    });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`chapar: ${signal}, stopping`);
    await app.close();
    await core.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ host: values.host, port });
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const host = values.host.includes(':') ? `[${values.host}]` : values.host;
  core.campaigns.setLocalAddress(`http://${host}:${actualPort}`);
  console.log(`chapar: data in ${dataDir}`);
  if (demo) console.log(`chapar: demo account created; API key: ${demo.key}`);
  console.log(`chapar: listening on http://${host}:${actualPort}`);
}

main().catch((error: unknown) => {
  console.error(`chapar: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
