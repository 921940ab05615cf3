// Facebook Login for Business as the desktop runs it: the agency's Meta app from Settings (its secret
// sealed at rest), the dialog opened by the host's browser (here fetch plays it), the loopback
// redirect, and the token it ends with listing the accounts it reaches. Refused where no browser can
// be opened (the web dashboard) and before the app is set.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../app';
import { createCore } from '../core';
import { startDemoPlatform, type DemoPlatform } from '../demo-platform';
import { createUser } from '../identity/users';
import { createWorkspace } from '../identity/workspaces';
import { readSetting } from '../settings/store';

let demo: DemoPlatform;
const apps: App[] = [];
beforeAll(async () => {
  demo = await startDemoPlatform({ seed: 1, today: '2026-11-22' });
});
afterAll(async () => {
  for (const app of apps) await app.stop();
  await demo.close();
});

async function world(openInBrowser: ((url: string) => Promise<void>) | null) {
  const app = createApp(createCore({ dataDir: mkdtempSync(join(tmpdir(), 'adlens-fb-login-')) }), {
    renderReportsInWorker: false,
    host: { demoPlatform: () => ({ url: demo.url, apiVersion: demo.apiVersion }), openInBrowser },
  });
  apps.push(app);
  const ws = await createWorkspace(app.core.sql, { name: 'Agency', plan: 'agency' });
  const owner = await createUser(app.core.sql, {
    workspaceId: ws.id,
    email: 'owner@agency.test',
    role: 'owner',
  });
  return { app, ctx: await app.use.identity.contextForUser(owner.id) };
}

/** The system browser: follows the dialog's redirect to the loopback listener. */
const browser = async (url: string): Promise<void> => {
  void fetch(url).then((res) => res.text());
};

describe('Facebook Login for Business', () => {
  it('needs the agency app in Settings, then ends with a token that lists the accounts it reaches', async () => {
    const { app, ctx } = await world(browser);
    await expect(app.use.accounts.facebookLogin(ctx, { platform: 'demo' })).rejects.toMatchObject({
      type: 'invalid_request',
      message: expect.stringContaining('Settings'),
    });
    const settings = await app.use.settings.update(ctx, 'desktop', {
      metaAppId: '1234567890',
      metaAppSecret: 'a-very-secret-app-secret',
    });
    expect(settings.metaApp).toEqual({ appId: '1234567890', hasSecret: true });
    expect(await readSetting(app.core.sql, 'meta_app_secret_sealed')).not.toContain('very-secret');

    const { token, expiresAt } = await app.use.accounts.facebookLogin(ctx, { platform: 'demo' });
    expect(token.length).toBeGreaterThan(10);
    expect(Date.parse(expiresAt ?? '')).toBeGreaterThan(Date.now());
    const found = await app.use.accounts.available(ctx, { platformUrl: demo.url, token });
    expect(found.groups.flatMap((g) => g.accounts).length).toBeGreaterThan(0);
  });

  it('is refused where no browser can be opened (the web dashboard), with the way out', async () => {
    const { app, ctx } = await world(null);
    await app.use.settings.update(ctx, 'web', {
      metaAppId: '1234567890',
      metaAppSecret: 'a-very-secret-app-secret',
    });
    await expect(app.use.accounts.facebookLogin(ctx, { platform: 'demo' })).rejects.toMatchObject({
      type: 'invalid_request',
      message: expect.stringContaining('paste an access token'),
    });
  });
});
