// Dashboard sessions and sign-in lock-out, in the store: a session token is stored only as its
// SHA-256 hash; sign-in failures are kept per email so repeated guessing locks that email out.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock';
import { newId } from '../ids';
import type { Db } from '../store/open';

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

export function createSession(db: Db, clock: Clock, userId: string): { token: string; session: Session } {
  const token = randomBytes(32).toString('base64url');
  const now = clock.now();
  const session: Session = {
    id: newId('sess'),
    userId,
    csrfToken: randomBytes(24).toString('base64url'),
    expiresAt: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
  };
  db.prepare(
    `INSERT INTO dashboard_sessions (id, user_id, token_hash, csrf_token, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(session.id, userId, hashToken(token), session.csrfToken, now.toISOString(), session.expiresAt);
  return { token, session };
}

export function findSession(db: Db, clock: Clock, token: string | undefined): Session | undefined {
  if (!token) return undefined;
  const row = db
    .prepare(`SELECT id, user_id, csrf_token, expires_at FROM dashboard_sessions WHERE token_hash = ?`)
    .get(hashToken(token)) as
    { id: string; user_id: string; csrf_token: string; expires_at: string } | undefined;
  if (!row) return undefined;
  if (Date.parse(row.expires_at) <= clock.now().getTime()) {
    db.prepare(`DELETE FROM dashboard_sessions WHERE id = ?`).run(row.id);
    return undefined;
  }
  return { id: row.id, userId: row.user_id, csrfToken: row.csrf_token, expiresAt: row.expires_at };
}

export function deleteSession(db: Db, id: string): void {
  db.prepare(`DELETE FROM dashboard_sessions WHERE id = ?`).run(id);
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

export type SignInAttempt = { allowed: true; attemptId: number } | { allowed: false; waitMs: number };

function lockedFor(db: Db, column: 'email' | 'client', value: string, limit: number, now: number): number {
  const since = new Date(now - LOCKOUT_WINDOW_MS).toISOString();
  const rows = db
    .prepare(
      `SELECT failed_at FROM sign_in_failures WHERE ${column} = ? AND failed_at > ?
       ORDER BY failed_at DESC LIMIT ?`,
    )
    .all(value, since, limit) as Array<{ failed_at: string }>;
  if (rows.length < limit) return 0;
  return Math.max(0, Date.parse(rows[0]?.failed_at ?? '') + LOCKOUT_WINDOW_MS - now);
}

/**
 * Counts an attempt as a failure before the (slow) password check, in one transaction with the
 * lock-out check: parallel attempts each see the ones reserved before them, so a burst cannot slip
 * past the limit. A successful sign-in clears the email's failures afterwards.
 */
export function reserveSignInAttempt(db: Db, clock: Clock, email: string, client: string): SignInAttempt {
  return db
    .transaction((): SignInAttempt => {
      const now = clock.now().getTime();
      const waitMs = Math.max(
        lockedFor(db, 'email', email, LOCKOUT_FAILURES, now),
        lockedFor(db, 'client', client, LOCKOUT_CLIENT_FAILURES, now),
      );
      if (waitMs > 0) return { allowed: false, waitMs };
      const result = db
        .prepare(`INSERT INTO sign_in_failures (email, client, failed_at) VALUES (?, ?, ?)`)
        .run(email, client, new Date(now).toISOString());
      return { allowed: true, attemptId: Number(result.lastInsertRowid) };
    })
    .immediate();
}

/** Milliseconds until the email may try again, or 0 when it is not locked out. */
export function lockoutRemainingMs(db: Db, clock: Clock, email: string): number {
  return lockedFor(db, 'email', email, LOCKOUT_FAILURES, clock.now().getTime());
}

export function clearSignInFailures(db: Db, email: string): void {
  db.prepare(`DELETE FROM sign_in_failures WHERE email = ?`).run(email);
}

/** Whether the session still exists (signed out, expired or its user disabled: it does not). */
export function sessionAlive(db: Db, sessionId: string): boolean {
  return db.prepare(`SELECT 1 FROM dashboard_sessions WHERE id = ?`).get(sessionId) !== undefined;
}
