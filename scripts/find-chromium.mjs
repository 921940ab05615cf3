// Finds a Chromium for the browser tests and the UI bench, in this order: an explicit environment
// variable (ADLENS_CHROMIUM, CHROME_PATH); a system Chromium or Chrome; a browser Playwright
// installed; and finally the Chromium shipped inside the @sparticuz/chromium npm package, so a machine
// with nothing but Node and npm (and no access to browser downloads) still runs them.
// ADLENS_CHROMIUM=npm forces the npm-shipped one. Run directly, it prints the launch definition as JSON: { source, executablePath, args }.
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

// No background traffic: the browser must not reach out (closed networks refuse it, many at a time).
export const QUIET_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const SYSTEM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];
const SYSTEM_PATHS = [
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
  'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
];

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name) {
  const exts = process.platform === 'win32' ? ['.exe', ''] : [''];
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const ext of exts) {
      const candidate = join(dir, `${name}${ext}`);
      if (dir && executable(candidate)) return candidate;
    }
  }
  return null;
}

export async function findChromium() {
  // ADLENS_CHROMIUM=npm skips every installed browser (CI proves the path of a bare machine with it).
  if (process.env.ADLENS_CHROMIUM === 'npm') return packagedChromium();
  for (const name of ['ADLENS_CHROMIUM', 'CHROME_PATH']) {
    const path = process.env[name];
    if (!path) continue;
    if (!executable(path)) throw new Error(`${name}=${path} is not an executable browser`);
    return { source: `${name} environment variable`, executablePath: path, args: QUIET_FLAGS };
  }
  for (const name of SYSTEM_NAMES) {
    const path = onPath(name);
    if (path) return { source: 'system browser', executablePath: path, args: QUIET_FLAGS };
  }
  for (const path of SYSTEM_PATHS) {
    if (executable(path)) return { source: 'system browser', executablePath: path, args: QUIET_FLAGS };
  }
  try {
    const { chromium } = await import('playwright-core');
    const path = chromium.executablePath();
    if (path && existsSync(path))
      return { source: 'Playwright-installed browser', executablePath: path, args: QUIET_FLAGS };
  } catch {
    // No Playwright browser registry entry: fall through to the npm-shipped Chromium.
  }
  return packagedChromium();
}

async function packagedChromium() {
  try {
    const { default: packaged } = await import('@sparticuz/chromium');
    const path = await packaged.executablePath();
    // Its serverless defaults loosen the browser (no web security, one process); the tests check the
    // dashboard's own security headers, so keep the browser's protections on.
    const loose = new Set([
      '--disable-web-security',
      '--allow-running-insecure-content',
      '--single-process',
      '--no-zygote',
    ]);
    return {
      source: 'Chromium from the @sparticuz/chromium npm package',
      executablePath: path,
      args: [
        ...new Set([
          ...packaged.args.filter((flag) => !loose.has(flag) && !flag.startsWith('--disable-features=')),
          ...QUIET_FLAGS.filter((flag) => flag !== '--headless'),
        ]),
      ],
    };
  } catch (error) {
    throw new Error(
      `No browser found for the browser tests: set ADLENS_CHROMIUM, install Chromium or Chrome, or run npm install (it brings @sparticuz/chromium). ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${JSON.stringify(await findChromium())}\n`);
}
