// Saved views of a screen's table (the campaigns table first): a name and what the analyst set up
// (columns, sort, filters, date range) as JSON, shared by everyone in the workspace.
export const sql = `
CREATE TABLE saved_views (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  screen TEXT NOT NULL CHECK (screen IN ('campaigns')),
  name TEXT NOT NULL,
  -- {columns, sort, filters, dateRange}: validated by the shared schema on the way in and out.
  definition TEXT NOT NULL,
  created_by TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (workspace_id, screen, name)
);
`;
