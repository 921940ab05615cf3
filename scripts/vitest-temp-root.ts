// Vitest global setup: every test file's temporary directories go under one root for the run
// (TMPDIR is inherited by the test workers and the processes they start), removed at the end, so a
// run leaves nothing behind even when a test or a killed child could not clean up after itself.
// `npm test` already provides such a root (scripts/run-tests.mjs); a direct `npx vitest` gets its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  if (process.env.ADLENS_TEST_TMP) return () => {};
  const root = mkdtempSync(join(tmpdir(), 'adlens-test-run-'));
  process.env.ADLENS_TEST_TMP = root;
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
