-- The account's daily rollup, once per statement instead of once per row. A sync or a bulk load
-- writes a page of campaign days in one statement; the row-level trigger of 0001 ran a PL/pgSQL call
-- and an upsert per row (the scale load spent most of its time there). These read the statement's
-- transition tables and apply one grouped change per (account, day): the same totals, as SQLite's
-- three row triggers keep them. An `INSERT … ON CONFLICT DO UPDATE` fires both the insert and the
-- update statement triggers, each with only its own rows.
DROP TRIGGER insights_campaign_daily_rollup ON insights_campaign_daily;
DROP FUNCTION insights_campaign_daily_rollup();

CREATE FUNCTION insights_campaign_daily_rollup_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO insights_account_daily AS a (account_id, date, spend_micros, impressions, clicks, conversions, revenue_micros, reach, link_clicks)
    SELECT account_id, date, sum(spend_micros), sum(impressions), sum(clicks), sum(conversions),
      sum(revenue_micros), sum(reach), sum(link_clicks)
    FROM new_days GROUP BY account_id, date
    ON CONFLICT (account_id, date) DO UPDATE SET
      spend_micros = a.spend_micros + excluded.spend_micros, impressions = a.impressions + excluded.impressions,
      clicks = a.clicks + excluded.clicks, conversions = a.conversions + excluded.conversions,
      revenue_micros = a.revenue_micros + excluded.revenue_micros, reach = a.reach + excluded.reach,
      link_clicks = a.link_clicks + excluded.link_clicks;
  ELSIF TG_OP = 'UPDATE' THEN
    -- New minus old per (account, day): a row moved to another account or day leaves one and joins the other.
    INSERT INTO insights_account_daily AS a (account_id, date, spend_micros, impressions, clicks, conversions, revenue_micros, reach, link_clicks)
    SELECT account_id, date, sum(spend_micros), sum(impressions), sum(clicks), sum(conversions),
      sum(revenue_micros), sum(reach), sum(link_clicks)
    FROM (
      SELECT account_id, date, spend_micros, impressions, clicks, conversions, revenue_micros, reach, link_clicks FROM new_days
      UNION ALL
      SELECT account_id, date, -spend_micros, -impressions, -clicks, -conversions, -revenue_micros, -reach, -link_clicks FROM old_days
    ) AS delta
    GROUP BY account_id, date
    ON CONFLICT (account_id, date) DO UPDATE SET
      spend_micros = a.spend_micros + excluded.spend_micros, impressions = a.impressions + excluded.impressions,
      clicks = a.clicks + excluded.clicks, conversions = a.conversions + excluded.conversions,
      revenue_micros = a.revenue_micros + excluded.revenue_micros, reach = a.reach + excluded.reach,
      link_clicks = a.link_clicks + excluded.link_clicks;
  ELSE
    UPDATE insights_account_daily AS a SET
      spend_micros = a.spend_micros - o.spend_micros, impressions = a.impressions - o.impressions,
      clicks = a.clicks - o.clicks, conversions = a.conversions - o.conversions,
      revenue_micros = a.revenue_micros - o.revenue_micros, reach = a.reach - o.reach,
      link_clicks = a.link_clicks - o.link_clicks
    FROM (
      SELECT account_id, date, sum(spend_micros) AS spend_micros, sum(impressions) AS impressions,
        sum(clicks) AS clicks, sum(conversions) AS conversions, sum(revenue_micros) AS revenue_micros,
        sum(reach) AS reach, sum(link_clicks) AS link_clicks
      FROM old_days GROUP BY account_id, date
    ) AS o
    WHERE a.account_id = o.account_id AND a.date = o.date;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER insights_campaign_daily_rollup_insert AFTER INSERT ON insights_campaign_daily
  REFERENCING NEW TABLE AS new_days
  FOR EACH STATEMENT EXECUTE FUNCTION insights_campaign_daily_rollup_apply();
CREATE TRIGGER insights_campaign_daily_rollup_update AFTER UPDATE ON insights_campaign_daily
  REFERENCING OLD TABLE AS old_days NEW TABLE AS new_days
  FOR EACH STATEMENT EXECUTE FUNCTION insights_campaign_daily_rollup_apply();
CREATE TRIGGER insights_campaign_daily_rollup_delete AFTER DELETE ON insights_campaign_daily
  REFERENCING OLD TABLE AS old_days
  FOR EACH STATEMENT EXECUTE FUNCTION insights_campaign_daily_rollup_apply();
