// Builds what the browser tests and the UI bench serve (electron-vite's out/renderer) when it is
// missing or older than its sources, so `npm test` and `npm run bench` work on a fresh clone.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const SOURCES = ['src/renderer', 'src/shared', 'electron.vite.config.ts', 'package-lock.json'];
const OUTPUT = 'out/renderer/index.html';

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs);
}

export function rendererIsStale(root = process.cwd()) {
  const output = join(root, OUTPUT);
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return SOURCES.some((source) => newest(join(root, source)) > built);
}

/** Builds when stale; returns false when the build failed. */
export function ensureRendererBuilt(root = process.cwd()) {
  if (!rendererIsStale(root)) return true;
  console.log('== building the renderer (out/renderer is missing or older than its sources)');
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  const result = spawnSync(npx, ['electron-vite', 'build'], { stdio: 'inherit', cwd: root });
  return result.status === 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exit(ensureRendererBuilt() ? 0 : 1);
}
