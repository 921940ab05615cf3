// The desktop app against a team server. Electron cannot launch on this machine, so the desktop side is
// e2e/desktop-standin.ts: the local core with the desktop's handler map and main's own TeamMode
// (validation, the persisted setting, the window target), and the renderer with a `window.adlens`
// that reaches it the way the preload reaches main. The team window is what main would load: the
// team server's dashboard, in a browser context of its own (main: a separate session partition) with
// no bridge (main: no preload). What only an Electron run adds: the real BrowserWindow, menu, IPC
// sender check and will-navigate hooks (their decisions are unit-tested in src/main/team-mode).
import type { BrowserContext, Page } from '@playwright/test';
import type { TeamServerView } from '../src/shared/ipc';
import { TEAM_SESSION_PARTITION, teamNavigation, type WindowTarget } from '../src/main/team-mode/policy';
import { acceptInvitation, expect, screenshot, startServer, test, USER } from './fixtures';

/** What the preload exposes, forwarded to the stand-in's main over HTTP (runs in the page). */
function installDesktopBridge(): void {
  const post = async (path: string, body: unknown = {}): Promise<unknown> => {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
    return response.json();
  };
  const handlers = new Proxy(
    {},
    { get: (_target, name) => (args: unknown) => post(`/ipc/${String(name)}`, args) },
  );
  Object.defineProperty(window, 'adlens', {
    value: Object.freeze({
      handlers,
      onEvent: () => () => {},
      saveReport: () => Promise.resolve({ ok: false, error: { type: 'api_error', message: 'Not here.' } }),
      teamServer: Object.freeze({
        get: () => post('/ipc-team/get'),
        use: (url: string) => post('/ipc-team/use', { url }),
        useLocal: () => post('/ipc-team/useLocal'),
      }),
    }),
  });
}

async function cleanConsole(page: Page): Promise<string[]> {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      errors.push(message.text());
  });
  return errors;
}

test('the desktop window switches to a team server, signs in with the invitation, and back to local', async ({
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const [team, desktop] = await Promise.all([
    startServer({ invite: USER.email, args: ['--workspace-name', 'Team Agency'] }),
    startServer({ script: 'desktop-standin.ts' }),
  ]);
  const contexts: BrowserContext[] = [];
  try {
    const windowTarget = async (): Promise<WindowTarget> =>
      ((await (await request.get(`${desktop.url}/test/window`)).json()) as { target: WindowTarget }).target;

    // The local window: the renderer over the desktop bridge, no sign-in, the local store.
    const localContext = await browser.newContext();
    contexts.push(localContext);
    await localContext.addInitScript(installDesktopBridge);
    const local = await localContext.newPage();
    const localErrors = await cleanConsole(local);
    await local.goto(desktop.url);
    await expect(local.getByRole('heading', { name: 'Portfolio', level: 1 })).toBeVisible();
    await local.getByRole('link', { name: 'Settings' }).click();
    await expect(local.getByText('Demo Agency · signed in as owner@adlens.local')).toBeVisible();
    const panel = local.getByRole('region', { name: 'Team server' });
    const mode = panel.getByTestId('team-server-mode');
    await expect(mode).toHaveText('Now: local store (this computer)');
    expect(await windowTarget()).toEqual({ kind: 'local' });

    // Plain http to another machine is refused, with the reason, and nothing changes.
    const address = panel.getByLabel('Team server address');
    await address.fill('http://adlens.agency.example');
    await panel.getByRole('button', { name: 'Use team server' }).click();
    await expect(panel.getByRole('alert')).toContainText(
      'Plain http:// is only allowed for a server on this computer',
    );
    await expect(mode).toHaveText('Now: local store (this computer)');
    expect(await windowTarget()).toEqual({ kind: 'local' });

    // The team server (http on loopback): saved, and the window target becomes its dashboard.
    await address.fill(team.url);
    await panel.getByRole('button', { name: 'Use team server' }).click();
    await expect(mode).toHaveText(`Now: team server ${team.url}`);
    await expect(panel.getByRole('alert')).toHaveCount(0);
    await screenshot(local, '40-settings-team-server');
    const target = await windowTarget();
    expect(target).toEqual({
      kind: 'team',
      origin: team.url,
      url: `${team.url}/`,
      partition: TEAM_SESSION_PARTITION,
    });
    if (target.kind !== 'team') throw new Error('unreachable');

    // The team window: its own session, no desktop bridge, the team server's sign-in.
    const teamContext = await browser.newContext();
    contexts.push(teamContext);
    const teamWindow = await teamContext.newPage();
    const teamErrors = await cleanConsole(teamWindow);
    await teamWindow.goto(target.url);
    await expect(teamWindow.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    expect(await teamWindow.evaluate(() => 'adlens' in window)).toBe(false);
    // The invitation link is on the team server's origin: the team window may open it.
    expect(teamNavigation(target.origin, team.inviteUrl ?? '')).toBe('allow');
    await acceptInvitation(teamWindow, team.inviteUrl ?? '');
    await expect(teamWindow.getByRole('row').nth(1)).toBeVisible();
    await teamWindow.getByRole('link', { name: 'Settings' }).click();
    await expect(teamWindow.getByText(`Team Agency · signed in as ${USER.email}`)).toBeVisible();
    await expect(teamWindow.getByRole('region', { name: 'Team server' })).toHaveCount(0);
    await screenshot(teamWindow, '41-team-window-settings');
    // A page of another origin never loads in the team window.
    expect(teamNavigation(target.origin, desktop.url)).toBe('deny');

    // The Team Server menu's "Use Local Store": the local window again, the address remembered.
    await desktop.control('menu-use-local');
    expect(await windowTarget()).toEqual({ kind: 'local' });
    await local.reload();
    await expect(local.getByText('Demo Agency · signed in as owner@adlens.local')).toBeVisible();
    await expect(mode).toHaveText('Now: local store (this computer)');
    await expect(address).toHaveValue(team.url);

    // And from the panel: to the remembered team server and back with "Use local store".
    await panel.getByRole('button', { name: 'Use team server' }).click();
    await expect(mode).toHaveText(`Now: team server ${team.url}`);
    expect(await windowTarget()).toMatchObject({ kind: 'team', origin: team.url });
    await panel.getByRole('button', { name: 'Use local store' }).click();
    await expect(mode).toHaveText('Now: local store (this computer)');
    expect(await windowTarget()).toEqual({ kind: 'local' });
    const view = (await (await request.post(`${desktop.url}/ipc-team/get`)).json()) as {
      value: TeamServerView;
    };
    expect(view.value).toEqual({ mode: 'local', url: team.url });

    expect(localErrors).toEqual([]);
    expect(teamErrors).toEqual([]);
  } finally {
    for (const context of contexts) await context.close();
    await Promise.all([desktop.stop(), team.stop()]);
  }
});

test('the web dashboard has no Team server panel', async ({ signedIn: page }) => {
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Facebook Login' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Team server' })).toHaveCount(0);
});
