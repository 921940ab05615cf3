// The Electron host: a thin shell around the service core. One instance per user; the data
// directory under the app's user-data folder; the core, the /v1 server on 127.0.0.1 (port from
// settings), the window, IPC from the handler map, and calm desktop notifications.
import { app, BrowserWindow, dialog, Notification } from 'electron';
import { join } from 'node:path';
import { createApiServer, type ApiServer } from '../core/api/server';
import { createApp } from '../core/app';
import { configuredApiPort } from '../core/settings/use-cases';
import { consoleLogger, createCore, type Core } from '../core/core';
import { startDemoPlatform } from '../core/demo-platform';
import { createHandlerDispatch, type HandlerContext, type HandlerEnv } from '../core/handlers';
import { acquireDataDirLock } from '../core/host/lock';
import { provisionIfEmpty, syncDemoAccounts } from '../core/host/provision';
import { getWorkspaceOwner } from '../core/identity/users';
import { listWorkspaces } from '../core/identity/workspaces';
import { demoSeed } from '../core/sync/embedded-demo';
import type { BridgeEvent } from '../shared/ipc/types';
import { registerIpc } from './ipc';
import { NotificationPolicy } from './notify-policy';
import { desktopTokenCipher } from './safe-storage-cipher';
import { createMainWindow, hardenSession } from './window';

const NOTIFY_EVERY_MS = 15_000;

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let win: BrowserWindow | null = null;
  app.on('second-instance', () => {
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });

  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      // A data directory held by a server, a database from a newer version, a corrupt file: say so and quit.
      dialog.showErrorBox('AdLens cannot start', error instanceof Error ? error.message : String(error));
      app.exit(1);
    });

  async function start(): Promise<void> {
    const dataDir = process.env.ADLENS_DATA_DIR ?? join(app.getPath('userData'), 'data');
    const lock = acquireDataDirLock(dataDir, 'desktop');
    const core: Core = createCore({
      dataDir,
      logger: consoleLogger,
      tokenCipher: desktopTokenCipher(dataDir, (m) => consoleLogger.warn(m)),
    });
    const platform = await startDemoPlatform({ port: 0, seed: demoSeed(core.db) });
    const demo = { url: platform.url, apiVersion: platform.apiVersion };
    let api: ApiServer | null = null;
    const services = createApp(core, {
      sync: { demoPlatform: async () => demo },
      host: { demoPlatform: () => demo, apiBaseUrl: () => api?.url ?? null, runsBackgroundWork: true },
    });
    await provisionIfEmpty(core, services.sync, demo, { seed: demoSeed(core.db) });

    const env: HandlerEnv = {
      app: services,
      host: { kind: 'desktop' },
    };
    try {
      api = await createApiServer(services, { port: configuredApiPort(core.db) });
    } catch (error) {
      // The configured port is taken: serve on a free one and show that address in Settings.
      core.logger.warn('configured API port unavailable, using an ephemeral one', { error: String(error) });
      api = await createApiServer(services, { port: 0 });
    }
    services.reports.setBaseUrl(api.url);
    services.start();
    // Demo-first: the demo accounts are synced in the background while the window opens.
    const initialSync = syncDemoAccounts(core, services.sync);

    const workspace = listWorkspaces(core.db)[0];
    const owner = workspace ? getWorkspaceOwner(core.db, workspace.id) : undefined;
    if (!owner) throw new Error('this data directory has no local owner');
    const ctx = (): HandlerContext => services.use.identity.contextForUser(owner.id);

    hardenSession();
    win = createMainWindow();
    const unregister = registerIpc(env, createHandlerDispatch(env), ctx, win);

    const policy = new NotificationPolicy();
    const offNotify = core.events.onAny((name, payload) => {
      if (payload.workspaceId === owner.workspaceId) policy.add({ name, payload } as unknown as BridgeEvent);
    });
    const timer = setInterval(() => {
      for (const notice of policy.flush(win?.isFocused() ?? false)) {
        if (!Notification.isSupported()) break;
        const shown = new Notification({ title: notice.title, body: notice.body });
        shown.on('click', () => {
          win?.show();
          win?.focus();
          void win?.webContents.executeJavaScript(`location.hash = ${JSON.stringify(`#${notice.route}`)}`);
        });
        shown.show();
      }
    }, NOTIFY_EVERY_MS);

    let quitting = false;
    app.on('before-quit', (event) => {
      if (quitting) return;
      event.preventDefault();
      quitting = true;
      clearInterval(timer);
      offNotify();
      unregister();
      void (async () => {
        await api?.close();
        await services.sync.stop();
        await initialSync;
        await services.stop();
        await platform.close();
        lock.release();
        app.exit(0);
      })();
    });
  }

  app.on('window-all-closed', () => app.quit());
}
