-- Issues counted by account, state and severity, kept by triggers whoever writes: the total of an
-- issue list sums a few rows per account instead of counting every issue of the state (resolved
-- issues are kept for ever). Once per statement, from its transition tables. SQLite's twin:
-- migration 22.
CREATE TABLE issue_counts (
  account_id TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  state TEXT NOT NULL,
  severity TEXT NOT NULL,
  n BIGINT NOT NULL,
  PRIMARY KEY (account_id, workspace_id, state, severity)
);
INSERT INTO issue_counts (account_id, workspace_id, state, severity, n)
  SELECT account_id, workspace_id, state, severity, count(*) FROM issues
  GROUP BY account_id, workspace_id, state, severity;

CREATE FUNCTION issue_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE issue_counts c SET n = c.n - o.n
    FROM (SELECT account_id, workspace_id, state, severity, count(*) AS n FROM old_rows
          GROUP BY account_id, workspace_id, state, severity) o
    WHERE c.account_id = o.account_id AND c.workspace_id = o.workspace_id AND c.state = o.state
      AND c.severity = o.severity;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO issue_counts AS c (account_id, workspace_id, state, severity, n)
    SELECT account_id, workspace_id, state, severity, count(*) FROM new_rows
    GROUP BY account_id, workspace_id, state, severity
    ON CONFLICT (account_id, workspace_id, state, severity) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER issue_counts_insert AFTER INSERT ON issues
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION issue_counts_apply();
CREATE TRIGGER issue_counts_update AFTER UPDATE ON issues
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION issue_counts_apply();
CREATE TRIGGER issue_counts_delete AFTER DELETE ON issues
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION issue_counts_apply();
