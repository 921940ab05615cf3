// The web bridge: the same handler map as the desktop's IPC, over HTTP. POST /bridge/<name> answers
// a Result value; GET /bridge/events streams the workspace's core events (Server-Sent Events);
// GET /bridge/reports/<id>/file downloads a completed report.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ACCESS_RECHECK_MS } from '../api/routes/events';
import type { App } from '../app';
import { isAppError } from '../errors';
import { reportFile, type Dispatch, type HandlerContext, type HandlerEnv } from '../handlers';
import { readJson, sendError, sendJson } from './http';
import { sessionAlive } from '../identity/sessions';

const HEARTBEAT_MS = 25_000;

export async function handleBridgeCall(
  dispatch: Dispatch,
  ctx: HandlerContext,
  req: IncomingMessage,
  res: ServerResponse,
  name: string,
): Promise<void> {
  let args: unknown;
  try {
    args = await readJson(req);
  } catch (error) {
    if (isAppError(error)) return sendJson(res, 400, { ok: false, error: error.toValue() });
    throw error;
  }
  sendJson(res, 200, await dispatch(ctx, name, args));
}

export function streamEvents(
  app: App,
  ctx: HandlerContext,
  sessionId: string,
  req: IncomingMessage,
  res: ServerResponse,
  open: Set<ServerResponse>,
): void {
  const { core } = app;
  open.add(res);
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  res.write(': connected\n\n');
  const off = core.events.onAny((name, payload) => {
    if (payload.workspaceId !== ctx.workspaceId) return;
    res.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`);
  });
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  // Signing out, an ended session or a disabled user ends the stream within ACCESS_RECHECK_MS.
  const end = (): void => {
    close();
    if (!res.writableEnded) res.end();
  };
  const recheck = setInterval(() => {
    // A store that cannot answer ends the stream too: the client reconnects and signs in again.
    Promise.all([app.use.identity.accessStillValid(ctx), sessionAlive(core.sql, sessionId)]).then(
      ([valid, alive]) => (valid && alive) || end(),
      end,
    );
  }, ACCESS_RECHECK_MS);
  recheck.unref();
  const close = (): void => {
    clearInterval(heartbeat);
    clearInterval(recheck);
    off();
    open.delete(res);
  };
  req.on('close', close);
  res.on('close', close);
}

export async function sendReportFile(
  env: HandlerEnv,
  ctx: HandlerContext,
  res: ServerResponse,
  reportId: string,
): Promise<void> {
  try {
    const file = await reportFile(env, ctx, reportId);
    res.writeHead(200, {
      'Content-Type': file.contentType,
      'Content-Length': file.body.length,
      'Content-Disposition': `attachment; filename="${file.fileName.replace(/["\\\r\n]/g, '_')}"`,
      'Cache-Control': 'no-store',
    });
    res.end(file.body);
  } catch (error) {
    if (isAppError(error))
      return sendError(res, error.type === 'not_found' ? 404 : 409, error.type, error.message);
    throw error;
  }
}
