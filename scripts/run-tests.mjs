// `npm test`: unit and integration tests (vitest), then browser end-to-end tests (Playwright in
// Debian's Chromium), and one closing line `N passed, N failed` summed over both, which CI reads.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const resultsDir = join(process.cwd(), 'test-results');
mkdirSync(resultsDir, { recursive: true });
const only = process.argv[2]; // 'unit' | 'e2e' | undefined (both)

function run(command, args, env = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
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

if (only !== 'e2e') {
  const out = join(resultsDir, 'vitest.json');
  const code = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${out}`]);
  const report = readJson(out);
  if (report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  } else failed += 1;
  if (code !== 0) exitCode = code;
}

if (only !== 'unit' && existsSync('playwright.config.ts')) {
  const out = join(resultsDir, 'playwright.json');
  const code = run('npx', ['playwright', 'test', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: out,
  });
  const report = readJson(out);
  if (report?.stats) {
    passed += report.stats.expected + (report.stats.flaky ?? 0);
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
  } else failed += 1;
  if (code !== 0) exitCode = code;
}

if (exitCode === 0 && failed > 0) exitCode = 1;
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(exitCode);
