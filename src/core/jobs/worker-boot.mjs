// Starts a worker thread from source (report rendering, diagnoses, syncs, the demo platform). A worker thread does not inherit a TypeScript loader on Node 20 (and is
// started without the parent's flags), so under tsx or a test runner it registers tsx itself (both
// its require and import hooks) before importing the .ts entry.
import { createRequire } from 'node:module';
import { workerData } from 'node:worker_threads';

const entry = workerData.entry;
if (entry.endsWith('.ts')) {
  createRequire(import.meta.url)('tsx/cjs/api').register();
  const { register } = await import('tsx/esm/api');
  register();
}
await import(entry);
