// The desktop's watch preferences (keep running in the tray, open at login): off by default, set from
// the desktop window only, read by the Electron host through desktopPreferences().
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { createCore } from '../core';
import { createUser } from '../identity/users';
import { createWorkspace } from '../identity/workspaces';
import { desktopPreferences } from './use-cases';

const app = createApp(createCore({ dataDir: mkdtempSync(join(tmpdir(), 'adlens-desktop-prefs-')) }), {
  renderReportsInWorker: false,
});
afterAll(() => app.stop());

describe('desktop watch preferences', () => {
  it('are off by default, set from the desktop window, refused from the web dashboard', async () => {
    const ws = await createWorkspace(app.core.sql, { name: 'Agency', plan: 'agency' });
    const owner = await createUser(app.core.sql, {
      workspaceId: ws.id,
      email: 'owner@agency.test',
      role: 'owner',
    });
    const ctx = await app.use.identity.contextForUser(owner.id);
    expect((await app.use.settings.get(ctx, 'desktop')).desktop).toEqual({
      keepRunningInTray: false,
      openAtLogin: false,
    });
    const updated = await app.use.settings.update(ctx, 'desktop', {
      keepRunningInTray: true,
      openAtLogin: true,
    });
    expect(updated.desktop).toEqual({ keepRunningInTray: true, openAtLogin: true });
    expect(await desktopPreferences(app.core.sql)).toEqual({ keepRunningInTray: true, openAtLogin: true });
    await expect(app.use.settings.update(ctx, 'web', { keepRunningInTray: false })).rejects.toMatchObject({
      type: 'invalid_request',
    });
    expect((await desktopPreferences(app.core.sql)).keepRunningInTray).toBe(true);
  });
});
