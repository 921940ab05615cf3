// The saved_views table: the only SQL on it, behind the store boundary (either engine).
import type { Sql } from '../store/sql';

export interface SavedViewRow {
  id: string;
  screen: string;
  name: string;
  definition: string;
  created_at: string;
  updated_at: string;
}

const COLUMNS = `id, screen, name, definition, created_at, updated_at`;

export function viewsOf(sql: Sql, workspaceId: string, screen: string): Promise<SavedViewRow[]> {
  return sql.all<SavedViewRow>(
    `SELECT ${COLUMNS} FROM saved_views WHERE workspace_id = ? AND screen = ? ORDER BY name`,
    [workspaceId, screen],
  );
}

/** Saves by name: a view of the same name on the same screen is replaced (its ID kept). */
export async function upsertView(
  sql: Sql,
  row: {
    id: string;
    workspaceId: string;
    screen: string;
    name: string;
    definition: string;
    userId: string | null;
    at: string;
  },
): Promise<SavedViewRow> {
  const saved = await sql.get<SavedViewRow>(
    `INSERT INTO saved_views (id, workspace_id, screen, name, definition, created_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (workspace_id, screen, name) DO UPDATE SET definition = excluded.definition, updated_at = excluded.updated_at
     RETURNING ${COLUMNS}`,
    [row.id, row.workspaceId, row.screen, row.name, row.definition, row.userId, row.at, row.at],
  );
  return saved as SavedViewRow;
}

/** Removes a view of the workspace; false when there is none with that ID there. */
export async function deleteView(sql: Sql, workspaceId: string, id: string): Promise<boolean> {
  const { changes } = await sql.run(`DELETE FROM saved_views WHERE id = ? AND workspace_id = ?`, [
    id,
    workspaceId,
  ]);
  return changes > 0;
}
