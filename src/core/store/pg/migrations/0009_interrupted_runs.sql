-- The accounts whose latest sync was paused by Meta's rate limit (sync/runs.ts pausedRuns) are found
-- among the interrupted runs only, not by walking every sync run. SQLite's twin: migration 14.
CREATE INDEX sync_runs_interrupted ON sync_runs(account_id) WHERE status = 'interrupted';
