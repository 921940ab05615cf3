// The Electron host: a thin shell around the service core. One instance per user; the data
// directory under the app's user-data folder; the core, the /v1 server on 127.0.0.1 (port from
// settings), the window, IPC from the handler map, and calm desktop notifications.
import { app, BrowserWindow, dialog, Notification, shell } from 'electron';
import { join } from 'node:path';
import { configuredApiPort, desktopPreferences } from '../core/settings/use-cases';
import { consoleLogger } from '../core/core';
import { startHost } from '../core/host/start';
import { createHandlerDispatch, type HandlerContext, type HandlerEnv } from '../core/handlers';
import { getWorkspaceOwner } from '../core/identity/users';
import { listWorkspaces } from '../core/identity/workspaces';
import type { BridgeEvent } from '../shared/ipc/types';
import { registerIpc } from './ipc';
import { setApplicationMenu } from './menu';
import { NotificationPolicy } from './notify-policy';
import { desktopTokenCipher } from './safe-storage-cipher';
import { registerTeamServerIpc } from './team-ipc';
import { TeamMode } from './team-mode/controller';
import { windowSwitcher } from './team-window';
import { keepRunningInTray } from './tray';
import { createMainWindow, hardenSession } from './window';

const NOTIFY_EVERY_MS = 15_000;

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let win: BrowserWindow | null = null;
  // The window on screen: the local one, or the team server's in team mode.
  let onScreen: () => BrowserWindow | null = () => win;
  app.on('second-instance', () => {
    const current = onScreen();
    if (!current) return;
    if (current.isMinimized()) current.restore();
    current.focus();
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
    // The one host start (src/core/host/start.ts), with the desktop's lock, keychain and port setting.
    const host = await startHost({
      dataDir,
      kind: 'desktop',
      port: (core) => configuredApiPort(core.sql),
      portFallback: true,
      logger: consoleLogger,
      tokenCipher: (dir) => desktopTokenCipher(dir, (m) => consoleLogger.warn(m)),
      // Facebook Login's dialog opens in the system browser, never inside the app's window.
      openInBrowser: (url) => shell.openExternal(url),
    });
    const { core, app: services } = host;
    const env: HandlerEnv = { app: services, host: { kind: 'desktop' } };

    const workspace = (await listWorkspaces(core.sql))[0];
    const owner = workspace ? await getWorkspaceOwner(core.sql, workspace.id) : undefined;
    if (!owner) throw new Error('this data directory has no local owner');
    // The window acts as the local owner, read once at start (IPC handlers and event filters need it at once).
    const ownerContext: HandlerContext = await services.use.identity.contextForUser(owner.id);
    const ctx = (): HandlerContext => ownerContext;

    hardenSession();
    // Local store or a team server's dashboard (Settings > Team server; the Team Server menu): the
    // choice is a file in the data directory, read before any window shows.
    let switcher: ReturnType<typeof windowSwitcher> | null = null;
    const teamMode = new TeamMode({
      file: join(dataDir, 'team-server.json'),
      show: (target) => {
        switcher?.show(target);
        refreshMenu();
      },
      warn: (message) => consoleLogger.warn(message),
    });
    const initial = teamMode.initialTarget();
    const localWin = createMainWindow({ showWhenReady: initial.kind === 'local' });
    win = localWin;
    switcher = windowSwitcher(localWin);
    onScreen = () => switcher?.current() ?? localWin;
    const refreshMenu = (): void =>
      setApplicationMenu(teamMode.view(), (action) => {
        if (action === 'useLocal') teamMode.useLocal();
        else if (action === 'useTeam') teamMode.useRemembered();
        // Settings > Team server, in the local window (the item is offered in local mode).
        else void localWin.webContents.executeJavaScript(`location.hash = '#/settings'`);
      });
    refreshMenu();
    if (initial.kind === 'team') switcher.show(initial);
    const unregisterTeam = registerTeamServerIpc(teamMode, localWin);
    let quitting = false;
    // Closing the window can leave the watch running in the tray (Settings), with start at login.
    // The window's close handler decides at once: it reads the preferences as last loaded.
    let preferences = await desktopPreferences(core.sql);
    const applyPreferences = keepRunningInTray(
      win,
      () => preferences,
      () => quitting,
    );
    const dispatch = createHandlerDispatch(env);
    const unregister = registerIpc(
      env,
      async (context, name, args) => {
        const result = await dispatch(context, name, args);
        if (name === 'settings.update' && result.ok) {
          preferences = await desktopPreferences(core.sql);
          applyPreferences();
        }
        return result;
      },
      ctx,
      win,
    );

    const policy = new NotificationPolicy();
    const offNotify = core.events.onAny((name, payload) => {
      if (payload.workspaceId === owner.workspaceId) policy.add({ name, payload } as unknown as BridgeEvent);
    });
    const timer = setInterval(() => {
      const notices = policy.flush(win?.isFocused() ?? false);
      // In team mode the window shows the team's data: the local store's notices would mislead.
      if (teamMode.view().mode === 'team') return;
      for (const notice of notices) {
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

    app.on('before-quit', (event) => {
      if (quitting) return;
      event.preventDefault();
      quitting = true;
      clearInterval(timer);
      offNotify();
      unregister();
      unregisterTeam();
      void (async () => {
        await host.stop();
        app.exit(0);
      })();
    });
  }

  app.on('window-all-closed', () => app.quit());
}
