import { configDefaults, defineConfig } from 'vitest/config';

// The tests come in three layers, by what a test does, each a project (`vitest run --project unit`):
// - unit: in-process (the core over a temporary SQLite file at most), no server, browser or child
//   process. Most sit beside their code.
// - integration: a real HTTP server on a loopback port, child processes, restarts. Most of test/.
// - e2e: drives Chromium or the built app: test/e2e/.
// Where a file is, is only the usual answer; the files where it is not are named below.
// test/layers.test.ts checks that every test file belongs to exactly one project.
export const BESIDE_CODE = ['electron/**/*.test.ts', 'shared/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}'];
/** Beside their code, yet each starts a real server or a child process. */
export const INTEGRATION_BESIDE_CODE = [
  'electron/main/http-api.test.ts', // the desktop app's API server on a loopback port
  'electron/service/accounts/keys.test.ts', // `npm run serve` as a child process
  'electron/service/db/readers.test.ts', // a script in a child process that must exit
  'electron/service/ipc/email.test.ts', // SMTP and HTTP servers on loopback ports
];
/** In test/, yet in-process: the core alone, over large files. */
export const UNIT_IN_TEST = [
  'test/contacts/multibyte.test.ts',
  'test/email-client/load.test.ts',
  'test/layers.test.ts',
];
export const E2E = ['test/e2e/**/*.test.ts'];

export default defineConfig({
  test: {
    // The settings below hold for every project (`extends: true`); onConsoleLog and reporters can
    // only be set here, for the whole run.
    pool: 'forks',
    // One test file at a time: the end-to-end, restart and responsiveness files each start real
    // servers and browsers, and on a small machine running them side by side only adds noise.
    // Each project runs its files one at a time, and projects without a group order share one
    // sequential queue, so `vitest run` of all three still runs one file at a time.
    fileParallelism: false,
    // Every temporary folder of the run in one, removed at its end (test/helpers/suite-temp.ts).
    globalSetup: ['test/helpers/suite-temp.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    // The test seeds use short API keys on purpose; the seed's warning about them is not news here.
    onConsoleLog: (log) => !log.startsWith('chapar: seed:'),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [...BESIDE_CODE, ...UNIT_IN_TEST],
          exclude: [...configDefaults.exclude, ...INTEGRATION_BESIDE_CODE],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts', ...INTEGRATION_BESIDE_CODE],
          exclude: [...configDefaults.exclude, ...E2E, ...UNIT_IN_TEST],
        },
      },
      { extends: true, test: { name: 'e2e', include: E2E } },
    ],
  },
});
