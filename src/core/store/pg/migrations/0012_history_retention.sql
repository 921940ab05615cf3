-- History the product makes by itself is thinned once it is old (watch/retention.ts): automatic
-- diagnoses (one per hourly sync that revised an account) and sync runs. `retained` marks a diagnosis
-- kept through thinning. SQLite's twin: migration 16.
ALTER TABLE diagnostics ADD COLUMN retained BIGINT NOT NULL DEFAULT 0;
UPDATE diagnostics SET retained = 1 WHERE trigger = 'automatic' AND id IN (
  SELECT h.value ->> 'diagnosticId' FROM issues, json_array_elements(issues.history::json) h);
CREATE INDEX diagnostics_unthinned ON diagnostics(created_at) WHERE trigger = 'automatic' AND retained = 0;
CREATE INDEX diagnostics_account_created ON diagnostics(account_id, created_at);
CREATE INDEX issues_diagnostic ON issues(diagnostic_id);
CREATE INDEX sync_runs_started ON sync_runs(started_at);
-- Finished job records, forgotten after a week (jobs/leases-pg.ts).
CREATE INDEX job_leases_finished ON job_leases(finished_at) WHERE status IN ('done', 'failed');
CREATE INDEX alert_deliveries_created ON alert_deliveries(created_at);
CREATE INDEX alert_deliveries_destination_created ON alert_deliveries(destination_id, created_at);
