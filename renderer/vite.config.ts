// Renderer-only build with the same settings as electron.vite.config.ts's renderer part, for when
// main/preload cannot be built: `npx vite build --config renderer/vite.config.ts`.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  // Vite resolves `root` from the working directory and outDir from root.
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: { outDir: '../out/renderer', emptyOutDir: true },
});
