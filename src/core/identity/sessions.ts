// Dashboard sessions and sign-in lock-out, in the store: a session token is stored only as its
// SHA-256 hash; sign-in failures are kept per email so repeated guessing locks that email out.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock';
import { newId } from '../ids';
import type { Sql } from '../store/sql';

export const SESSION_COOKIE = 'adlens_session';
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** Five failures within fifteen minutes lock the email out for fifteen minutes from the last one. */
export const LOCKOUT_FAILURES = 5;
export const LOCKOUT_WINDOW_MS = 15 * 60 * 1000;

export interface Session {
  id: string;
  userId: string;
  csrfToken: string;
  expiresAt: string;
}

const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

export async function createSession(
  sql: Sql,
  clock: Clock,
  userId: string,
): Promise<{ token: string; session: Session }> {
  const token = randomBytes(32).toString('base64url');
  const now = clock.now();
  const session: Session = {
    id: newId('sess'),
    userId,
    csrfToken: randomBytes(24).toString('base64url'),
    expiresAt: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
  };
  await sql.run(
    `INSERT INTO dashboard_sessions (id, user_id, token_hash, csrf_token, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
    [session.id, userId, hashToken(token), session.csrfToken, now.toISOString(), session.expiresAt],
  );
  return { token, session };
}

export async function findSession(
  sql: Sql,
  clock: Clock,
  token: string | undefined,
): Promise<Session | undefined> {
  if (!token) return undefined;
  const row = await sql.get<{ id: string; user_id: string; csrf_token: string; expires_at: string }>(
    `SELECT id, user_id, csrf_token, expires_at FROM dashboard_sessions WHERE token_hash = ?`,
    [hashToken(token)],
  );
  if (!row) return undefined;
  if (Date.parse(row.expires_at) <= clock.now().getTime()) {
    await sql.run(`DELETE FROM dashboard_sessions WHERE id = ?`, [row.id]);
    return undefined;
  }
  return { id: row.id, userId: row.user_id, csrfToken: row.csrf_token, expiresAt: row.expires_at };
}

export async function deleteSession(sql: Sql, id: string): Promise<void> {
  await sql.run(`DELETE FROM dashboard_sessions WHERE id = ?`, [id]);
}

export function csrfMatches(session: Session, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string') return false;
  const a = Buffer.from(header);
  const b = Buffer.from(session.csrfToken);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function sessionCookie(token: string): string {
  return `${SESSION_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${SESSION_TTL_MS / 1000}`;
}

export const CLEARED_SESSION_COOKIE = `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`;

/** Failures from one client address (whatever the emails) within the window that lock it out. */
export const LOCKOUT_CLIENT_FAILURES = 20;

export type SignInAttempt = { allowed: true } | { allowed: false; waitMs: number };

async function lockedFor(
  sql: Sql,
  column: 'email' | 'client',
  value: string,
  limit: number,
  now: number,
): Promise<number> {
  const since = new Date(now - LOCKOUT_WINDOW_MS).toISOString();
  const rows = await sql.all<{ failed_at: string }>(
    `SELECT failed_at FROM sign_in_failures WHERE ${column} = ? AND failed_at > ?
     ORDER BY failed_at DESC LIMIT ?`,
    [value, since, limit],
  );
  if (rows.length < limit) return 0;
  return Math.max(0, Date.parse(rows[0]?.failed_at ?? '') + LOCKOUT_WINDOW_MS - now);
}

/**
 * Counts an attempt as a failure before the (slow) password check, in one transaction with the
 * lock-out check, holding the email and the client address (in that order, so two attempts never
 * wait on each other in a circle): parallel attempts, on any process, each see the ones reserved
 * before them, so a burst cannot slip past the limit. A successful sign-in clears the email's
 * failures afterwards.
 */
export function reserveSignInAttempt(
  sql: Sql,
  clock: Clock,
  email: string,
  client: string,
): Promise<SignInAttempt> {
  return sql.transaction(async (tx): Promise<SignInAttempt> => {
    await tx.lock(`sign-in:email:${email}`);
    await tx.lock(`sign-in:client:${client}`);
    const now = clock.now().getTime();
    const waitMs = Math.max(
      await lockedFor(tx, 'email', email, LOCKOUT_FAILURES, now),
      await lockedFor(tx, 'client', client, LOCKOUT_CLIENT_FAILURES, now),
    );
    if (waitMs > 0) return { allowed: false, waitMs };
    await tx.run(`INSERT INTO sign_in_failures (email, client, failed_at) VALUES (?, ?, ?)`, [
      email,
      client,
      new Date(now).toISOString(),
    ]);
    return { allowed: true };
  });
}

/** Milliseconds until the email may try again, or 0 when it is not locked out. */
export function lockoutRemainingMs(sql: Sql, clock: Clock, email: string): Promise<number> {
  return lockedFor(sql, 'email', email, LOCKOUT_FAILURES, clock.now().getTime());
}

export async function clearSignInFailures(sql: Sql, email: string): Promise<void> {
  await sql.run(`DELETE FROM sign_in_failures WHERE email = ?`, [email]);
}

/** Whether the session still exists (signed out, expired or its user disabled: it does not). */
export async function sessionAlive(sql: Sql, sessionId: string): Promise<boolean> {
  return (await sql.get(`SELECT 1 FROM dashboard_sessions WHERE id = ?`, [sessionId])) !== undefined;
}
