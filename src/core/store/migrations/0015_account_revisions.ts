// An account's revision: a counter that moves with every write of what its figures are computed from
// (its daily rollup, its campaigns, its ad sets), whoever writes. The read models keep per-account
// figures in memory under it (insights/account-figures.ts): an agency's portfolio and workspace
// summary then read one row per account instead of every account's days. Kept by triggers, so no
// writer (a sync, a copy, a test's SQL) can move the data without moving the revision.
// PostgreSQL's twin: pg migration 0010 (there once per statement, here once per row).
export const sql = `
ALTER TABLE ad_accounts ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER insights_account_daily_revision_insert AFTER INSERT ON insights_account_daily BEGIN
  UPDATE ad_accounts SET revision = revision + 1 WHERE id = NEW.account_id;
END;
CREATE TRIGGER insights_account_daily_revision_update AFTER UPDATE ON insights_account_daily BEGIN
  UPDATE ad_accounts SET revision = revision + 1 WHERE id IN (OLD.account_id, NEW.account_id);
END;
CREATE TRIGGER insights_account_daily_revision_delete AFTER DELETE ON insights_account_daily BEGIN
  UPDATE ad_accounts SET revision = revision + 1 WHERE id = OLD.account_id;
END;

CREATE TRIGGER campaigns_revision_insert AFTER INSERT ON campaigns BEGIN
  UPDATE ad_accounts SET revision = revision + 1 WHERE id = NEW.account_id;
END;
CREATE TRIGGER campaigns_revision_update AFTER UPDATE ON campaigns BEGIN
  UPDATE ad_accounts SET revision = revision + 1 WHERE id IN (OLD.account_id, NEW.account_id);
END;
CREATE TRIGGER campaigns_revision_delete AFTER DELETE ON campaigns BEGIN
  UPDATE ad_accounts SET revision = revision + 1 WHERE id = OLD.account_id;
END;

CREATE TRIGGER ad_sets_revision_insert AFTER INSERT ON ad_sets BEGIN
  UPDATE ad_accounts SET revision = revision + 1 WHERE id = NEW.account_id;
END;
CREATE TRIGGER ad_sets_revision_update AFTER UPDATE ON ad_sets BEGIN
  UPDATE ad_accounts SET revision = revision + 1 WHERE id IN (OLD.account_id, NEW.account_id);
END;
CREATE TRIGGER ad_sets_revision_delete AFTER DELETE ON ad_sets BEGIN
  UPDATE ad_accounts SET revision = revision + 1 WHERE id = OLD.account_id;
END;
`;
