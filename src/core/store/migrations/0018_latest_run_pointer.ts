// Each account row points at its newest sync run (`latest_run_id`), kept by a trigger on every run
// written, whoever writes it. The account lines of a list and of the portfolio read that run for each
// account: by the pointer it is one key lookup, where finding it among the account's month of hourly
// runs was an index probe more per account (with 500 accounts, about a third of the portfolio's
// database time on PostgreSQL). The newest run is the latest started; of runs started at the same
// instant (a pinned clock), the last recorded. PostgreSQL's twin: pg migration 0014.
export const sql = `
ALTER TABLE ad_accounts ADD COLUMN latest_run_id TEXT;
UPDATE ad_accounts SET latest_run_id = (SELECT r.id FROM sync_runs r WHERE r.account_id = ad_accounts.id
  ORDER BY r.started_at DESC, (r.finished_at IS NULL) DESC, r.finished_at DESC, r.id DESC LIMIT 1);
CREATE TRIGGER sync_runs_latest AFTER INSERT ON sync_runs BEGIN
  UPDATE ad_accounts SET latest_run_id = NEW.id
  WHERE id = NEW.account_id AND (latest_run_id IS NULL
    OR NEW.started_at >= coalesce((SELECT started_at FROM sync_runs WHERE id = ad_accounts.latest_run_id), ''));
END;
`;
