// `npm start` where the desktop app cannot run (here: no Electron binary, no display): one line
// says why, then the headless service with the web UI starts, as `npm run serve` does, and stops
// cleanly on SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ROOT, tempDir } from './helpers/server';

// A test that fails before its SIGTERM leaves the service running: stopped the same way (start
// passes SIGTERM on to the serve it started; a SIGKILL would leave that one running), its exit
// awaited, then the folder goes.
let running: ChildProcess | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  const child = running;
  running = undefined;
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  }
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  dataDir = undefined;
});

it('falls back to the web UI with one line saying why', async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, CHAPAR_WEB_TOKEN: 'start-token' };
  delete env['DISPLAY'];
  delete env['WAYLAND_DISPLAY'];
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'electron', 'cli', 'start.mjs'),
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--data',
      (dataDir = tempDir('chapar-start-')),
    ],
    {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  running = child;
  let output = '';
  child.stderr.on('data', (chunk) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      // serve prints `listening on` first, then the web UI's address.
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match && output.includes('chapar: web UI:')) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`start exited with ${code}:\n${output}`)));
  });
  const lines = output.trim().split('\n');
  expect(lines[0]).toMatch(
    /^chapar: desktop app unavailable here: (no Electron binary|no display).*; starting the web UI instead$/,
  );
  expect(lines.filter((line) => line.includes('desktop app unavailable'))).toHaveLength(1);
  expect(output).toContain(`chapar: web UI: ${url}/?token=start-token`);
  expect((await fetch(`${url}/health`)).status).toBe(200);

  const code = await new Promise<number | null>((resolve) => {
    child.once('exit', (exitCode) => resolve(exitCode));
    child.kill('SIGTERM');
  });
  expect(code).toBe(0);
  expect(output).toContain('chapar: SIGTERM, stopping');
});
