// Placeholder host entry; the desktop issue replaces it with the real Electron host.
import { app } from 'electron';

app.whenReady().then(() => app.quit());
