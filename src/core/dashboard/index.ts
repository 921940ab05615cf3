// The web dashboard, mounted as the /v1 server's fallback: the built renderer at /, sign-in at
// /auth/*, and the typed handler map at /bridge/*. Every request passes a Host check (against DNS
// rebinding); every state-changing bridge call needs the session cookie and its CSRF token.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAppError } from '../errors';
import { createHandlerDispatch, type HandlerApp, type HandlerEnv } from '../handlers';
import { handleAuth } from './auth';
import { handleBridgeCall, sendReportFile, streamEvents } from './bridge';
import { readCookie, securityHeaders, sendError } from './http';
import { csrfMatches, findSession, SESSION_COOKIE, type Session } from '../identity/sessions';
import { serveRenderer } from './static';

export { hashPassword, verifyPassword } from './passwords';
export { LOCKOUT_FAILURES, LOCKOUT_WINDOW_MS, SESSION_COOKIE, SESSION_TTL_MS } from '../identity/sessions';
export { CONTENT_SECURITY_POLICY } from './http';

export interface DashboardOptions {
  /** The built renderer (electron-vite's out/renderer). */
  rendererDir: string;
  /** An extra origin users reach the dashboard through (e.g. behind a local proxy); loopback is always allowed. */
  publicOrigin?: string;
}

export interface DashboardHandler {
  (req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** Ends the open event streams, so the server's close() does not wait for browsers to leave. */
  close(): void;
}

function hostAllowed(req: IncomingMessage, publicHost: string | null): boolean {
  const host = (req.headers.host ?? '').toLowerCase();
  const port = req.socket.localPort;
  if (host === `127.0.0.1:${port}` || host === `localhost:${port}`) return true;
  return publicHost !== null && host === publicHost;
}

/** A POST without a session must still come from our own pages (sign-in, accept). */
function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  return origin === undefined || origin === `http://${req.headers.host ?? ''}`;
}

export function createDashboard(app: HandlerApp, opts: DashboardOptions): DashboardHandler {
  const env: HandlerEnv = {
    app,
    host: { kind: 'web' },
  };
  const dispatch = createHandlerDispatch(env);
  const publicHost = opts.publicOrigin ? new URL(opts.publicOrigin).host.toLowerCase() : null;
  const { core } = app;
  const streams = new Set<ServerResponse>();

  const handler = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    securityHeaders(res);
    if (!hostAllowed(req, publicHost)) {
      sendError(res, 421, 'permission_error', 'This address is not served here (unexpected Host header).');
      return true;
    }
    try {
      const session: Session | undefined = await findSession(
        core.sql,
        core.clock,
        readCookie(req, SESSION_COOKIE),
      );
      if (req.method === 'POST' && !sameOrigin(req)) {
        sendError(res, 403, 'permission_error', 'Cross-origin requests are refused.');
        return true;
      }
      if (path.startsWith('/auth/')) {
        if (path === '/auth/sign-out' && session && !csrfMatches(session, req.headers['x-csrf-token'])) {
          sendError(res, 403, 'permission_error', 'Missing or wrong CSRF token.');
          return true;
        }
        await handleAuth(core, req, res, path, session);
        return true;
      }
      if (path.startsWith('/bridge/')) {
        if (!session) {
          sendError(res, 401, 'authentication_error', 'Sign in to continue.');
          return true;
        }
        const ctx = await app.use.identity.contextForUser(session.userId);
        if (path === '/bridge/events' && req.method === 'GET') {
          streamEvents(app, ctx, session.id, req, res, streams);
          return true;
        }
        const file = /^\/bridge\/reports\/(rpt_[0-9A-Za-z]{16})\/file$/.exec(path);
        if (file && req.method === 'GET') {
          await sendReportFile(env, ctx, res, file[1] as string);
          return true;
        }
        if (req.method !== 'POST') {
          sendError(res, 405, 'invalid_request', 'Bridge calls are POST requests.');
          return true;
        }
        if (!csrfMatches(session, req.headers['x-csrf-token'])) {
          sendError(res, 403, 'permission_error', 'Missing or wrong CSRF token.');
          return true;
        }
        await handleBridgeCall(dispatch, ctx, req, res, path.slice('/bridge/'.length));
        return true;
      }
      const invite = /^\/invite\/([0-9A-Za-z]{10,200})$/.exec(path);
      if (invite && req.method === 'GET') {
        // The token moves into the fragment so it never reaches logs or Referer headers again.
        res.writeHead(302, { Location: `/#/invite/${invite[1]}`, 'Cache-Control': 'no-store' });
        res.end();
        return true;
      }
      if (req.method === 'GET' || req.method === 'HEAD') {
        serveRenderer(opts.rendererDir, req, res, path);
        return true;
      }
      return false;
    } catch (error) {
      if (isAppError(error)) {
        const status =
          { not_found: 404, authentication_error: 401, conflict: 409 }[error.type as string] ?? 400;
        sendError(res, status, error.type, error.message);
        return true;
      }
      core.logger.error('dashboard request failed', {
        path,
        error: String((error as Error)?.stack ?? error),
      });
      if (!res.headersSent) sendError(res, 500, 'api_error', 'Something went wrong.');
      else res.end();
      return true;
    }
  };
  return Object.assign(handler, {
    close: () => {
      for (const res of streams) res.end();
      streams.clear();
    },
  });
}
