// An account's line revision: a counter that moves with every write of what the account's portfolio
// line shows besides its figures (which follow `revision`): the account row's own columns, its
// connection's token expiry, the status and error of its newest sync run, its issues and its goals.
// The portfolio keeps each built line under (revision, line_revision) and builds again only the lines
// of accounts whose counters moved (portfolio/use-cases.ts). Kept by triggers, so no writer can change
// a line's inputs without moving it. PostgreSQL's twin: pg migration 0016.
export const sql = `
ALTER TABLE ad_accounts ADD COLUMN line_revision INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER ad_accounts_line_revision AFTER UPDATE OF platform_account_id, name, business_name,
  currency, timezone, status, connection_status, disable_reason, spend_cap_micros, amount_spent_micros,
  last_synced_at, latest_run_id, connection_id ON ad_accounts
WHEN NEW.platform_account_id IS NOT OLD.platform_account_id OR NEW.name IS NOT OLD.name
  OR NEW.business_name IS NOT OLD.business_name OR NEW.currency IS NOT OLD.currency
  OR NEW.timezone IS NOT OLD.timezone OR NEW.status IS NOT OLD.status
  OR NEW.connection_status IS NOT OLD.connection_status OR NEW.disable_reason IS NOT OLD.disable_reason
  OR NEW.spend_cap_micros IS NOT OLD.spend_cap_micros OR NEW.amount_spent_micros IS NOT OLD.amount_spent_micros
  OR NEW.last_synced_at IS NOT OLD.last_synced_at OR NEW.latest_run_id IS NOT OLD.latest_run_id
  OR NEW.connection_id IS NOT OLD.connection_id
BEGIN
  UPDATE ad_accounts SET line_revision = line_revision + 1 WHERE id = NEW.id;
END;

CREATE TRIGGER platform_connections_line_revision AFTER UPDATE OF token_expires_at ON platform_connections
WHEN NEW.token_expires_at IS NOT OLD.token_expires_at
BEGIN
  UPDATE ad_accounts SET line_revision = line_revision + 1 WHERE connection_id = NEW.id;
END;

CREATE TRIGGER sync_runs_line_revision_update AFTER UPDATE OF status, error ON sync_runs
WHEN NEW.status IS NOT OLD.status OR NEW.error IS NOT OLD.error
BEGIN
  UPDATE ad_accounts SET line_revision = line_revision + 1 WHERE id = NEW.account_id AND latest_run_id = NEW.id;
END;
CREATE TRIGGER sync_runs_line_revision_delete AFTER DELETE ON sync_runs BEGIN
  UPDATE ad_accounts SET line_revision = line_revision + 1 WHERE id = OLD.account_id AND latest_run_id = OLD.id;
END;

CREATE TRIGGER issues_line_revision_insert AFTER INSERT ON issues BEGIN
  UPDATE ad_accounts SET line_revision = line_revision + 1 WHERE id = NEW.account_id;
END;
CREATE TRIGGER issues_line_revision_update AFTER UPDATE OF account_id, campaign_id, state, severity ON issues
WHEN NEW.account_id IS NOT OLD.account_id OR NEW.campaign_id IS NOT OLD.campaign_id
  OR NEW.state IS NOT OLD.state OR NEW.severity IS NOT OLD.severity
BEGIN
  UPDATE ad_accounts SET line_revision = line_revision + 1 WHERE id IN (OLD.account_id, NEW.account_id);
END;
CREATE TRIGGER issues_line_revision_delete AFTER DELETE ON issues BEGIN
  UPDATE ad_accounts SET line_revision = line_revision + 1 WHERE id = OLD.account_id;
END;

CREATE TRIGGER goals_line_revision_insert AFTER INSERT ON goals BEGIN
  UPDATE ad_accounts SET line_revision = line_revision + 1 WHERE id = NEW.account_id;
END;
CREATE TRIGGER goals_line_revision_update AFTER UPDATE ON goals BEGIN
  UPDATE ad_accounts SET line_revision = line_revision + 1 WHERE id IN (OLD.account_id, NEW.account_id);
END;
CREATE TRIGGER goals_line_revision_delete AFTER DELETE ON goals BEGIN
  UPDATE ad_accounts SET line_revision = line_revision + 1 WHERE id = OLD.account_id;
END;
`;
