// The issue list in its own order: a workspace's issues of one state, worst and newest first, read as
// a walk of this index instead of a sort of every issue of the state. Resolved issues are kept for
// ever (100,000 in a workspace after months): a page of all accounts' resolved issues sorted them all
// (63 ms on SQLite at 100,000). The severity rank is the list's own expression (issues/store.ts), and
// `id DESC` read backwards is the list's `id` ascending tie-break. `account_id` lets the count of a
// page's total check each issue's account in the index. PostgreSQL's twin: pg migration 0017.
export const sql = `
CREATE INDEX issues_list_order ON issues(workspace_id, state,
  (CASE severity WHEN 'LOW' THEN 1 WHEN 'MEDIUM' THEN 2 WHEN 'HIGH' THEN 3 ELSE 4 END), updated_at, id DESC,
  account_id);
`;
