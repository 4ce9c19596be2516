// `npm start`: the desktop app where Electron can run (its binary is installed and, on Linux, a
// display is set): better-sqlite3 built for Electron, the app built, Electron launched. Anywhere
// else one line says why, and the headless service starts with the web UI instead (the same as
// `npm run serve` with defaults; arguments after `--` go to it), printing the URL with its token.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT, electronBinary, whyNoDesktop } from './electron-env.mjs';

function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
    // Ctrl+C and service managers stop the child cleanly (serve closes its database).
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 1 : 0));
    });
    child.on('error', (error) => {
      console.error(`chapar: ${command}: ${error.message}`);
      resolve(1);
    });
  });
}

async function desktop() {
  const { buildElectronSqlite } = await import('./electron-native.mjs');
  await buildElectronSqlite();
  const build = await run(process.execPath, [
    path.join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'),
    'build',
  ]);
  if (build !== 0) return build;
  return run(electronBinary(), [ROOT], { env: { ...process.env, ELECTRON_RUN_AS_NODE: undefined } });
}

async function web() {
  return run(process.execPath, [
    '--import',
    'tsx',
    path.join(ROOT, 'electron', 'cli', 'serve.ts'),
    ...process.argv.slice(2),
  ]);
}

const reason = whyNoDesktop();
if (reason) console.log(`chapar: desktop app unavailable here: ${reason}; starting the web UI instead`);
process.exit(await (reason ? web() : desktop()));
