-- The team server's schema: the PostgreSQL twin of SQLite migrations 1–12 (src/core/store/migrations),
-- the same tables and columns (src/core/store/pg/schema-parity.test.ts keeps them in step).
-- Types: money in integer micro-units and every count as BIGINT (exact); ratios as DOUBLE PRECISION;
-- sealed secrets as BYTEA. Instants are the ISO-8601 UTC text the application writes (…Z) and days
-- are an account's own calendar days ('YYYY-MM-DD'), both kept as TEXT: the zone is in the value, so
-- no session TimeZone or driver date parsing can shift them, and a copy is exact in both directions.
-- JSON documents stay TEXT: the application parses them, no query reaches inside.

CREATE TABLE workspaces (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  plan TEXT NOT NULL CHECK (plan IN ('starter', 'pro', 'agency', 'trial')),
  created_at TEXT NOT NULL
);

CREATE TABLE users (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  email TEXT NOT NULL,
  name TEXT,
  role TEXT NOT NULL DEFAULT 'member' CHECK (role IN ('owner', 'admin', 'member')),
  password_hash TEXT,
  created_at TEXT NOT NULL,
  disabled_at TEXT,
  removed_at TEXT,
  removed_email TEXT,
  UNIQUE (workspace_id, email)
);

CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  user_id TEXT REFERENCES users(id),
  name TEXT NOT NULL DEFAULT '',
  mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  key_hash TEXT NOT NULL UNIQUE,
  hint TEXT NOT NULL,
  limit_overrides TEXT,
  created_at TEXT NOT NULL,
  expires_at TEXT,
  revoked_at TEXT,
  last_used_at TEXT
);
CREATE INDEX api_keys_user ON api_keys(user_id);
CREATE INDEX api_keys_workspace ON api_keys(workspace_id);

CREATE TABLE invitations (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  email TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  created_by TEXT,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  accepted_at TEXT,
  user_id TEXT
);

CREATE TABLE dashboard_sessions (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id),
  token_hash TEXT NOT NULL UNIQUE,
  csrf_token TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX dashboard_sessions_user ON dashboard_sessions(user_id);

CREATE TABLE sign_in_failures (
  email TEXT NOT NULL,
  failed_at TEXT NOT NULL,
  client TEXT NOT NULL DEFAULT ''
);
CREATE INDEX sign_in_failures_client ON sign_in_failures(client, failed_at);
CREATE INDEX sign_in_failures_email ON sign_in_failures(email, failed_at);

CREATE TABLE andromeda_profiles (
  user_id TEXT PRIMARY KEY REFERENCES users(id),
  risk_appetite TEXT NOT NULL DEFAULT 'MEDIUM' CHECK (risk_appetite IN ('LOW', 'MEDIUM', 'HIGH')),
  focus_metric TEXT NOT NULL DEFAULT 'CPA' CHECK (focus_metric IN ('ROAS', 'CPA', 'CTR', 'CONVERSIONS')),
  updated_at TEXT NOT NULL
);

CREATE TABLE platform_connections (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  base_url TEXT NOT NULL,
  api_version TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  -- AES-256-GCM with the key of ADLENS_SECRET_KEY_FILE (src/core/secrets.ts).
  token_encrypted BYTEA NOT NULL,
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disconnected', 'token_expired')),
  status_reason TEXT,
  connected_by TEXT REFERENCES users(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  token_type TEXT,
  token_expires_at TEXT,
  token_data_access_expires_at TEXT,
  token_checked_at TEXT,
  token_expiring_notified_on TEXT
);
CREATE INDEX platform_connections_workspace ON platform_connections(workspace_id);

CREATE TABLE ad_accounts (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  connection_id TEXT NOT NULL REFERENCES platform_connections(id),
  platform_account_id TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  name TEXT NOT NULL,
  currency TEXT NOT NULL,
  timezone TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'disabled', 'closed')),
  connection_status TEXT NOT NULL DEFAULT 'active' CHECK (connection_status IN ('active', 'disconnected', 'token_expired')),
  business_id TEXT NOT NULL DEFAULT '',
  business_name TEXT NOT NULL DEFAULT '',
  permissions TEXT NOT NULL DEFAULT '[]',
  connected_at TEXT NOT NULL,
  connected_by TEXT,
  last_synced_at TEXT,
  disable_reason BIGINT NOT NULL DEFAULT 0,
  spend_cap_micros BIGINT,
  amount_spent_micros BIGINT,
  changes_read_until TEXT,
  opportunity_score DOUBLE PRECISION,
  platform_recommendations_read_at TEXT,
  UNIQUE (workspace_id, platform_account_id)
);
CREATE INDEX ad_accounts_platform ON ad_accounts(platform_account_id);
CREATE INDEX ad_accounts_workspace_status ON ad_accounts(workspace_id, connection_status);

CREATE TABLE campaigns (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES ad_accounts(id),
  platform_campaign_id TEXT NOT NULL,
  name TEXT NOT NULL,
  status TEXT NOT NULL,
  effective_status TEXT NOT NULL,
  objective TEXT NOT NULL,
  buying_type TEXT NOT NULL,
  bid_strategy TEXT,
  daily_budget_micros BIGINT,
  lifetime_budget_micros BIGINT,
  special_ad_categories TEXT NOT NULL DEFAULT '[]',
  start_time TEXT,
  stop_time TEXT,
  created_time TEXT NOT NULL,
  updated_time TEXT NOT NULL,
  last_synced_at TEXT,
  insights_synced_at TEXT,
  insights_synced_through TEXT,
  target_cpa_micros BIGINT,
  result_type TEXT,
  result_name TEXT,
  smart_promotion_type TEXT,
  UNIQUE (account_id, platform_campaign_id)
);
CREATE INDEX campaigns_account_name ON campaigns(account_id, name);

CREATE TABLE ad_sets (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES ad_accounts(id),
  campaign_id TEXT NOT NULL REFERENCES campaigns(id),
  platform_ad_set_id TEXT NOT NULL,
  name TEXT NOT NULL,
  status TEXT NOT NULL,
  effective_status TEXT NOT NULL,
  daily_budget_micros BIGINT,
  lifetime_budget_micros BIGINT,
  bid_strategy TEXT,
  bid_amount_micros BIGINT,
  billing_event TEXT,
  optimization_goal TEXT,
  promoted_event TEXT,
  targeting TEXT NOT NULL DEFAULT '{}',
  learning_status TEXT,
  learning_conversions BIGINT,
  last_significant_edit_at TEXT,
  created_time TEXT NOT NULL,
  updated_time TEXT NOT NULL,
  last_synced_at TEXT,
  result_type TEXT,
  result_detail TEXT,
  result_name TEXT,
  attribution_spec TEXT,
  UNIQUE (account_id, platform_ad_set_id)
);
CREATE INDEX ad_sets_campaign ON ad_sets(campaign_id);

CREATE TABLE ads (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES ad_accounts(id),
  campaign_id TEXT NOT NULL REFERENCES campaigns(id),
  ad_set_id TEXT NOT NULL REFERENCES ad_sets(id),
  platform_ad_id TEXT NOT NULL,
  name TEXT NOT NULL,
  status TEXT NOT NULL,
  effective_status TEXT NOT NULL,
  creative_id TEXT,
  created_time TEXT NOT NULL,
  updated_time TEXT NOT NULL,
  last_synced_at TEXT,
  issues_info TEXT NOT NULL DEFAULT '[]',
  UNIQUE (account_id, platform_ad_id)
);
CREATE INDEX ads_ad_set ON ads(ad_set_id);
CREATE INDEX ads_campaign ON ads(campaign_id);

CREATE TABLE insights_account_daily (
  account_id TEXT NOT NULL,
  date TEXT NOT NULL,
  spend_micros BIGINT NOT NULL DEFAULT 0,
  impressions BIGINT NOT NULL DEFAULT 0,
  clicks BIGINT NOT NULL DEFAULT 0,
  conversions BIGINT NOT NULL DEFAULT 0,
  revenue_micros BIGINT NOT NULL DEFAULT 0,
  reach BIGINT NOT NULL DEFAULT 0,
  link_clicks BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, date)
);

CREATE TABLE insights_campaign_daily (
  campaign_id TEXT NOT NULL REFERENCES campaigns(id),
  date TEXT NOT NULL,
  account_id TEXT NOT NULL,
  spend_micros BIGINT NOT NULL DEFAULT 0,
  impressions BIGINT NOT NULL DEFAULT 0,
  clicks BIGINT NOT NULL DEFAULT 0,
  conversions BIGINT NOT NULL DEFAULT 0,
  revenue_micros BIGINT NOT NULL DEFAULT 0,
  reach BIGINT NOT NULL DEFAULT 0,
  frequency DOUBLE PRECISION NOT NULL DEFAULT 0,
  link_clicks BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (campaign_id, date)
);
-- Covering: a date range over an account's campaigns is read from the index alone.
CREATE INDEX insights_campaign_daily_account_date ON insights_campaign_daily(account_id, date, campaign_id)
  INCLUDE (spend_micros, impressions, clicks, conversions, revenue_micros, reach, link_clicks);

CREATE TABLE insights_ad_set_daily (
  ad_set_id TEXT NOT NULL REFERENCES ad_sets(id),
  date TEXT NOT NULL,
  account_id TEXT NOT NULL,
  campaign_id TEXT NOT NULL,
  spend_micros BIGINT NOT NULL DEFAULT 0,
  impressions BIGINT NOT NULL DEFAULT 0,
  clicks BIGINT NOT NULL DEFAULT 0,
  conversions BIGINT NOT NULL DEFAULT 0,
  revenue_micros BIGINT NOT NULL DEFAULT 0,
  reach BIGINT NOT NULL DEFAULT 0,
  frequency DOUBLE PRECISION NOT NULL DEFAULT 0,
  link_clicks BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (ad_set_id, date)
);
CREATE INDEX insights_ad_set_daily_campaign_date ON insights_ad_set_daily(campaign_id, date);

CREATE TABLE insights_ad_daily (
  ad_id TEXT NOT NULL REFERENCES ads(id),
  date TEXT NOT NULL,
  account_id TEXT NOT NULL,
  campaign_id TEXT NOT NULL,
  ad_set_id TEXT NOT NULL,
  spend_micros BIGINT NOT NULL DEFAULT 0,
  impressions BIGINT NOT NULL DEFAULT 0,
  clicks BIGINT NOT NULL DEFAULT 0,
  conversions BIGINT NOT NULL DEFAULT 0,
  revenue_micros BIGINT NOT NULL DEFAULT 0,
  reach BIGINT NOT NULL DEFAULT 0,
  frequency DOUBLE PRECISION NOT NULL DEFAULT 0,
  link_clicks BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (ad_id, date)
);
CREATE INDEX insights_ad_daily_campaign_date ON insights_ad_daily(campaign_id, date);

-- The account's daily totals follow its campaigns' days, as SQLite's three rollup triggers do.
CREATE FUNCTION insights_campaign_daily_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE insights_account_daily SET
      spend_micros = spend_micros - OLD.spend_micros, impressions = impressions - OLD.impressions,
      clicks = clicks - OLD.clicks, conversions = conversions - OLD.conversions,
      revenue_micros = revenue_micros - OLD.revenue_micros, reach = reach - OLD.reach,
      link_clicks = link_clicks - OLD.link_clicks
    WHERE account_id = OLD.account_id AND date = OLD.date;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO insights_account_daily AS a (account_id, date, spend_micros, impressions, clicks, conversions, revenue_micros, reach, link_clicks)
    VALUES (NEW.account_id, NEW.date, NEW.spend_micros, NEW.impressions, NEW.clicks, NEW.conversions, NEW.revenue_micros, NEW.reach, NEW.link_clicks)
    ON CONFLICT (account_id, date) DO UPDATE SET
      spend_micros = a.spend_micros + excluded.spend_micros, impressions = a.impressions + excluded.impressions,
      clicks = a.clicks + excluded.clicks, conversions = a.conversions + excluded.conversions,
      revenue_micros = a.revenue_micros + excluded.revenue_micros, reach = a.reach + excluded.reach,
      link_clicks = a.link_clicks + excluded.link_clicks;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER insights_campaign_daily_rollup AFTER INSERT OR UPDATE OR DELETE ON insights_campaign_daily
  FOR EACH ROW EXECUTE FUNCTION insights_campaign_daily_rollup();

CREATE TABLE learning_stage_snapshots (
  ad_set_id TEXT NOT NULL REFERENCES ad_sets(id),
  observed_on TEXT NOT NULL,
  status TEXT NOT NULL,
  conversions BIGINT NOT NULL,
  last_significant_edit_at TEXT,
  PRIMARY KEY (ad_set_id, observed_on)
);

CREATE TABLE sync_runs (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES ad_accounts(id),
  kind TEXT NOT NULL CHECK (kind IN ('full', 'incremental')),
  status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'interrupted')),
  phase TEXT NOT NULL DEFAULT 'starting',
  percent BIGINT NOT NULL DEFAULT 0,
  pid BIGINT,
  error TEXT,
  stats TEXT NOT NULL DEFAULT '{}',
  started_at TEXT NOT NULL,
  finished_at TEXT,
  judged_at TEXT
);
CREATE INDEX sync_runs_account_started ON sync_runs(account_id, started_at);
CREATE UNIQUE INDEX sync_runs_one_running ON sync_runs(account_id) WHERE status = 'running';
CREATE INDEX sync_runs_unjudged ON sync_runs(finished_at) WHERE status = 'completed' AND judged_at IS NULL;

CREATE TABLE sync_schedules (
  account_id TEXT PRIMARY KEY REFERENCES ad_accounts(id) ON DELETE CASCADE,
  interval_minutes BIGINT CHECK (interval_minutes IS NULL OR interval_minutes BETWEEN 15 AND 1440),
  next_incremental_at TEXT NOT NULL,
  next_full_at TEXT NOT NULL,
  failures BIGINT NOT NULL DEFAULT 0,
  backoff_until TEXT,
  last_reason TEXT
);

CREATE TABLE change_events (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
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
CREATE INDEX change_events_account_time ON change_events(account_id, event_time);
CREATE INDEX change_events_campaign_time ON change_events(campaign_id, event_time);

CREATE TABLE platform_recommendations (
  account_id TEXT NOT NULL REFERENCES ad_accounts(id),
  position BIGINT NOT NULL,
  type TEXT NOT NULL,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  lift_estimate TEXT,
  points DOUBLE PRECISION,
  object_ids TEXT NOT NULL DEFAULT '[]',
  campaign_id TEXT REFERENCES campaigns(id),
  PRIMARY KEY (account_id, position)
);

CREATE TABLE diagnostics (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  account_id TEXT NOT NULL REFERENCES ad_accounts(id),
  campaign_id TEXT REFERENCES campaigns(id),
  user_id TEXT,
  status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed')),
  date_from TEXT NOT NULL,
  date_to TEXT NOT NULL,
  risk_level TEXT,
  summary TEXT,
  issues_detected BIGINT NOT NULL DEFAULT 0,
  recommendation_count BIGINT NOT NULL DEFAULT 0,
  result TEXT,
  error TEXT,
  processing_time_ms BIGINT,
  created_at TEXT NOT NULL,
  started_at TEXT,
  completed_at TEXT,
  trigger TEXT NOT NULL DEFAULT 'manual' CHECK (trigger IN ('manual', 'automatic')),
  campaign_scope TEXT
);
CREATE INDEX diagnostics_account_completed ON diagnostics(account_id, completed_at) WHERE campaign_id IS NULL;
CREATE INDEX diagnostics_campaign_completed ON diagnostics(campaign_id, completed_at);
CREATE UNIQUE INDEX diagnostics_one_active_per_account ON diagnostics(account_id)
  WHERE status IN ('pending', 'running') AND campaign_id IS NULL;
CREATE UNIQUE INDEX diagnostics_one_active_per_campaign ON diagnostics(campaign_id)
  WHERE status IN ('pending', 'running') AND campaign_id IS NOT NULL;
CREATE INDEX diagnostics_status ON diagnostics(status);
CREATE INDEX diagnostics_workspace_created ON diagnostics(workspace_id, created_at);

CREATE TABLE recommendation_feedback (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  diagnostic_id TEXT NOT NULL REFERENCES diagnostics(id),
  recommendation_id TEXT NOT NULL,
  action_kind TEXT NOT NULL,
  feedback TEXT NOT NULL CHECK (feedback IN ('applied', 'dismissed')),
  created_at TEXT NOT NULL,
  UNIQUE (diagnostic_id, recommendation_id, user_id)
);
CREATE INDEX recommendation_feedback_user ON recommendation_feedback(user_id);

CREATE TABLE issues (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  account_id TEXT NOT NULL REFERENCES ad_accounts(id) ON DELETE CASCADE,
  campaign_id TEXT REFERENCES campaigns(id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  entity_name TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('open', 'acknowledged', 'snoozed', 'resolved')),
  severity TEXT NOT NULL CHECK (severity IN ('LOW', 'MEDIUM', 'HIGH', 'CRITICAL')),
  peak_severity TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  evidence TEXT NOT NULL,
  diagnostic_id TEXT NOT NULL,
  opened_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  resolved_at TEXT,
  snoozed_until TEXT,
  snooze_until_worse BIGINT NOT NULL DEFAULT 0,
  acknowledged_by TEXT,
  history TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX issues_campaign ON issues(campaign_id, state);
CREATE INDEX issues_key ON issues(account_id, COALESCE(campaign_id, ''), type, entity_id, resolved_at);
CREATE UNIQUE INDEX issues_one_live ON issues(account_id, COALESCE(campaign_id, ''), type, entity_id)
  WHERE state <> 'resolved';
CREATE INDEX issues_snoozed ON issues(snoozed_until) WHERE state = 'snoozed';
CREATE INDEX issues_workspace_state ON issues(workspace_id, state, updated_at);

CREATE TABLE goals (
  account_id TEXT NOT NULL REFERENCES ad_accounts(id) ON DELETE CASCADE,
  campaign_id TEXT REFERENCES campaigns(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('CPA', 'ROAS')),
  -- CPA: the account's currency in major units per result; ROAS: a ratio (as in SQLite: REAL).
  target DOUBLE PRECISION NOT NULL CHECK (target > 0),
  updated_at TEXT NOT NULL,
  updated_by TEXT
);
CREATE UNIQUE INDEX goals_target ON goals(account_id, COALESCE(campaign_id, ''));

CREATE TABLE saved_views (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  screen TEXT NOT NULL CHECK (screen IN ('campaigns')),
  name TEXT NOT NULL,
  definition TEXT NOT NULL,
  created_by TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (workspace_id, screen, name)
);

CREATE TABLE report_schedules (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  account_id TEXT NOT NULL REFERENCES ad_accounts(id),
  cadence TEXT NOT NULL CHECK (cadence IN ('weekly', 'monthly')),
  request TEXT NOT NULL,
  next_run_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  cancelled_at TEXT
);

CREATE TABLE reports (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  account_id TEXT NOT NULL REFERENCES ad_accounts(id),
  schedule_id TEXT REFERENCES report_schedules(id),
  title TEXT NOT NULL,
  campaign_ids TEXT NOT NULL DEFAULT '[]',
  format TEXT NOT NULL CHECK (format IN ('json', 'pdf', 'markdown')),
  status TEXT NOT NULL CHECK (status IN ('pending', 'generating', 'completed', 'failed')),
  date_from TEXT NOT NULL,
  date_to TEXT NOT NULL,
  white_label TEXT,
  summary TEXT,
  file_path TEXT,
  error TEXT,
  due_at TEXT,
  created_at TEXT NOT NULL,
  completed_at TEXT,
  expires_at TEXT
);
CREATE INDEX reports_status ON reports(status);
CREATE INDEX reports_workspace_created ON reports(workspace_id, created_at);

-- Team only: a solo install keeps report files in its data directory (reports/); several serve
-- processes on several machines share them here. file_path in reports stays the solo-relative name.
CREATE TABLE report_files (
  report_id TEXT PRIMARY KEY REFERENCES reports(id) ON DELETE CASCADE,
  content BYTEA NOT NULL,
  sha256 TEXT NOT NULL
);

CREATE TABLE report_deliveries (
  id TEXT PRIMARY KEY,
  report_id TEXT NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
  channel TEXT NOT NULL CHECK (channel IN ('folder', 'email')),
  target TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts BIGINT NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  last_error TEXT,
  delivered_at TEXT,
  path TEXT,
  created_at TEXT NOT NULL,
  UNIQUE (report_id, channel, target)
);
CREATE INDEX report_deliveries_due ON report_deliveries(next_attempt_at) WHERE status = 'pending';

CREATE TABLE client_branding (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  account_id TEXT NOT NULL REFERENCES ad_accounts(id) ON DELETE CASCADE,
  company_name TEXT NOT NULL,
  logo TEXT,
  primary_color TEXT,
  footer_text TEXT,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (workspace_id, account_id)
);

CREATE TABLE alert_destinations (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  account_id TEXT REFERENCES ad_accounts(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('webhook', 'email')),
  target TEXT NOT NULL,
  format TEXT NOT NULL DEFAULT 'json' CHECK (format IN ('json', 'slack')),
  min_risk TEXT NOT NULL DEFAULT 'HIGH' CHECK (min_risk IN ('LOW', 'MEDIUM', 'HIGH', 'CRITICAL')),
  types TEXT NOT NULL,
  -- The webhook signing secret, sealed like platform tokens.
  secret_sealed BYTEA,
  created_at TEXT NOT NULL
);
CREATE INDEX alert_destinations_workspace ON alert_destinations(workspace_id);

CREATE TABLE alert_deliveries (
  id TEXT PRIMARY KEY,
  destination_id TEXT NOT NULL REFERENCES alert_destinations(id) ON DELETE CASCADE,
  dedupe_key TEXT NOT NULL,
  type TEXT NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts BIGINT NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  next_attempt_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  last_status BIGINT,
  last_error TEXT,
  delivered_at TEXT,
  UNIQUE (destination_id, dedupe_key)
);
CREATE INDEX alert_deliveries_due ON alert_deliveries(next_attempt_at) WHERE status = 'pending';

CREATE TABLE alert_digests (
  user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  hour BIGINT NOT NULL CHECK (hour BETWEEN 0 AND 23),
  timezone TEXT NOT NULL,
  last_day TEXT,
  last_sent_at TEXT
);
