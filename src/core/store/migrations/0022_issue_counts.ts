// Issues counted by account, state and severity, kept by triggers whoever writes: the total of an
// issue list (a page's `pagination.total`) sums a few rows per account instead of counting every
// issue of the state. Resolved issues are kept for ever: at 100,000 in a workspace, counting them took
// 15 ms of every request for the list's first page, and 8 clients waited on each other's counts.
// PostgreSQL's twin: pg migration 0018.
export const sql = `
CREATE TABLE issue_counts (
  account_id TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  state TEXT NOT NULL,
  severity TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (account_id, workspace_id, state, severity)
) WITHOUT ROWID;
INSERT INTO issue_counts (account_id, workspace_id, state, severity, n)
  SELECT account_id, workspace_id, state, severity, count(*) FROM issues
  GROUP BY account_id, workspace_id, state, severity;

CREATE TRIGGER issue_counts_insert AFTER INSERT ON issues BEGIN
  INSERT INTO issue_counts (account_id, workspace_id, state, severity, n)
  VALUES (NEW.account_id, NEW.workspace_id, NEW.state, NEW.severity, 1)
  ON CONFLICT (account_id, workspace_id, state, severity) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER issue_counts_update AFTER UPDATE OF account_id, workspace_id, state, severity ON issues
WHEN NEW.account_id IS NOT OLD.account_id OR NEW.workspace_id IS NOT OLD.workspace_id
  OR NEW.state IS NOT OLD.state OR NEW.severity IS NOT OLD.severity
BEGIN
  UPDATE issue_counts SET n = n - 1 WHERE account_id = OLD.account_id AND workspace_id = OLD.workspace_id
    AND state = OLD.state AND severity = OLD.severity;
  INSERT INTO issue_counts (account_id, workspace_id, state, severity, n)
  VALUES (NEW.account_id, NEW.workspace_id, NEW.state, NEW.severity, 1)
  ON CONFLICT (account_id, workspace_id, state, severity) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER issue_counts_delete AFTER DELETE ON issues BEGIN
  UPDATE issue_counts SET n = n - 1 WHERE account_id = OLD.account_id AND workspace_id = OLD.workspace_id
    AND state = OLD.state AND severity = OLD.severity;
END;
`;
