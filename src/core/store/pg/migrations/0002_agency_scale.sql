-- Twin of SQLite migration 13 (agency scale): what the lists show per row is kept on the row, exact
-- by triggers, so a page reads its own rows instead of counting children for every campaign.
ALTER TABLE campaigns ADD COLUMN ad_set_count BIGINT NOT NULL DEFAULT 0;
ALTER TABLE campaigns ADD COLUMN ad_count BIGINT NOT NULL DEFAULT 0;
UPDATE campaigns SET
  ad_set_count = (SELECT count(*) FROM ad_sets s WHERE s.campaign_id = campaigns.id),
  ad_count = (SELECT count(*) FROM ads d WHERE d.campaign_id = campaigns.id);

ALTER TABLE ad_accounts ADD COLUMN campaign_count BIGINT NOT NULL DEFAULT 0;
ALTER TABLE ad_accounts ADD COLUMN active_campaign_count BIGINT NOT NULL DEFAULT 0;
UPDATE ad_accounts SET
  campaign_count = (SELECT count(*) FROM campaigns c WHERE c.account_id = ad_accounts.id),
  active_campaign_count = (SELECT count(*) FROM campaigns c
                           WHERE c.account_id = ad_accounts.id AND c.effective_status = 'ACTIVE');

-- An ad set or an ad counted on its campaign (TG_ARGV[0] names the campaign's counter).
CREATE FUNCTION campaign_child_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    EXECUTE format('UPDATE campaigns SET %I = %I - 1 WHERE id = $1', TG_ARGV[0], TG_ARGV[0]) USING OLD.campaign_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    EXECUTE format('UPDATE campaigns SET %I = %I + 1 WHERE id = $1', TG_ARGV[0], TG_ARGV[0]) USING NEW.campaign_id;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER ad_sets_counted AFTER INSERT OR DELETE ON ad_sets
  FOR EACH ROW EXECUTE FUNCTION campaign_child_counted('ad_set_count');
CREATE TRIGGER ad_sets_counted_move AFTER UPDATE OF campaign_id ON ad_sets
  FOR EACH ROW WHEN (NEW.campaign_id IS DISTINCT FROM OLD.campaign_id)
  EXECUTE FUNCTION campaign_child_counted('ad_set_count');
CREATE TRIGGER ads_counted AFTER INSERT OR DELETE ON ads
  FOR EACH ROW EXECUTE FUNCTION campaign_child_counted('ad_count');
CREATE TRIGGER ads_counted_move AFTER UPDATE OF campaign_id ON ads
  FOR EACH ROW WHEN (NEW.campaign_id IS DISTINCT FROM OLD.campaign_id)
  EXECUTE FUNCTION campaign_child_counted('ad_count');

-- A campaign counted on its account, and among the account's active ones while it is active.
CREATE FUNCTION account_campaign_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE ad_accounts SET campaign_count = campaign_count - 1,
      active_campaign_count = active_campaign_count - (OLD.effective_status = 'ACTIVE')::int
    WHERE id = OLD.account_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE ad_accounts SET campaign_count = campaign_count + 1,
      active_campaign_count = active_campaign_count + (NEW.effective_status = 'ACTIVE')::int
    WHERE id = NEW.account_id;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER campaigns_counted AFTER INSERT OR DELETE ON campaigns
  FOR EACH ROW EXECUTE FUNCTION account_campaign_counted();
CREATE TRIGGER campaigns_counted_update AFTER UPDATE OF account_id, effective_status ON campaigns
  FOR EACH ROW WHEN (NEW.account_id IS DISTINCT FROM OLD.account_id
                     OR NEW.effective_status IS DISTINCT FROM OLD.effective_status)
  EXECUTE FUNCTION account_campaign_counted();

CREATE INDEX campaigns_name_order ON campaigns(name, id, account_id, status);
CREATE INDEX campaigns_account_budget ON campaigns(account_id, effective_status, daily_budget_micros);
CREATE INDEX campaigns_status_account ON campaigns(status, account_id);
CREATE INDEX change_events_ad_set ON change_events(ad_set_id);
CREATE INDEX change_events_ad ON change_events(ad_id);
