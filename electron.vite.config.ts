import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          // Heavy work runs on these worker threads, off the main process's event loop (the window).
          'render-worker': resolve(__dirname, 'src/core/reports/render-worker.ts'),
          'diagnose-worker': resolve(__dirname, 'src/core/diagnostics/diagnose-worker.ts'),
          'sync-worker': resolve(__dirname, 'src/core/sync/sync-worker.ts'),
          'demo-worker': resolve(__dirname, 'src/core/host/demo-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: { rollupOptions: { input: { index: resolve(__dirname, 'src/preload/index.ts') } } },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    // Relative asset paths: the same build loads from file:// (desktop) and from / (web dashboard).
    base: './',
    plugins: [react()],
    build: {
      minify: true,
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
  },
});
