import { z } from 'zod';
import { AppError } from '../errors';
import { newId } from '../ids';
import type { Sql } from '../store/sql';

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

export async function createWorkspace(
  sql: Sql,
  input: { name: string; plan: Plan },
  now = new Date(),
): Promise<Workspace> {
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
  await sql.run(`INSERT INTO workspaces (id, name, plan, created_at) VALUES (?, ?, ?, ?)`, [
    row.id,
    row.name,
    row.plan,
    row.created_at,
  ]);
  return toWorkspace(row);
}

export async function listWorkspaces(sql: Sql): Promise<Workspace[]> {
  const rows = await sql.all<WorkspaceRow>(`SELECT * FROM workspaces ORDER BY created_at, id`);
  return rows.map(toWorkspace);
}

export async function getWorkspace(sql: Sql, id: string): Promise<Workspace | undefined> {
  const row = await sql.get<WorkspaceRow>(`SELECT * FROM workspaces WHERE id = ?`, [id]);
  return row ? toWorkspace(row) : undefined;
}

/** The workspace or a not_found AppError naming the ID (CLI and services share the message). */
export async function requireWorkspace(sql: Sql, id: string): Promise<Workspace> {
  const workspace = await getWorkspace(sql, id);
  if (!workspace) throw new AppError('not_found', `no workspace ${id}`);
  return workspace;
}
