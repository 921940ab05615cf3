// The preload: one named function per handler of the map, plus event subscription, the report save
// dialog and the team-server choice. No ipcRenderer is exposed, and no channel outside this list can
// be reached.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { DesktopBridge, HandlerFunctions } from '../shared/ipc';
import {
  EVENTS_CHANNEL,
  HANDLER_NAMES,
  ipcChannel,
  SAVE_REPORT_CHANNEL,
  TEAM_SERVER_CHANNELS,
} from '../shared/ipc/names';
import type { BridgeEvent } from '../shared/ipc/types';

const handlers = Object.freeze(
  Object.fromEntries(
    HANDLER_NAMES.map((name) => [name, (args: unknown) => ipcRenderer.invoke(ipcChannel(name), args)]),
  ),
) as HandlerFunctions;

const bridge = {
  handlers,
  onEvent(listener: (event: BridgeEvent) => void): () => void {
    const wrapped = (_event: IpcRendererEvent, payload: BridgeEvent): void => listener(payload);
    ipcRenderer.on(EVENTS_CHANNEL, wrapped);
    return () => ipcRenderer.off(EVENTS_CHANNEL, wrapped);
  },
  saveReport: (reportId: string) => ipcRenderer.invoke(SAVE_REPORT_CHANNEL, reportId),
  // Only the local window has this preload: the team server's pages get no bridge at all.
  teamServer: Object.freeze({
    get: () => ipcRenderer.invoke(TEAM_SERVER_CHANNELS.get),
    use: (url: string) => ipcRenderer.invoke(TEAM_SERVER_CHANNELS.use, url),
    useLocal: () => ipcRenderer.invoke(TEAM_SERVER_CHANNELS.useLocal),
  }),
} satisfies DesktopBridge;

contextBridge.exposeInMainWorld('adlens', bridge);
