// The one browser launch definition of the browser tests and the UI bench. `npm test` resolves it once
// (scripts/find-chromium.mjs: env variable, system browser, Playwright's, then the npm-shipped
// Chromium) and passes it in ADLENS_CHROMIUM_LAUNCH; run alone, this file resolves it the same way.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

export interface ChromiumLaunch {
  source: string;
  executablePath: string;
  args: string[];
}

function resolveLaunch(): ChromiumLaunch {
  const given = process.env.ADLENS_CHROMIUM_LAUNCH;
  if (given) return JSON.parse(given) as ChromiumLaunch;
  // Playwright and the bench run from the repository root (Playwright loads this file as CommonJS).
  const script = resolve(process.cwd(), 'scripts', 'find-chromium.mjs');
  const found = JSON.parse(execFileSync(process.execPath, [script], { encoding: 'utf8' })) as ChromiumLaunch;
  process.env.ADLENS_CHROMIUM_LAUNCH = JSON.stringify(found);
  return found;
}

const launch = resolveLaunch();

export const CHROMIUM_SOURCE = `${launch.source} (${launch.executablePath})`;
export const CHROMIUM_LAUNCH = { executablePath: launch.executablePath, args: launch.args };
