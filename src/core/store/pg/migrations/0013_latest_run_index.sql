-- An account's newest sync run in one index probe, in sync/runs.ts LATEST_FIRST's own order: the
-- account lines of a list or the portfolio read it for every account, and on (account_id, started_at)
-- each sorted the account's month of hourly runs past the first key. SQLite's twin: migration 17.
CREATE INDEX sync_runs_account_latest
  ON sync_runs(account_id, started_at DESC, (finished_at IS NULL) DESC, finished_at DESC, id DESC);
DROP INDEX sync_runs_account_started;
