// An account's newest sync run in one index probe. The account line reads it for every account of a
// list or the portfolio (sync/runs.ts LATEST_FIRST); on (account_id, started_at) each read sorted the
// account's runs past the first key, and with the month of hourly runs an account keeps (720) that
// doubled the portfolio's statement on PostgreSQL (2.7 → 7.2 ms for 500 accounts). This index is in
// LATEST_FIRST's own order, so the first entry is the answer; it serves the ranges of
// (account_id, started_at) the old one served. PostgreSQL's twin: pg migration 0013.
export const sql = `
CREATE INDEX sync_runs_account_latest
  ON sync_runs(account_id, started_at DESC, (finished_at IS NULL) DESC, finished_at DESC, id DESC);
DROP INDEX sync_runs_account_started;
`;
