import { z } from 'zod';
import { AppError } from '../errors';
import { newId } from '../ids';
import type { Db } from '../store/open';

export const PLANS = ['starter', 'pro', 'agency', 'trial'] as const;
export type Plan = (typeof PLANS)[number];
export const planSchema = z.enum(PLANS);

export interface Workspace {
  id: string;
  name: string;
  plan: Plan;
  createdAt: string;
}

interface WorkspaceRow {
  id: string;
  name: string;
  plan: Plan;
  created_at: string;
}

const toWorkspace = (row: WorkspaceRow): Workspace => ({
  id: row.id,
  name: row.name,
  plan: row.plan,
  createdAt: row.created_at,
});

const createInput = z.object({
  name: z.string().trim().min(1, 'a workspace needs a name').max(200),
  plan: planSchema,
});

export function createWorkspace(db: Db, input: { name: string; plan: Plan }, now = new Date()): Workspace {
  const parsed = createInput.safeParse(input);
  if (!parsed.success) {
    throw new AppError('invalid_request', parsed.error.issues.map((issue) => issue.message).join('; '));
  }
  const row: WorkspaceRow = {
    id: newId('ws'),
    name: parsed.data.name,
    plan: parsed.data.plan,
    created_at: now.toISOString(),
  };
  db.prepare(
    `INSERT INTO workspaces (id, name, plan, created_at) VALUES (@id, @name, @plan, @created_at)`,
  ).run(row);
  return toWorkspace(row);
}

export function listWorkspaces(db: Db): Workspace[] {
  const rows = db.prepare(`SELECT * FROM workspaces ORDER BY created_at, id`).all() as WorkspaceRow[];
  return rows.map(toWorkspace);
}

export function getWorkspace(db: Db, id: string): Workspace | undefined {
  const row = db.prepare(`SELECT * FROM workspaces WHERE id = ?`).get(id) as WorkspaceRow | undefined;
  return row ? toWorkspace(row) : undefined;
}

/** The workspace or a not_found AppError naming the ID (CLI and services share the message). */
export function requireWorkspace(db: Db, id: string): Workspace {
  const workspace = getWorkspace(db, id);
  if (!workspace) throw new AppError('not_found', `no workspace ${id}`);
  return workspace;
}
