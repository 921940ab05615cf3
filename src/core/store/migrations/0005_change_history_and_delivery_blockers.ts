// Change history and delivery blockers. The account's activity log (Graph /act_{id}/activities),
// one row per event keyed by a digest of the event (Meta gives activities no ID), so re-reading a
// window stores nothing twice; each row is resolved to the campaign, ad set and ad it touched. Each
// ad's issues_info (review errors) beside its effective status, and the account's disable reason,
// spend cap and amount spent (micros; NULL spend cap = none).
export const sql = `
ALTER TABLE ad_accounts ADD COLUMN disable_reason INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ad_accounts ADD COLUMN spend_cap_micros INTEGER;
ALTER TABLE ad_accounts ADD COLUMN amount_spent_micros INTEGER;
ALTER TABLE ad_accounts ADD COLUMN changes_read_until TEXT;
ALTER TABLE ads ADD COLUMN issues_info TEXT NOT NULL DEFAULT '[]';

CREATE TABLE change_events (
  id INTEGER PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES ad_accounts(id),
  event_key TEXT NOT NULL,
  event_time TEXT NOT NULL,
  event_type TEXT NOT NULL,
  change_type TEXT NOT NULL,
  translated_event_type TEXT,
  object_type TEXT NOT NULL,
  platform_object_id TEXT NOT NULL,
  object_name TEXT NOT NULL DEFAULT '',
  campaign_id TEXT REFERENCES campaigns(id),
  ad_set_id TEXT REFERENCES ad_sets(id),
  ad_id TEXT REFERENCES ads(id),
  actor_id TEXT,
  actor_name TEXT,
  old_value TEXT,
  new_value TEXT,
  extra_data TEXT,
  UNIQUE (account_id, event_key)
);
CREATE INDEX change_events_campaign_time ON change_events(campaign_id, event_time);
CREATE INDEX change_events_account_time ON change_events(account_id, event_time);
`;
