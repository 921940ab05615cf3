// One ipcMain.handle per handler-map entry, all through the shared dispatcher (zod validation,
// errors as values); plus the two host-only channels: core events out, and the report save dialog.
import { dialog, ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { isAppError } from '../core/errors';
import { reportFile, type Dispatch, type HandlerContext, type HandlerEnv } from '../core/handlers';
import type { Result } from '../shared/errors';
import { EVENTS_CHANNEL, HANDLER_NAMES, ipcChannel, SAVE_REPORT_CHANNEL } from '../shared/ipc/names';
import type { BridgeEvent } from '../shared/ipc/types';

const reportId = z.string().regex(/^rpt_[0-9A-Za-z]{16}$/);

/** Only our own window's top frame may call in. */
export function trusted(event: IpcMainInvokeEvent, win: BrowserWindow): boolean {
  return event.sender === win.webContents && event.senderFrame === win.webContents.mainFrame;
}

export const refused: Result<never> = {
  ok: false,
  error: { type: 'permission_error', message: 'Unknown caller.' },
};

export function registerIpc(
  env: HandlerEnv,
  dispatch: Dispatch,
  ctx: () => HandlerContext,
  win: BrowserWindow,
): () => void {
  for (const name of HANDLER_NAMES) {
    ipcMain.handle(ipcChannel(name), (event, args: unknown) =>
      trusted(event, win) ? dispatch(ctx(), name, args) : refused,
    );
  }
  ipcMain.handle(
    SAVE_REPORT_CHANNEL,
    async (event, raw: unknown): Promise<Result<{ path: string | null }>> => {
      if (!trusted(event, win)) return refused;
      const id = reportId.safeParse(raw);
      if (!id.success) return { ok: false, error: { type: 'invalid_request', message: 'Not a report ID.' } };
      try {
        const file = await reportFile(env, ctx(), id.data);
        const choice = await dialog.showSaveDialog(win, { title: 'Save report', defaultPath: file.fileName });
        if (choice.canceled || !choice.filePath) return { ok: true, value: { path: null } };
        await writeFile(choice.filePath, file.body);
        return { ok: true, value: { path: choice.filePath } };
      } catch (error) {
        if (isAppError(error)) return { ok: false, error: error.toValue() };
        return { ok: false, error: { type: 'api_error', message: 'The report could not be saved.' } };
      }
    },
  );
  const off = env.app.core.events.onAny((name, payload) => {
    if (payload.workspaceId !== ctx().workspaceId || win.isDestroyed()) return;
    const event: BridgeEvent = { name, payload: payload as unknown as Record<string, unknown> };
    win.webContents.send(EVENTS_CHANNEL, event);
  });
  return () => {
    off();
    for (const name of HANDLER_NAMES) ipcMain.removeHandler(ipcChannel(name));
    ipcMain.removeHandler(SAVE_REPORT_CHANNEL);
  };
}
