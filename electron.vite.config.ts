import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';

/**
 * Absolute asset URLs (`/assets/…`): a relative `./assets/…` resolves under `/session/` on a
 * two-segment URL and loads nothing. electron-vite sets `base: './'` for every production
 * renderer build (for `file://` windows) in a `pre` plugin, after which a plain `base` option
 * is overwritten; this plugin's hook runs later and wins. The Electron window loads the
 * server's own http:// origin, never `file://`, so `/` is right there too.
 */
const absoluteBase: Plugin = { name: 'mcpulse:absolute-base', config: () => ({ base: '/' }) };

/**
 * One build for both parts of the app: the Electron main process (which embeds the same server
 * the CLI runs) and the React renderer that the server serves as static files — to the Electron
 * window and to any browser tab alike. There is deliberately no preload: the page needs no
 * bridge to Node, so it gets none.
 */
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src/electron/main.ts'),
          // The read threads' entry (src/server/read-pool/thread.ts finds it beside the bundle).
          worker: resolve(import.meta.dirname, 'src/server/read-pool/worker.ts'),
        },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'renderer'),
    plugins: [react(), absoluteBase],
    build: {
      outDir: resolve(import.meta.dirname, 'out/renderer'),
      emptyOutDir: true,
      minify: true,
      chunkSizeWarningLimit: 1500,
      rollupOptions: { input: resolve(import.meta.dirname, 'renderer/index.html') },
    },
  },
});
