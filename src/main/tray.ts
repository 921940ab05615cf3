// Keeping the watch with the window closed: when the analyst chose it in Settings, closing the window
// hides it and AdLens stays in the system tray (scheduled syncs, automatic diagnosis and alerts go
// on); the tray opens the window again or quits. "Open at login" is the operating system's setting.
import { app, Menu, nativeImage, Tray, type BrowserWindow } from 'electron';

/** A 32×32 lens mark (PNG), so the tray needs no file beside the bundle. */
const TRAY_ICON =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAAiklEQVR4nO3T0Q2AIBADUJZxMsd3CP01kTNtr6DGa8KfPZ4orVVOWdZtn7Ee3TxEFIApRxkOQGMHqLEAshkGyP4XEIA9VqYjAdRbIgGUt2e6NADdHO0X4HsABoF0338N1VNAOxAgGtgbij5nA6BJAzKIu5kUgIUgsySA+r3tAMcqwAUwE9Hd/Lc5AAXKrcmTcvGKAAAAAElFTkSuQmCC';

export interface DesktopPreferences {
  keepRunningInTray: boolean;
  openAtLogin: boolean;
}

/**
 * Hides the window on close instead of quitting while `preferences().keepRunningInTray` holds, with a
 * tray icon to come back; returns a function that applies changed preferences (login item, tray).
 */
export function keepRunningInTray(
  win: BrowserWindow,
  preferences: () => DesktopPreferences,
  isQuitting: () => boolean,
): () => void {
  let tray: Tray | null = null;
  const show = (): void => {
    win.show();
    win.focus();
  };
  const ensureTray = (): void => {
    if (tray) return;
    tray = new Tray(nativeImage.createFromDataURL(TRAY_ICON));
    tray.setToolTip('AdLens: watching your ad accounts');
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: 'Open AdLens', click: show },
        { type: 'separator' },
        { label: 'Quit AdLens', click: () => app.quit() },
      ]),
    );
    tray.on('click', show);
  };
  win.on('close', (event) => {
    if (isQuitting() || !preferences().keepRunningInTray) return;
    event.preventDefault();
    ensureTray();
    win.hide();
  });
  const apply = (): void => {
    const prefs = preferences();
    app.setLoginItemSettings({ openAtLogin: prefs.openAtLogin });
    if (prefs.keepRunningInTray) ensureTray();
    else if (tray && win.isVisible()) {
      tray.destroy();
      tray = null;
    }
  };
  apply();
  return apply;
}
