// `npm run bench [-- suite...]`: runs every bench/*.bench.ts suite (or the named ones), prints a table
// and writes bench/results/latest.json.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureRendererBuilt } from '../scripts/renderer-build.mjs';
import type { BenchFigure, BenchSuite } from './harness';

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const dir = import.meta.dirname;
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
    .sort();
  // The UI bench measures the built renderer: build it first when it is missing or stale.
  if (files.some((f) => f.startsWith('ui')) && !ensureRendererBuilt()) {
    throw new Error('the renderer build failed; the UI bench needs out/renderer');
  }
  const figures: BenchFigure[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as { default: BenchSuite };
    if (mod.default.optIn && !wanted.some((w) => file.startsWith(w))) continue;
    console.log(`\n== ${mod.default.name}`);
    const started = performance.now();
    const results = await mod.default.run();
    for (const f of results) console.log(formatRow(f));
    console.log(`   (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    figures.push(...results);
  }
  mkdirSync(join(dir, 'results'), { recursive: true });
  const out = join(dir, 'results', 'latest.json');
  writeFileSync(
    out,
    JSON.stringify({ at: new Date().toISOString(), node: process.version, figures }, null, 2),
  );
  const failed = figures.filter((f) => f.pass === false);
  console.log(`\n${figures.length} figures, ${failed.length} below target; written to ${out}`);
}

function formatRow(f: BenchFigure): string {
  const value = `${round(f.value)} ${f.unit}`;
  const base = f.baseline
    ? `  vs ${f.baseline.name} ${round(f.baseline.value)} (ratio ${round(f.ratio ?? NaN)})`
    : '';
  const target = f.target
    ? `  target ${f.target.of} ${f.target.op} ${f.target.value}: ${f.pass ? 'ok' : 'MISSED'}`
    : '';
  return `  ${f.name.padEnd(58)} ${value.padStart(16)}${base}${target}${f.note ? `  (${f.note})` : ''}`;
}

function round(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  return Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toFixed(3);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
