import { defineConfig } from 'vitest/config';

// Unit tests sit beside their code; integration and end-to-end tests live in test/.
export default defineConfig({
  test: {
    include: ['electron/**/*.test.ts', 'shared/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'test/**/*.test.ts'],
    pool: 'forks',
    // One test file at a time: the end-to-end, restart and responsiveness files each start real
    // servers and browsers, and on a small machine running them side by side only adds noise.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    // The test seeds use short API keys on purpose; the seed's warning about them is not news here.
    onConsoleLog: (log) => !log.startsWith('chapar: seed:'),
  },
});
