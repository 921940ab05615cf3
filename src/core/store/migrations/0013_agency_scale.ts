// Agency scale (issue 18 item 7): what the lists show per row is kept on the row, so a page reads
// its 20 rows instead of counting children for every campaign of the workspace before sorting.
// - campaigns.ad_set_count / ad_count and ad_accounts.campaign_count / active_campaign_count, exact
//   by triggers (the sync only inserts and updates these tables; nothing deletes or REPLACEs them,
//   and the delete triggers keep the counts right if that ever changes).
// - campaigns_name_order: the default order of the campaigns list (name, then ID) over the columns
//   a page needs to skip rows without visiting the table (account for the scope, status for its
//   filter), so a deep page walks a narrow index and reads only its own 20 campaigns.
export const sql = `
ALTER TABLE campaigns ADD COLUMN ad_set_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE campaigns ADD COLUMN ad_count INTEGER NOT NULL DEFAULT 0;
UPDATE campaigns SET
  ad_set_count = (SELECT count(*) FROM ad_sets s WHERE s.campaign_id = campaigns.id),
  ad_count = (SELECT count(*) FROM ads d WHERE d.campaign_id = campaigns.id);

CREATE TRIGGER ad_sets_counted_insert AFTER INSERT ON ad_sets BEGIN
  UPDATE campaigns SET ad_set_count = ad_set_count + 1 WHERE id = NEW.campaign_id;
END;
CREATE TRIGGER ad_sets_counted_delete AFTER DELETE ON ad_sets BEGIN
  UPDATE campaigns SET ad_set_count = ad_set_count - 1 WHERE id = OLD.campaign_id;
END;
CREATE TRIGGER ad_sets_counted_move AFTER UPDATE OF campaign_id ON ad_sets
WHEN NEW.campaign_id IS NOT OLD.campaign_id BEGIN
  UPDATE campaigns SET ad_set_count = ad_set_count - 1 WHERE id = OLD.campaign_id;
  UPDATE campaigns SET ad_set_count = ad_set_count + 1 WHERE id = NEW.campaign_id;
END;

CREATE TRIGGER ads_counted_insert AFTER INSERT ON ads BEGIN
  UPDATE campaigns SET ad_count = ad_count + 1 WHERE id = NEW.campaign_id;
END;
CREATE TRIGGER ads_counted_delete AFTER DELETE ON ads BEGIN
  UPDATE campaigns SET ad_count = ad_count - 1 WHERE id = OLD.campaign_id;
END;
CREATE TRIGGER ads_counted_move AFTER UPDATE OF campaign_id ON ads
WHEN NEW.campaign_id IS NOT OLD.campaign_id BEGIN
  UPDATE campaigns SET ad_count = ad_count - 1 WHERE id = OLD.campaign_id;
  UPDATE campaigns SET ad_count = ad_count + 1 WHERE id = NEW.campaign_id;
END;

ALTER TABLE ad_accounts ADD COLUMN campaign_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ad_accounts ADD COLUMN active_campaign_count INTEGER NOT NULL DEFAULT 0;
UPDATE ad_accounts SET
  campaign_count = (SELECT count(*) FROM campaigns c WHERE c.account_id = ad_accounts.id),
  active_campaign_count = (SELECT count(*) FROM campaigns c
                           WHERE c.account_id = ad_accounts.id AND c.effective_status = 'ACTIVE');

CREATE TRIGGER campaigns_counted_insert AFTER INSERT ON campaigns BEGIN
  UPDATE ad_accounts SET campaign_count = campaign_count + 1,
    active_campaign_count = active_campaign_count + (NEW.effective_status = 'ACTIVE')
  WHERE id = NEW.account_id;
END;
CREATE TRIGGER campaigns_counted_delete AFTER DELETE ON campaigns BEGIN
  UPDATE ad_accounts SET campaign_count = campaign_count - 1,
    active_campaign_count = active_campaign_count - (OLD.effective_status = 'ACTIVE')
  WHERE id = OLD.account_id;
END;
CREATE TRIGGER campaigns_counted_update AFTER UPDATE OF account_id, effective_status ON campaigns
WHEN NEW.account_id IS NOT OLD.account_id OR NEW.effective_status IS NOT OLD.effective_status BEGIN
  UPDATE ad_accounts SET campaign_count = campaign_count - 1,
    active_campaign_count = active_campaign_count - (OLD.effective_status = 'ACTIVE')
  WHERE id = OLD.account_id;
  UPDATE ad_accounts SET campaign_count = campaign_count + 1,
    active_campaign_count = active_campaign_count + (NEW.effective_status = 'ACTIVE')
  WHERE id = NEW.account_id;
END;

CREATE INDEX campaigns_name_order ON campaigns(name, id, account_id, status);
-- The portfolio's daily budgets in force: an account's active campaigns with and without a budget,
-- read from the index alone.
CREATE INDEX campaigns_account_budget ON campaigns(account_id, effective_status, daily_budget_micros);
-- The total of a status-filtered list: a keyed range of one status, never the whole table.
CREATE INDEX campaigns_status_account ON campaigns(status, account_id);

-- The counting triggers make SQLite compile the foreign-key checks of ad sets' and ads' children
-- into every insert; change_events had no index on those columns, so each check would scan it.
CREATE INDEX change_events_ad_set ON change_events(ad_set_id);
CREATE INDEX change_events_ad ON change_events(ad_id);

`;
