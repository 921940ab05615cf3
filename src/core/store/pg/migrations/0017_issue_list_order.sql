-- The issue list in its own order: a workspace's issues of one state, worst and newest first, read as
-- a walk of this index instead of a sort of every issue of the state (resolved issues are kept for
-- ever). The severity rank is the list's own expression (issues/store.ts), and `id DESC` read
-- backwards is the list's `id` ascending tie-break. SQLite's twin: migration 21.
CREATE INDEX issues_list_order ON issues(workspace_id, state,
  (CASE severity WHEN 'LOW' THEN 1 WHEN 'MEDIUM' THEN 2 WHEN 'HIGH' THEN 3 ELSE 4 END), updated_at, id DESC,
  account_id);
