-- Each account row points at its newest sync run (`latest_run_id`), kept by a trigger on every run
-- written: the account lines of a list and of the portfolio join it by key instead of probing each
-- account's runs. The latest started; among runs started at the same instant, the last recorded.
-- SQLite's twin: migration 18.
ALTER TABLE ad_accounts ADD COLUMN latest_run_id TEXT;
UPDATE ad_accounts a SET latest_run_id = (SELECT r.id FROM sync_runs r WHERE r.account_id = a.id
  ORDER BY r.started_at DESC, (r.finished_at IS NULL) DESC, r.finished_at DESC, r.id DESC LIMIT 1);
CREATE FUNCTION sync_runs_latest() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ad_accounts a SET latest_run_id = NEW.id
  WHERE a.id = NEW.account_id AND (a.latest_run_id IS NULL
    OR NEW.started_at >= coalesce((SELECT r.started_at FROM sync_runs r WHERE r.id = a.latest_run_id), ''));
  RETURN NULL;
END
$$;
CREATE TRIGGER sync_runs_latest AFTER INSERT ON sync_runs FOR EACH ROW EXECUTE FUNCTION sync_runs_latest();
