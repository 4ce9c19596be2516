// Builds the three parts of the desktop app: main (Electron process + service core), preload
// (the narrow bridge), and the renderer (React). The renderer build is also what `serve` hands to
// browsers in web mode.
import { resolve } from 'node:path';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import react from '@vitejs/plugin-react';
import workerEntries from './electron/service/worker-entries.json';

export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin()],
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'electron/main/index.ts'),
          // Worker threads' entries, started by these names (electron/service/worker-thread.ts).
          ...Object.fromEntries(
            Object.entries(workerEntries).map(([name, source]) => [
              name,
              resolve(__dirname, 'electron/service', source),
            ]),
          ),
        },
      },
    },
  },
  preload: {
    plugins: [externalizeDepsPlugin()],
    build: {
      outDir: 'out/preload',
      rollupOptions: { input: { index: resolve(__dirname, 'electron/preload/index.ts') }, output: { format: 'cjs' } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      rollupOptions: { input: resolve(__dirname, 'renderer/index.html') },
    },
  },
});
