// The team-server choice over IPC: three channels, callable only from the local window's top frame
// (the team window has no preload, so a remote page cannot reach them at all).
import { ipcMain, type BrowserWindow } from 'electron';
import { TEAM_SERVER_CHANNELS } from '../shared/ipc/names';
import { refused, trusted } from './ipc';
import type { TeamMode } from './team-mode/controller';

export function registerTeamServerIpc(teamMode: TeamMode, win: BrowserWindow): () => void {
  ipcMain.handle(TEAM_SERVER_CHANNELS.get, (event) =>
    trusted(event, win) ? { ok: true, value: teamMode.view() } : refused,
  );
  ipcMain.handle(TEAM_SERVER_CHANNELS.use, (event, url: unknown) =>
    trusted(event, win) ? teamMode.use(url) : refused,
  );
  ipcMain.handle(TEAM_SERVER_CHANNELS.useLocal, (event) =>
    trusted(event, win) ? teamMode.useLocal() : refused,
  );
  return () => {
    for (const channel of Object.values(TEAM_SERVER_CHANNELS)) ipcMain.removeHandler(channel);
  };
}
