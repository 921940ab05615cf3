// History the product makes by itself is thinned once it is old (watch/retention.ts): every hourly
// sync that revises an account brings an automatic account diagnosis (about 70 KB for 100 campaigns),
// so an agency of 500 accounts wrote some 800 MB of diagnoses a day, and 12,000 sync runs, kept for
// ever. `retained` marks a diagnosis kept through thinning: the last of its account's day, or one an
// issue's history, an issue or a feedback points at. PostgreSQL's twin: pg migration 0012.
export const sql = `
ALTER TABLE diagnostics ADD COLUMN retained INTEGER NOT NULL DEFAULT 0;
-- Diagnoses an issue's history names (what opened, worsened, improved, reopened or resolved it).
UPDATE diagnostics SET retained = 1 WHERE trigger = 'automatic' AND id IN (
  SELECT json_extract(h.value, '$.diagnosticId') FROM issues, json_each(issues.history) h);
-- The automatic diagnoses still to thin, oldest first.
CREATE INDEX diagnostics_unthinned ON diagnostics(created_at) WHERE trigger = 'automatic' AND retained = 0;
-- An account's diagnoses by time: the one a day keeps, and an account's list (its page and its count)
-- without walking every account's diagnoses of the workspace.
CREATE INDEX diagnostics_account_created ON diagnostics(account_id, created_at);
-- Whether an issue still points at a diagnosis.
CREATE INDEX issues_diagnostic ON issues(diagnostic_id);
-- Old sync runs, oldest first.
CREATE INDEX sync_runs_started ON sync_runs(started_at);
-- Alert deliveries by time (old ones thinned), and a destination's last one in one probe.
CREATE INDEX alert_deliveries_created ON alert_deliveries(created_at);
CREATE INDEX alert_deliveries_destination_created ON alert_deliveries(destination_id, created_at);
`;
