import { CHROMIUM_LAUNCH } from './e2e/chromium';
import { defineConfig } from '@playwright/test';

// Browser tests of the served dashboard in the Chromium that e2e/chromium.ts finds (down to the one
// shipped in an npm package). Each test starts its own server on a fresh data directory
// (e2e/fixtures.ts). `npm test` builds the renderer first when it is missing or stale.
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'e2e/artifacts/results',
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: true,
  reporter: [['list']],
  use: {
    viewport: { width: 1360, height: 860 },
    screenshot: 'only-on-failure',
    trace: 'off',
    actionTimeout: 15_000,
    launchOptions: CHROMIUM_LAUNCH,
  },
});
