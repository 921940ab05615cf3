// The team server's window: its dashboard (sign-in, invitations, the team's data) in a window of its
// own, with no preload (no IPC for a remote origin), its own persistent session partition, the same
// sandbox as the local window, the server's own CSP, no permissions, and navigation held to the team
// server's origin (other https pages open in the system browser). The local window stays alive but
// hidden while the team window shows, so switching back is instant.
import { BrowserWindow, session, shell } from 'electron';
import { teamNavigation, type WindowTarget } from './team-mode/policy';

type TeamTarget = Extract<WindowTarget, { kind: 'team' }>;

const hardenedPartitions = new Set<string>();

function hardenTeamSession(partition: string): void {
  if (hardenedPartitions.has(partition)) return;
  hardenedPartitions.add(partition);
  const teamSession = session.fromPartition(partition);
  teamSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  teamSession.setPermissionCheckHandler(() => false);
}

export interface WindowSwitcher {
  show(target: WindowTarget): void;
  /** The window on screen now (the team window in team mode), for dialogs and the menu. */
  current(): BrowserWindow;
}

/**
 * Applies window targets: the local window for `local`, a team window for `team`. Closing the team
 * window by hand closes the app window the usual way (to the tray or quit, per Settings).
 */
export function windowSwitcher(localWin: BrowserWindow): WindowSwitcher {
  let teamWin: BrowserWindow | null = null;
  let teamOrigin: string | null = null;

  const closeTeamWindow = (): void => {
    const closing = teamWin;
    teamWin = null;
    teamOrigin = null;
    if (closing && !closing.isDestroyed()) closing.destroy();
  };

  const openTeamWindow = (target: TeamTarget): BrowserWindow => {
    hardenTeamSession(target.partition);
    const [width, height] = localWin.getSize();
    const win = new BrowserWindow({
      width,
      height,
      minWidth: 960,
      minHeight: 600,
      show: false,
      title: `AdLens: ${new URL(target.origin).host}`,
      backgroundColor: '#f6f7f9',
      webPreferences: {
        partition: target.partition,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webSecurity: true,
        spellcheck: false,
      },
    });
    const guard = (event: { preventDefault(): void }, url: string): void => {
      const decision = teamNavigation(target.origin, url);
      if (decision === 'allow') return;
      event.preventDefault();
      if (decision === 'external') void shell.openExternal(url);
    };
    win.webContents.on('will-navigate', guard);
    win.webContents.on('will-redirect', guard);
    win.webContents.on('will-frame-navigate', (event) => {
      if (!event.isMainFrame && teamNavigation(target.origin, event.url) !== 'allow') event.preventDefault();
    });
    win.webContents.setWindowOpenHandler(({ url }) => {
      if (teamNavigation(target.origin, url) === 'external') void shell.openExternal(url);
      return { action: 'deny' };
    });
    win.once('ready-to-show', () => win.show());
    win.on('closed', () => {
      if (teamWin !== win) return; // replaced or switched back: not the analyst's close
      teamWin = null;
      teamOrigin = null;
      localWin.close();
    });
    return win;
  };

  return {
    show(target) {
      if (target.kind === 'local') {
        closeTeamWindow();
        localWin.show();
        localWin.focus();
        return;
      }
      if (!teamWin || teamOrigin !== target.origin) {
        closeTeamWindow();
        teamWin = openTeamWindow(target);
        teamOrigin = target.origin;
      }
      void teamWin.loadURL(target.url);
      localWin.hide();
    },
    current: () => (teamWin && !teamWin.isDestroyed() ? teamWin : localWin),
  };
}
