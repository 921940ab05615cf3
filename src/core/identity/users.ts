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
}

interface UserRow {
  id: string;
  workspace_id: string;
  email: string;
  name: string | null;
  role: Role;
  created_at: string;
}

const toUser = (row: UserRow): User => ({
  id: row.id,
  workspaceId: row.workspace_id,
  email: row.email,
  name: row.name,
  role: row.role,
  createdAt: row.created_at,
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
  return toUser(row);
}

export function getUser(db: Db, id: string): User | undefined {
  const row = db.prepare(`SELECT * FROM users WHERE id = ?`).get(id) as UserRow | undefined;
  return row ? toUser(row) : undefined;
}

export function listUsers(db: Db, workspaceId: string): User[] {
  const rows = db
    .prepare(`SELECT * FROM users WHERE workspace_id = ? ORDER BY created_at, id`)
    .all(workspaceId) as UserRow[];
  return rows.map(toUser);
}

/** The local owner (the desktop app's user): the workspace's first owner. */
export function getWorkspaceOwner(db: Db, workspaceId: string): User | undefined {
  const row = db
    .prepare(`SELECT * FROM users WHERE workspace_id = ? AND role = 'owner' ORDER BY created_at, id LIMIT 1`)
    .get(workspaceId) as UserRow | undefined;
  return row ? toUser(row) : undefined;
}
