// `npm run serve` runs the service from a build of it (electron/cli/serve.mjs): made on the first
// start, kept while the sources stay as they were, made again once they change. The build is the
// whole service: the API, the web UI's page and bridge, and the worker threads beside it (an
// upload's import runs in one).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { post, spawnServe, tempDir, testSeed, KEY, ROOT, type ServeProcess } from '../helpers/server';
import { until } from '../helpers/two-services';

const running: ServeProcess[] = [];
// Inside the repository, as the real one (out/serve): the build finds the installed packages from there.
const buildDir = path.join(ROOT, 'out', `serve-test-${process.pid}`);
afterAll(async () => {
  for (const server of running) await server.stop('SIGKILL');
  fs.rmSync(buildDir, { recursive: true, force: true });
});

async function serve(args: Parameters<typeof spawnServe>[0]): Promise<ServeProcess> {
  const server = await spawnServe(args);
  running.push(server);
  return server;
}

function seeded(dir: string): { dataDir: string; seedFile: string } {
  const seedFile = path.join(dir, 'seed.json');
  fs.writeFileSync(seedFile, JSON.stringify(testSeed()));
  return { dataDir: path.join(dir, 'data'), seedFile };
}

/** A one-message v2 send to `server`: its answer. */
function sendOne(server: ServeProcess, message = 'hello') {
  return post(`${server.url}/v2/sms/send`, { message, sender: '30001111', receivers: ['09121234567'] }, KEY);
}

describe('npm run serve from its build', () => {
  const dir = tempDir();
  const builtAt = () => fs.statSync(path.join(buildDir, 'serve.js')).mtimeMs;

  it('builds on the first start and serves the API, the web UI and an import in a worker thread', async () => {
    const server = await serve({ ...seeded(dir), buildDir, webUi: true });
    for (const file of ['serve.js', 'import-worker.js', 'reader-worker.js', 'build.json'])
      expect(fs.existsSync(path.join(buildDir, file)), file).toBe(true);
    // The build ran, not the sources (the fall-back to them says so).
    expect(server.output()).not.toMatch(/could not build/);
    // The builder's own process (esbuild's service) went with the build.
    const pid = server.child.pid!;
    expect(fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim()).toBe('');

    const sent = await sendOne(server, 'سلام');
    expect(sent.status).toBe(200);
    expect(sent.body.entries[0].status).toBe(1);

    // The page, found from the build's folder (the repository's out/renderer).
    const token = new URL(server.webUrl!).searchParams.get('token');
    const page = await fetch(`${server.url}/`, { headers: { authorization: `Bearer ${token}` } });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<html/i);

    const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
    const created = await fetch(`${server.url}/v2/sms/campaigns/contacts`, {
      method: 'POST',
      headers,
      body: JSON.stringify([
        { phone_number: '09121111111', NAME: 'Ali' },
        { phone_number: '09122222222', NAME: 'Sara' },
      ]),
    });
    expect(created.status).toBe(201);
    const { upload_data_id } = ((await created.json()) as { entries: { upload_data_id: number } }).entries;
    const done = await until(
      'upload imported',
      async () =>
        (
          (await (await fetch(`${server.url}/v2/sms/campaigns/contacts/${upload_data_id}`, { headers })).json()) as {
            entries: { status: string; valid: number };
          }
        ).entries,
      (entries) => entries.status === 'COMPLETED' || entries.status === 'FAILED',
      30_000,
      100,
    );
    expect(done).toMatchObject({ status: 'COMPLETED', valid: 2 });
    expect(await server.stop('SIGTERM')).toBe(0);
  });

  it('starts from the same build while the sources are unchanged, and builds again once they change', async () => {
    const first = builtAt();
    const again = await serve({ ...seeded(tempDir()), buildDir });
    expect(builtAt()).toBe(first);
    expect(await again.stop('SIGTERM')).toBe(0);

    // A build made from other sources (its fingerprint differs) is stale.
    const stamp = path.join(buildDir, 'build.json');
    const made = JSON.parse(fs.readFileSync(stamp, 'utf8')) as { sources: string };
    fs.writeFileSync(stamp, JSON.stringify({ sources: 'other' }));
    const rebuilt = await serve({ ...seeded(tempDir()), buildDir });
    expect(builtAt()).toBeGreaterThan(first);
    expect(JSON.parse(fs.readFileSync(stamp, 'utf8'))).toEqual(made);
    expect((await sendOne(rebuilt)).status).toBe(200);
    expect(await rebuilt.stop('SIGTERM')).toBe(0);
  });

  it('runs the sources when told to (CHAPAR_SERVE_BUILD=off)', async () => {
    const server = await serve({ ...seeded(tempDir()), buildDir: 'off' });
    expect((await sendOne(server)).status).toBe(200);
    expect(await server.stop('SIGTERM')).toBe(0);
  });
});
