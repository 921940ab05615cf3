// The accounts whose latest sync was paused by Meta's rate limit (sync/runs.ts pausedRuns, read at
// start and by the watcher) are found among the interrupted runs only: a few rows, where every sync
// an agency ever ran would otherwise be walked. PostgreSQL's twin: pg migration 0009.
export const sql = `
CREATE INDEX sync_runs_interrupted ON sync_runs(account_id) WHERE status = 'interrupted';
`;
