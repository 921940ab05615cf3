// `npm test`: unit and integration tests (vitest), then browser end-to-end tests (Playwright), and
// one closing line `N passed, N failed` summed over both, which CI reads. Needs nothing but Node and
// npm: the browser is found by scripts/find-chromium.mjs (down to the npm-shipped Chromium), PDFs are
// checked with MuPDF from npm, and the renderer is built first when it is missing or stale.
// Every temporary file of the run goes under one directory that is removed at the end.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findChromium } from './find-chromium.mjs';
import { ensureRendererBuilt } from './renderer-build.mjs';

const resultsDir = join(process.cwd(), 'test-results');
mkdirSync(resultsDir, { recursive: true });
const only = process.argv[2]; // 'unit' | 'e2e' | undefined (both)
// `npm run test:e2e -- e2e/settings.spec.ts`: only these spec files (every spec without any).
const files = only === 'e2e' ? process.argv.slice(3) : [];

// One temp root for the run: tests, servers and browsers they start inherit TMPDIR, so whatever a
// killed process could not clean up is removed here with the rest.
const runTmp = mkdtempSync(join(tmpdir(), 'adlens-test-run-'));
const env = { ...process.env, TMPDIR: runTmp, TMP: runTmp, TEMP: runTmp, ADLENS_TEST_TMP: runTmp };

function run(command, args, extra = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...env, ...extra } });
  return result.status ?? 1;
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

let passed = 0;
let failed = 0;
let skipped = 0;
let exitCode = 0;

try {
  if (only !== 'e2e') {
    const out = join(resultsDir, 'vitest.json');
    const code = run('npx', [
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile=${out}`,
    ]);
    const report = readJson(out);
    if (report) {
      passed += report.numPassedTests;
      failed += report.numFailedTests;
      skipped += report.numPendingTests + (report.numTodoTests ?? 0);
    } else failed += 1;
    if (code !== 0) exitCode = code;
  }

  if (only !== 'unit') {
    const out = join(resultsDir, 'playwright.json');
    let launch = null;
    try {
      // The npm-shipped Chromium unpacks into the temp folder: keep it out of the run's temp root.
      launch = await findChromium();
      console.log(`== browser for the end-to-end tests: ${launch.source} (${launch.executablePath})`);
    } catch (error) {
      console.error(`== ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!launch || !ensureRendererBuilt()) {
      failed += 1;
      exitCode = 1;
    } else {
      const code = run('npx', ['playwright', 'test', '--reporter=list,json', ...files], {
        PLAYWRIGHT_JSON_OUTPUT_NAME: out,
        ADLENS_CHROMIUM_LAUNCH: JSON.stringify(launch),
      });
      const report = readJson(out);
      if (report?.stats) {
        passed += report.stats.expected + (report.stats.flaky ?? 0);
        failed += report.stats.unexpected;
        skipped += report.stats.skipped;
      } else failed += 1;
      if (code !== 0) exitCode = code;
    }
  }
} finally {
  rmSync(runTmp, { recursive: true, force: true });
}

if (exitCode === 0 && failed > 0) exitCode = 1;
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(exitCode);
