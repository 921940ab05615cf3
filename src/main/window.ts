// The one window: sandboxed, context-isolated, no Node in the renderer, a strict CSP, and no way to
// navigate away or open windows (https links go to the system browser).
import { BrowserWindow, session, shell } from 'electron';
import { join } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../core/dashboard/http';

export function hardenSession(): void {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
  });
  // The renderer never needs camera, notifications from web code, geolocation…
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
}

/** The local window; `showWhenReady: false` when the app opens on the team server's window instead. */
export function createMainWindow(
  options: { showWhenReady: boolean } = { showWhenReady: true },
): BrowserWindow {
  const win = new BrowserWindow({
    width: 1360,
    height: 880,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'AdLens',
    backgroundColor: '#f6f7f9',
    webPreferences: {
      preload: join(__dirname, '../preload/index.js'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  if (options.showWhenReady) win.once('ready-to-show', () => win.show());
  const contents = win.webContents;
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    if (url.startsWith('https://')) void shell.openExternal(url);
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  const devUrl = process.env.ELECTRON_RENDERER_URL;
  if (devUrl) void win.loadURL(devUrl);
  else void win.loadFile(join(__dirname, '../renderer/index.html'));
  return win;
}
