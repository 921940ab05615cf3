-- An account's revision: a counter that moves with every write of what its figures are computed from
-- (its daily rollup, its campaigns, its ad sets), whoever writes; the read models keep per-account
-- figures in memory under it (insights/account-figures.ts). Once per statement and account, from the
-- statement's transition tables. SQLite's twin: migration 15 (once per row there).
ALTER TABLE ad_accounts ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;

CREATE FUNCTION account_revision_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE ad_accounts SET revision = revision + 1 WHERE id IN (SELECT account_id FROM new_rows);
  ELSIF TG_OP = 'UPDATE' THEN
    UPDATE ad_accounts SET revision = revision + 1
    WHERE id IN (SELECT account_id FROM new_rows UNION SELECT account_id FROM old_rows);
  ELSE
    UPDATE ad_accounts SET revision = revision + 1 WHERE id IN (SELECT account_id FROM old_rows);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER insights_account_daily_revision_insert AFTER INSERT ON insights_account_daily
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION account_revision_bump();
CREATE TRIGGER insights_account_daily_revision_update AFTER UPDATE ON insights_account_daily
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION account_revision_bump();
CREATE TRIGGER insights_account_daily_revision_delete AFTER DELETE ON insights_account_daily
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION account_revision_bump();

CREATE TRIGGER campaigns_revision_insert AFTER INSERT ON campaigns
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION account_revision_bump();
CREATE TRIGGER campaigns_revision_update AFTER UPDATE ON campaigns
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION account_revision_bump();
CREATE TRIGGER campaigns_revision_delete AFTER DELETE ON campaigns
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION account_revision_bump();

CREATE TRIGGER ad_sets_revision_insert AFTER INSERT ON ad_sets
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION account_revision_bump();
CREATE TRIGGER ad_sets_revision_update AFTER UPDATE ON ad_sets
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION account_revision_bump();
CREATE TRIGGER ad_sets_revision_delete AFTER DELETE ON ad_sets
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION account_revision_bump();
