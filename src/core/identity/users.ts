import { z } from 'zod';
import { AppError } from '../errors';
import { newId } from '../ids';
import type { Db } from '../store/open';

export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

export interface User {
  id: string;
  workspaceId: string;
  email: string;
  name: string | null;
  role: Role;
  createdAt: string;
  /** active, disabled (sign-in refused, can be enabled again) or removed (kept for history only). */
  status: UserStatus;
}

export type UserStatus = 'active' | 'disabled' | 'removed';

interface UserRow {
  id: string;
  workspace_id: string;
  email: string;
  name: string | null;
  role: Role;
  created_at: string;
  disabled_at?: string | null;
  removed_at?: string | null;
  removed_email?: string | null;
}

const toUser = (row: UserRow): User => ({
  id: row.id,
  workspaceId: row.workspace_id,
  email: row.removed_at ? (row.removed_email ?? row.email) : row.email,
  name: row.name,
  role: row.role,
  createdAt: row.created_at,
  status: row.removed_at ? 'removed' : row.disabled_at ? 'disabled' : 'active',
});

const createInput = z.object({
  workspaceId: z.string().min(1),
  email: z.string().trim().toLowerCase().pipe(z.email()),
  name: z.string().trim().max(200).optional(),
  role: z.enum(ROLES).optional(),
});

export function createUser(
  db: Db,
  input: { workspaceId: string; email: string; name?: string; role?: Role },
  now = new Date(),
): User {
  const parsed = createInput.safeParse(input);
  if (!parsed.success) {
    throw new AppError('invalid_request', parsed.error.issues.map((issue) => issue.message).join('; '));
  }
  const row: UserRow = {
    id: newId('user'),
    workspace_id: parsed.data.workspaceId,
    email: parsed.data.email,
    name: parsed.data.name ?? null,
    role: parsed.data.role ?? 'member',
    created_at: now.toISOString(),
  };
  try {
    db.prepare(
      `INSERT INTO users (id, workspace_id, email, name, role, created_at)
       VALUES (@id, @workspace_id, @email, @name, @role, @created_at)`,
    ).run(row);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_CONSTRAINT_UNIQUE') {
      throw new AppError('conflict', `${row.email} is already a user of this workspace`);
    }
    if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
      throw new AppError('not_found', `no workspace ${row.workspace_id}`);
    }
    throw error;
  }
  return toUser({ ...row, disabled_at: null, removed_at: null });
}

export function getUser(db: Db, id: string): User | undefined {
  const row = db.prepare(`SELECT * FROM users WHERE id = ?`).get(id) as UserRow | undefined;
  return row ? toUser(row) : undefined;
}

export function listUsers(db: Db, workspaceId: string): User[] {
  const rows = db
    .prepare(`SELECT * FROM users WHERE workspace_id = ? ORDER BY role = 'owner' DESC, created_at, id`)
    .all(workspaceId) as UserRow[];
  return rows.map(toUser);
}

/** The local owner (the desktop app's user): the workspace's first owner. */
export function getWorkspaceOwner(db: Db, workspaceId: string): User | undefined {
  const row = db
    .prepare(
      `SELECT * FROM users WHERE workspace_id = ? AND role = 'owner' AND removed_at IS NULL AND disabled_at IS NULL
       ORDER BY created_at, id LIMIT 1`,
    )
    .get(workspaceId) as UserRow | undefined;
  return row ? toUser(row) : undefined;
}

/** Disables (now) or enables (null) a user; removed users stay removed. */
export function setUserDisabled(db: Db, id: string, at: string | null): void {
  db.prepare(`UPDATE users SET disabled_at = ? WHERE id = ? AND removed_at IS NULL`).run(at, id);
}

/**
 * Removes a user from the workspace's people: the row stays (history keeps its author), the e-mail is
 * released (kept in removed_email) so the person can be invited again.
 */
export function markUserRemoved(db: Db, id: string, at: string): void {
  db.prepare(
    `UPDATE users SET removed_at = ?, disabled_at = coalesce(disabled_at, ?), removed_email = email,
       email = 'removed+' || id || '@adlens.invalid', password_hash = NULL
     WHERE id = ? AND removed_at IS NULL`,
  ).run(at, at, id);
}

/** Ends every web-dashboard session of the user. */
export function endSessionsOf(db: Db, userId: string): number {
  return db.prepare(`DELETE FROM dashboard_sessions WHERE user_id = ?`).run(userId).changes;
}

export function setPasswordHash(db: Db, userId: string, hash: string): void {
  db.prepare(`UPDATE users SET password_hash = ? WHERE id = ?`).run(hash, userId);
}

/** Users (of any workspace) who may sign in with this email: a password set, not removed. */
export function signInCandidates(
  db: Db,
  email: string,
): Array<{ id: string; password_hash: string; disabled_at: string | null }> {
  return db
    .prepare(
      `SELECT id, password_hash, disabled_at FROM users
       WHERE lower(email) = ? AND password_hash IS NOT NULL AND removed_at IS NULL`,
    )
    .all(email) as Array<{ id: string; password_hash: string; disabled_at: string | null }>;
}
