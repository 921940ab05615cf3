// The saved_views table: the only SQL on it.
import { stmt } from '../identity/access';
import type { Db } from '../store/open';

export interface SavedViewRow {
  id: string;
  screen: string;
  name: string;
  definition: string;
  created_at: string;
  updated_at: string;
}

export function viewsOf(db: Db, workspaceId: string, screen: string): SavedViewRow[] {
  return stmt(
    db,
    `SELECT id, screen, name, definition, created_at, updated_at FROM saved_views
     WHERE workspace_id = ? AND screen = ? ORDER BY name`,
  ).all(workspaceId, screen) as SavedViewRow[];
}

/** Saves by name: a view of the same name on the same screen is replaced (its ID kept). */
export function upsertView(
  db: Db,
  row: {
    id: string;
    workspaceId: string;
    screen: string;
    name: string;
    definition: string;
    userId: string | null;
    at: string;
  },
): SavedViewRow {
  stmt(
    db,
    `INSERT INTO saved_views (id, workspace_id, screen, name, definition, created_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (workspace_id, screen, name) DO UPDATE SET definition = excluded.definition, updated_at = excluded.updated_at`,
  ).run(row.id, row.workspaceId, row.screen, row.name, row.definition, row.userId, row.at, row.at);
  return stmt(
    db,
    `SELECT id, screen, name, definition, created_at, updated_at FROM saved_views
     WHERE workspace_id = ? AND screen = ? AND name = ?`,
  ).get(row.workspaceId, row.screen, row.name) as SavedViewRow;
}

/** Removes a view of the workspace; false when there is none with that ID there. */
export function deleteView(db: Db, workspaceId: string, id: string): boolean {
  return (
    stmt(db, `DELETE FROM saved_views WHERE id = ? AND workspace_id = ?`).run(id, workspaceId).changes > 0
  );
}
