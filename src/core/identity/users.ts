import { z } from 'zod';
import { AppError } from '../errors';
import { newId } from '../ids';
import { isUniqueViolation, type Sql } from '../store/sql';

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

export async function createUser(
  sql: Sql,
  input: { workspaceId: string; email: string; name?: string; role?: Role },
  now = new Date(),
): Promise<User> {
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
    await sql.run(
      `INSERT INTO users (id, workspace_id, email, name, role, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
      [row.id, row.workspace_id, row.email, row.name, row.role, row.created_at],
    );
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (isUniqueViolation(error)) {
      throw new AppError('conflict', `${row.email} is already a user of this workspace`);
    }
    if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503') {
      throw new AppError('not_found', `no workspace ${row.workspace_id}`);
    }
    throw error;
  }
  return toUser({ ...row, disabled_at: null, removed_at: null });
}

export async function getUser(sql: Sql, id: string): Promise<User | undefined> {
  const row = await sql.get<UserRow>(`SELECT * FROM users WHERE id = ?`, [id]);
  return row ? toUser(row) : undefined;
}

export async function listUsers(sql: Sql, workspaceId: string): Promise<User[]> {
  const rows = await sql.all<UserRow>(
    `SELECT * FROM users WHERE workspace_id = ? ORDER BY role = 'owner' DESC, created_at, id`,
    [workspaceId],
  );
  return rows.map(toUser);
}

/** The local owner (the desktop app's user): the workspace's first owner. */
export async function getWorkspaceOwner(sql: Sql, workspaceId: string): Promise<User | undefined> {
  const row = await sql.get<UserRow>(
    `SELECT * FROM users WHERE workspace_id = ? AND role = 'owner' AND removed_at IS NULL AND disabled_at IS NULL
     ORDER BY created_at, id LIMIT 1`,
    [workspaceId],
  );
  return row ? toUser(row) : undefined;
}

/** Disables (now) or enables (null) a user; removed users stay removed. */
export async function setUserDisabled(sql: Sql, id: string, at: string | null): Promise<void> {
  await sql.run(`UPDATE users SET disabled_at = ? WHERE id = ? AND removed_at IS NULL`, [at, id]);
}

/**
 * Removes a user from the workspace's people: the row stays (history keeps its author), the e-mail is
 * released (kept in removed_email) so the person can be invited again.
 */
export async function markUserRemoved(sql: Sql, id: string, at: string): Promise<void> {
  await sql.run(
    `UPDATE users SET removed_at = ?, disabled_at = coalesce(disabled_at, ?), removed_email = email,
       email = 'removed+' || id || '@adlens.invalid', password_hash = NULL
     WHERE id = ? AND removed_at IS NULL`,
    [at, at, id],
  );
}

/** Ends every web-dashboard session of the user. */
export async function endSessionsOf(sql: Sql, userId: string): Promise<number> {
  return (await sql.run(`DELETE FROM dashboard_sessions WHERE user_id = ?`, [userId])).changes;
}

export async function setPasswordHash(sql: Sql, userId: string, hash: string): Promise<void> {
  await sql.run(`UPDATE users SET password_hash = ? WHERE id = ?`, [hash, userId]);
}

/** Users (of any workspace) who may sign in with this email: a password set, not removed. */
export function signInCandidates(
  sql: Sql,
  email: string,
): Promise<Array<{ id: string; password_hash: string; disabled_at: string | null }>> {
  return sql.all(
    `SELECT id, password_hash, disabled_at FROM users
     WHERE lower(email) = ? AND password_hash IS NOT NULL AND removed_at IS NULL`,
    [email],
  );
}
