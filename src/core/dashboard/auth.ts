// /auth/*: accept an invitation (set a password), sign in, sign out, and the current session.
// There is no sign-up route: a user exists only through an invitation (DESIGN §4).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { Core } from '../core';
import { AppError } from '../errors';
import { findOpenInvitation, markInvitationAccepted } from '../identity/invitations';
import { createUser, getUser, setPasswordHash, signInCandidates } from '../identity/users';
import { getWorkspace } from '../identity/workspaces';
import { readJson, sendError, sendJson } from './http';
import { dummyHash, hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from './passwords';
import {
  CLEARED_SESSION_COOKIE,
  clearSignInFailures,
  createSession,
  deleteSession,
  reserveSignInAttempt,
  sessionCookie,
  type Session,
} from '../identity/sessions';

const password = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters.`)
  .max(200, 'Use at most 200 characters.');
const acceptBody = z.object({
  token: z.string().min(10).max(200),
  password,
  name: z.string().trim().max(200).optional(),
});
const signInBody = z.object({
  email: z.string().trim().toLowerCase().min(3).max(320),
  password: z.string().max(200),
});

export interface SessionInfo {
  user: { id: string; email: string; name: string | null; role: string };
  workspace: { id: string; name: string; plan: string };
  csrfToken: string;
}

export async function sessionInfo(core: Core, session: Session): Promise<SessionInfo | undefined> {
  const user = await getUser(core.sql, session.userId);
  const workspace = user ? await getWorkspace(core.sql, user.workspaceId) : undefined;
  if (!user || !workspace) return undefined;
  return {
    user: { id: user.id, email: user.email, name: user.name, role: user.role },
    workspace: { id: workspace.id, name: workspace.name, plan: workspace.plan },
    csrfToken: session.csrfToken,
  };
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw new AppError('invalid_request', parsed.error.issues.map((i) => i.message).join('; '));
  return parsed.data;
}

async function startSession(core: Core, res: ServerResponse, userId: string): Promise<void> {
  const { token, session } = await createSession(core.sql, core.clock, userId);
  sendJson(
    res,
    200,
    { ok: true, value: await sessionInfo(core, session) },
    { 'Set-Cookie': sessionCookie(token) },
  );
}

export async function handleAuth(
  core: Core,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  session: Session | undefined,
): Promise<void> {
  const { sql, clock } = core;
  if (path === '/auth/session' && req.method === 'GET') {
    const info = session ? await sessionInfo(core, session) : undefined;
    if (!info) return sendError(res, 401, 'authentication_error', 'Sign in to continue.');
    return sendJson(res, 200, { ok: true, value: info });
  }
  if (path === '/auth/invitation' && req.method === 'GET') {
    const token = new URL(req.url ?? '/', 'http://x').searchParams.get('token') ?? '';
    const invitation = await findOpenInvitation(sql, clock, token);
    const workspace = await getWorkspace(sql, invitation.workspaceId);
    return sendJson(res, 200, {
      ok: true,
      value: { email: invitation.email, workspaceName: workspace?.name ?? '' },
    });
  }
  if (path === '/auth/accept' && req.method === 'POST') {
    const body = parse(acceptBody, await readJson(req));
    const invitation = await findOpenInvitation(sql, clock, body.token);
    const passwordHash = await hashPassword(body.password);
    // One transaction: the link is used exactly once even if two tabs submit at the same moment.
    const userId = await sql.transaction(async (tx) => {
      const user = await createUser(
        tx,
        {
          workspaceId: invitation.workspaceId,
          email: invitation.email,
          ...(body.name ? { name: body.name } : {}),
        },
        clock.now(),
      );
      await setPasswordHash(tx, user.id, passwordHash);
      await markInvitationAccepted(tx, clock, invitation.id, user.id);
      return user.id;
    });
    return startSession(core, res, userId);
  }
  if (path === '/auth/sign-in' && req.method === 'POST') {
    const body = parse(signInBody, await readJson(req));
    const attempt = await reserveSignInAttempt(sql, clock, body.email, req.socket.remoteAddress ?? '');
    if (!attempt.allowed) {
      const minutes = Math.ceil(attempt.waitMs / 60_000);
      return sendError(
        res,
        429,
        'rate_limit_error',
        `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      );
    }
    const candidates = await signInCandidates(sql, body.email);
    // An unknown email costs the same hash as a known one, so timing does not tell which exist.
    if (candidates.length === 0) await verifyPassword(body.password, await dummyHash());
    for (const candidate of candidates) {
      if (await verifyPassword(body.password, candidate.password_hash)) {
        await clearSignInFailures(sql, body.email);
        if (candidate.disabled_at) {
          return sendError(
            res,
            403,
            'permission_error',
            'This user has been disabled by the workspace owner.',
          );
        }
        return startSession(core, res, candidate.id);
      }
    }
    // The same answer whether the email is unknown or the password wrong.
    return sendError(res, 401, 'authentication_error', 'That email and password do not match.');
  }
  if (path === '/auth/sign-out' && req.method === 'POST') {
    if (session) await deleteSession(sql, session.id);
    res.writeHead(204, { 'Set-Cookie': CLEARED_SESSION_COOKIE, 'Cache-Control': 'no-store' });
    return void res.end();
  }
  sendError(res, 404, 'not_found', 'No such page.');
}
