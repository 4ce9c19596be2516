// `npm run serve -- --host 127.0.0.1 --port N --data DIR --seed FILE`: the headless service, the
// contract other tools rely on. Prints a line with http://HOST:PORT once it accepts requests, and
// stops cleanly on SIGTERM/SIGINT (the scheduler finishes its batch, the database is closed).
// Listening beyond this computer needs --allow-remote: the API keys and the web UI's token then
// travel over plain HTTP on the network.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { Core } from '../service/core';
import { OffsetClock } from '../service/clock';
import { applySeed, ensureDemoAccount } from '../service/seed';
import { buildHttpServer } from '../service/http/server';
import { defaultDataDir } from '../service/workspace/paths';
import { createLogger } from '../service/log';
import { extraHttpPlugins } from './plugins';

const USAGE = 'usage: npm run serve -- [--host 127.0.0.1] [--port 8080] [--data DIR] [--seed FILE] [--allow-remote]';

/** Addresses only this computer can reach: 127.0.0.0/8, ::1 (also IPv4-mapped) and localhost. */
function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    bare === 'localhost' ||
    bare === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare) ||
    /^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare)
  );
}

const REMOTE_REFUSED = (host: string) =>
  `--host ${host} lets other computers reach this service over plain HTTP: the web UI's token and the API keys ` +
  'would travel unencrypted, readable by anyone on the network path. To allow it (an office network you trust), ' +
  'add --allow-remote; to keep it on this computer, use --host 127.0.0.1.';

const REMOTE_WARNING = (host: string) =>
  `chapar: WARNING: listening on ${host}, reachable from other computers. The web UI's token and the API keys ` +
  'travel over plain HTTP (unencrypted): use it only on a network you trust, and keep the web UI address private.';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8080' },
      data: { type: 'string' },
      seed: { type: 'string' },
      'allow-remote': { type: 'boolean', default: false },
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
  if (!isLoopback(values.host)) {
    if (!values['allow-remote']) throw new Error(REMOTE_REFUSED(values.host));
    console.warn(REMOTE_WARNING(values.host));
  }
  const dataDir = values.data ?? defaultDataDir();

  // End-to-end tests move the service's time forward instead of waiting (never set by users).
  const testClock = process.env.CHAPAR_TEST_CLOCK === '1' ? new OffsetClock() : null;
  const core = new Core({ dataDir, clock: testClock ?? undefined });
  if (values.seed) applySeed(core, JSON.parse(fs.readFileSync(values.seed, 'utf8')));
  const demo = values.seed ? null : ensureDemoAccount(core);

  const app = await buildHttpServer({
    core,
    plugins: await extraHttpPlugins(core, { host: values.host }),
    logger: createLogger({ kind: 'console' }),
  });
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

  // serve prints its own `listening on` line (the contract tools read, after the demo key):
  // Fastify's own line would come first.
  app.log.level = 'warn';
  await app.listen({ host: values.host, port });
  app.log.level = 'info';
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const host = values.host.includes(':') ? `[${values.host}]` : values.host;
  core.setLocalAddress(`http://${host}:${actualPort}`);
  console.log(`chapar: data in ${dataDir}`);
  if (demo) console.log(`chapar: demo account created; API key: ${demo.key}`);
  console.log(`chapar: listening on http://${host}:${actualPort}`);
}

main().catch((error: unknown) => {
  console.error(`chapar: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
