// A server per test: a fresh temp data directory, the e2e server on port 0, and its `READY <url>`
// line as the readiness signal (no sleeps). Screenshots of each screen go to e2e/artifacts/screens.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';

export interface DashboardServer {
  url: string;
  inviteUrl: string | null;
  dataDir: string;
  /** Sends a test control to the server (e.g. "expire-token") and waits for its OK line. */
  control(command: string): Promise<void>;
}

export interface ServerOptions {
  bare?: boolean;
  invite?: string;
  /** More arguments for e2e/serve-dashboard.ts (e.g. --plan agency). */
  args?: string[];
  /** Another host script under e2e/ with the same READY/OK protocol (e.g. desktop-standin.ts). */
  script?: string;
}

// Playwright runs from the repository root (where playwright.config.ts is).
const ROOT = resolve(process.cwd());
export const SCREENS_DIR = join(ROOT, 'e2e', 'artifacts', 'screens');

export async function startServer(
  options: ServerOptions = {},
): Promise<DashboardServer & { stop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'adlens-e2e-'));
  const script = join(ROOT, 'e2e', options.script ?? 'serve-dashboard.ts');
  const args = ['--import', 'tsx', script, '--data-dir', dataDir];
  if (options.bare) args.push('--bare');
  if (options.invite) args.push('--invite', options.invite);
  if (options.args) args.push(...options.args);
  const child: ChildProcess = spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  const lines = createInterface({ input: child.stdout! });
  const waiting = new Map<string, () => void>();
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ready = new Promise<{ url: string; inviteUrl: string | null }>((resolveReady, reject) => {
    let url: string | null = null;
    const timer = setTimeout(() => reject(new Error(`server not ready after 60 s\n${stderr}`)), 60_000);
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before ready\n${stderr}`)));
    lines.on('line', (line) => {
      if (line.startsWith('READY ')) {
        url = line.slice(6).trim();
        if (!options.invite) {
          clearTimeout(timer);
          resolveReady({ url, inviteUrl: null });
        }
      } else if (line.startsWith('INVITE ') && url) {
        clearTimeout(timer);
        resolveReady({ url, inviteUrl: line.slice(7).trim() });
      } else if (line.startsWith('OK ')) {
        waiting.get(line.slice(3).trim())?.();
      }
    });
  });
  const { url, inviteUrl } = await ready;
  return {
    url,
    inviteUrl,
    dataDir,
    control: (command) =>
      new Promise<void>((resolveControl) => {
        waiting.set(command, resolveControl);
        child.stdin!.write(`${command}\n`);
      }),
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        // A graceful stop finishes running jobs; a stuck one must not hold the suite.
        const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(force);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const USER = { email: 'analyst@agency.test', password: 'correct horse battery', name: 'Ana Lyst' };

/** Accepts the invitation in the UI and lands signed in on the Portfolio home (the first screen). */
export async function acceptInvitation(page: Page, inviteUrl: string): Promise<void> {
  await page.goto(inviteUrl);
  await expect(page.getByRole('heading', { name: /Join/ })).toBeVisible();
  await page.getByLabel('Your name (optional)').fill(USER.name);
  await page.getByLabel('Password', { exact: true }).fill(USER.password);
  await page.getByLabel('Confirm password').fill(USER.password);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Portfolio', level: 1 })).toBeVisible();
}

/** Keeps a screenshot of the screen and checks it with axe: no serious or critical violation. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENS_DIR, `${name}.png`), fullPage: true });
  await expectAccessible(page, name);
}

/** WCAG 2.1 A and AA rules; minor and moderate findings are reported, never hidden, but do not fail. */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = blocking.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`,
  );
  expect(summary, `accessibility of screen ${name}`).toEqual([]);
}

type Fixtures = {
  serverOptions: ServerOptions;
  server: DashboardServer;
  /** A page signed in as the invited analyst. */
  signedIn: Page;
};

export const test = base.extend<Fixtures>({
  serverOptions: [{ invite: USER.email }, { option: true }],
  server: async ({ serverOptions }, use) => {
    const server = await startServer(serverOptions);
    await use(server);
    await server.stop();
  },
  signedIn: async ({ page, server }, use) => {
    if (!server.inviteUrl) throw new Error('this test needs an invitation (serverOptions.invite)');
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      // Expected 401s (no session yet) and 404s are not errors of the page; CSP refusals are.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
        errors.push(message.text());
    });
    await acceptInvitation(page, server.inviteUrl);
    await use(page);
    // CSP violations and uncaught errors show up here; a clean console is part of passing.
    expect(errors).toEqual([]);
  },
});

export { expect };
