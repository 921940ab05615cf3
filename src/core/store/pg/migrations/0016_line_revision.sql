-- An account's line revision: a counter that moves with every write of what the account's portfolio
-- line shows besides its figures (which follow `revision`): the account row's own columns, its
-- connection's token expiry, the status and error of its newest sync run, its issues and its goals.
-- The portfolio keeps each built line under (revision, line_revision) and builds again only the lines
-- of accounts whose counters moved (portfolio/use-cases.ts). Kept by triggers, whoever writes.
-- Issues and deleted runs once per statement (a reconciliation or a thinning pass writes many rows).
-- SQLite's twin: migration 20.
ALTER TABLE ad_accounts ADD COLUMN line_revision BIGINT NOT NULL DEFAULT 0;

CREATE FUNCTION ad_accounts_line_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.line_revision := OLD.line_revision + 1;
  RETURN NEW;
END;
$$;
CREATE TRIGGER ad_accounts_line_revision BEFORE UPDATE ON ad_accounts FOR EACH ROW
  WHEN ((OLD.platform_account_id, OLD.name, OLD.business_name, OLD.currency, OLD.timezone, OLD.status,
      OLD.connection_status, OLD.disable_reason, OLD.spend_cap_micros, OLD.amount_spent_micros,
      OLD.last_synced_at, OLD.latest_run_id, OLD.connection_id)
    IS DISTINCT FROM (NEW.platform_account_id, NEW.name, NEW.business_name, NEW.currency, NEW.timezone,
      NEW.status, NEW.connection_status, NEW.disable_reason, NEW.spend_cap_micros, NEW.amount_spent_micros,
      NEW.last_synced_at, NEW.latest_run_id, NEW.connection_id))
  EXECUTE FUNCTION ad_accounts_line_revision();

CREATE FUNCTION platform_connections_line_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ad_accounts SET line_revision = line_revision + 1 WHERE connection_id = NEW.id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER platform_connections_line_revision AFTER UPDATE ON platform_connections FOR EACH ROW
  WHEN (OLD.token_expires_at IS DISTINCT FROM NEW.token_expires_at)
  EXECUTE FUNCTION platform_connections_line_revision();

CREATE FUNCTION sync_runs_line_revision_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ad_accounts SET line_revision = line_revision + 1 WHERE id = NEW.account_id AND latest_run_id = NEW.id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER sync_runs_line_revision_update AFTER UPDATE ON sync_runs FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.error IS DISTINCT FROM NEW.error)
  EXECUTE FUNCTION sync_runs_line_revision_update();

CREATE FUNCTION sync_runs_line_revision_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ad_accounts a SET line_revision = a.line_revision + 1
  FROM old_rows o WHERE a.id = o.account_id AND a.latest_run_id = o.id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER sync_runs_line_revision_delete AFTER DELETE ON sync_runs
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION sync_runs_line_revision_delete();

CREATE FUNCTION issues_line_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE ad_accounts SET line_revision = line_revision + 1 WHERE id IN (SELECT account_id FROM new_rows);
  ELSIF TG_OP = 'UPDATE' THEN
    UPDATE ad_accounts SET line_revision = line_revision + 1 WHERE id IN (
      SELECT unnest(ARRAY[o.account_id, n.account_id]) FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE (o.account_id, o.campaign_id, o.state, o.severity)
        IS DISTINCT FROM (n.account_id, n.campaign_id, n.state, n.severity));
  ELSE
    UPDATE ad_accounts SET line_revision = line_revision + 1 WHERE id IN (SELECT account_id FROM old_rows);
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER issues_line_revision_insert AFTER INSERT ON issues
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION issues_line_revision();
CREATE TRIGGER issues_line_revision_update AFTER UPDATE ON issues
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION issues_line_revision();
CREATE TRIGGER issues_line_revision_delete AFTER DELETE ON issues
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION issues_line_revision();

CREATE FUNCTION goals_line_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE ad_accounts SET line_revision = line_revision + 1 WHERE id = OLD.account_id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    UPDATE ad_accounts SET line_revision = line_revision + 1 WHERE id = NEW.account_id;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER goals_line_revision AFTER INSERT OR UPDATE OR DELETE ON goals FOR EACH ROW
  EXECUTE FUNCTION goals_line_revision();
