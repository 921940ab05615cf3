// Results as Ads Manager counts them: each ad set's result type (from its optimization goal and
// promoted object) and attribution setting, the campaign's result type, and link clicks beside
// all clicks so CTR can be the link CTR Ads Manager shows. result_type NULL = synced before result
// types existed (judged as before); 'UNKNOWN' = the platform gave nothing a result can be read from.
export const sql = `
ALTER TABLE ad_sets ADD COLUMN result_type TEXT;
ALTER TABLE ad_sets ADD COLUMN result_detail TEXT;
ALTER TABLE ad_sets ADD COLUMN result_name TEXT;
ALTER TABLE ad_sets ADD COLUMN attribution_spec TEXT;
ALTER TABLE campaigns ADD COLUMN result_type TEXT;
ALTER TABLE campaigns ADD COLUMN result_name TEXT;

ALTER TABLE insights_campaign_daily ADD COLUMN link_clicks INTEGER NOT NULL DEFAULT 0;
ALTER TABLE insights_ad_set_daily ADD COLUMN link_clicks INTEGER NOT NULL DEFAULT 0;
ALTER TABLE insights_ad_daily ADD COLUMN link_clicks INTEGER NOT NULL DEFAULT 0;
ALTER TABLE insights_account_daily ADD COLUMN link_clicks INTEGER NOT NULL DEFAULT 0;

DROP INDEX insights_campaign_daily_account_date;
CREATE INDEX insights_campaign_daily_account_date ON insights_campaign_daily(
  account_id, date, campaign_id, spend_micros, impressions, clicks, conversions, revenue_micros, reach, link_clicks
);

DROP TRIGGER insights_campaign_daily_rollup_insert;
DROP TRIGGER insights_campaign_daily_rollup_delete;
DROP TRIGGER insights_campaign_daily_rollup_update;

CREATE TRIGGER insights_campaign_daily_rollup_insert AFTER INSERT ON insights_campaign_daily BEGIN
  INSERT INTO insights_account_daily (account_id, date, spend_micros, impressions, clicks, conversions, revenue_micros, reach, link_clicks)
  VALUES (NEW.account_id, NEW.date, NEW.spend_micros, NEW.impressions, NEW.clicks, NEW.conversions, NEW.revenue_micros, NEW.reach, NEW.link_clicks)
  ON CONFLICT (account_id, date) DO UPDATE SET
    spend_micros = spend_micros + excluded.spend_micros, impressions = impressions + excluded.impressions,
    clicks = clicks + excluded.clicks, conversions = conversions + excluded.conversions,
    revenue_micros = revenue_micros + excluded.revenue_micros, reach = reach + excluded.reach,
    link_clicks = link_clicks + excluded.link_clicks;
END;

CREATE TRIGGER insights_campaign_daily_rollup_delete AFTER DELETE ON insights_campaign_daily BEGIN
  UPDATE insights_account_daily SET
    spend_micros = spend_micros - OLD.spend_micros, impressions = impressions - OLD.impressions,
    clicks = clicks - OLD.clicks, conversions = conversions - OLD.conversions,
    revenue_micros = revenue_micros - OLD.revenue_micros, reach = reach - OLD.reach,
    link_clicks = link_clicks - OLD.link_clicks
  WHERE account_id = OLD.account_id AND date = OLD.date;
END;

CREATE TRIGGER insights_campaign_daily_rollup_update AFTER UPDATE ON insights_campaign_daily BEGIN
  UPDATE insights_account_daily SET
    spend_micros = spend_micros - OLD.spend_micros, impressions = impressions - OLD.impressions,
    clicks = clicks - OLD.clicks, conversions = conversions - OLD.conversions,
    revenue_micros = revenue_micros - OLD.revenue_micros, reach = reach - OLD.reach,
    link_clicks = link_clicks - OLD.link_clicks
  WHERE account_id = OLD.account_id AND date = OLD.date;
  INSERT INTO insights_account_daily (account_id, date, spend_micros, impressions, clicks, conversions, revenue_micros, reach, link_clicks)
  VALUES (NEW.account_id, NEW.date, NEW.spend_micros, NEW.impressions, NEW.clicks, NEW.conversions, NEW.revenue_micros, NEW.reach, NEW.link_clicks)
  ON CONFLICT (account_id, date) DO UPDATE SET
    spend_micros = spend_micros + excluded.spend_micros, impressions = impressions + excluded.impressions,
    clicks = clicks + excluded.clicks, conversions = conversions + excluded.conversions,
    revenue_micros = revenue_micros + excluded.revenue_micros, reach = reach + excluded.reach,
    link_clicks = link_clicks + excluded.link_clicks;
END;
`;
