// The first schema. Money is stored in integer micro-units (amount × 1,000,000) so sums are exact;
// platform IDs are kept as the platform gives them, service IDs are `<prefix>_<16 base62>`.
export const sql = /* sql */ `
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

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
  UNIQUE (workspace_id, email)
);

-- A token to one Graph API base URL. mode 'test' = the embedded demo platform, 'live' = anything else.
CREATE TABLE platform_connections (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  base_url TEXT NOT NULL,
  api_version TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  token_encrypted BLOB NOT NULL,
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disconnected', 'token_expired')),
  status_reason TEXT,
  connected_by TEXT REFERENCES users(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
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
  UNIQUE (workspace_id, platform_account_id)
);
CREATE INDEX ad_accounts_workspace_status ON ad_accounts(workspace_id, connection_status);
CREATE INDEX ad_accounts_platform ON ad_accounts(platform_account_id);

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
  daily_budget_micros INTEGER,
  lifetime_budget_micros INTEGER,
  special_ad_categories TEXT NOT NULL DEFAULT '[]',
  start_time TEXT,
  stop_time TEXT,
  created_time TEXT NOT NULL,
  updated_time TEXT NOT NULL,
  last_synced_at TEXT,
  -- Per-campaign synced state: null until this campaign's insights have been read at least once.
  insights_synced_at TEXT,
  insights_synced_through TEXT,
  -- A target cost per result set by the analyst (used when there is no cost cap).
  target_cpa_micros INTEGER,
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
  daily_budget_micros INTEGER,
  lifetime_budget_micros INTEGER,
  bid_strategy TEXT,
  bid_amount_micros INTEGER,
  billing_event TEXT,
  optimization_goal TEXT,
  promoted_event TEXT,
  targeting TEXT NOT NULL DEFAULT '{}',
  learning_status TEXT,
  learning_conversions INTEGER,
  last_significant_edit_at TEXT,
  created_time TEXT NOT NULL,
  updated_time TEXT NOT NULL,
  last_synced_at TEXT,
  UNIQUE (account_id, platform_ad_set_id)
);
CREATE INDEX ad_sets_campaign ON ad_sets(campaign_id);

-- One row per ad set per sync in which learning_stage_info was read, so that time in learning can be told.
CREATE TABLE learning_stage_snapshots (
  ad_set_id TEXT NOT NULL REFERENCES ad_sets(id),
  observed_on TEXT NOT NULL,
  status TEXT NOT NULL,
  conversions INTEGER NOT NULL,
  last_significant_edit_at TEXT,
  PRIMARY KEY (ad_set_id, observed_on)
) WITHOUT ROWID;

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
  UNIQUE (account_id, platform_ad_id)
);
CREATE INDEX ads_ad_set ON ads(ad_set_id);
CREATE INDEX ads_campaign ON ads(campaign_id);

-- Daily insights, one table per level. date is the account-timezone calendar day (YYYY-MM-DD).
CREATE TABLE insights_campaign_daily (
  campaign_id TEXT NOT NULL REFERENCES campaigns(id),
  date TEXT NOT NULL,
  account_id TEXT NOT NULL,
  spend_micros INTEGER NOT NULL DEFAULT 0,
  impressions INTEGER NOT NULL DEFAULT 0,
  clicks INTEGER NOT NULL DEFAULT 0,
  conversions INTEGER NOT NULL DEFAULT 0,
  revenue_micros INTEGER NOT NULL DEFAULT 0,
  reach INTEGER NOT NULL DEFAULT 0,
  frequency REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (campaign_id, date)
) WITHOUT ROWID;
-- Covering: account-wide sums (insights summary, 30-day spend) never visit the table's b-tree.
CREATE INDEX insights_campaign_daily_account_date ON insights_campaign_daily(
  account_id, date, campaign_id, spend_micros, impressions, clicks, conversions, revenue_micros, reach
);

-- Account-day rollup of the campaign rows, kept exact by triggers: account-wide totals and time series
-- read a few hundred rows instead of every campaign-day.
CREATE TABLE insights_account_daily (
  account_id TEXT NOT NULL,
  date TEXT NOT NULL,
  spend_micros INTEGER NOT NULL DEFAULT 0,
  impressions INTEGER NOT NULL DEFAULT 0,
  clicks INTEGER NOT NULL DEFAULT 0,
  conversions INTEGER NOT NULL DEFAULT 0,
  revenue_micros INTEGER NOT NULL DEFAULT 0,
  reach INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, date)
) WITHOUT ROWID;

CREATE TRIGGER insights_campaign_daily_rollup_insert AFTER INSERT ON insights_campaign_daily BEGIN
  INSERT INTO insights_account_daily (account_id, date, spend_micros, impressions, clicks, conversions, revenue_micros, reach)
  VALUES (NEW.account_id, NEW.date, NEW.spend_micros, NEW.impressions, NEW.clicks, NEW.conversions, NEW.revenue_micros, NEW.reach)
  ON CONFLICT (account_id, date) DO UPDATE SET
    spend_micros = spend_micros + excluded.spend_micros, impressions = impressions + excluded.impressions,
    clicks = clicks + excluded.clicks, conversions = conversions + excluded.conversions,
    revenue_micros = revenue_micros + excluded.revenue_micros, reach = reach + excluded.reach;
END;

CREATE TRIGGER insights_campaign_daily_rollup_delete AFTER DELETE ON insights_campaign_daily BEGIN
  UPDATE insights_account_daily SET
    spend_micros = spend_micros - OLD.spend_micros, impressions = impressions - OLD.impressions,
    clicks = clicks - OLD.clicks, conversions = conversions - OLD.conversions,
    revenue_micros = revenue_micros - OLD.revenue_micros, reach = reach - OLD.reach
  WHERE account_id = OLD.account_id AND date = OLD.date;
END;

CREATE TRIGGER insights_campaign_daily_rollup_update AFTER UPDATE ON insights_campaign_daily BEGIN
  UPDATE insights_account_daily SET
    spend_micros = spend_micros - OLD.spend_micros, impressions = impressions - OLD.impressions,
    clicks = clicks - OLD.clicks, conversions = conversions - OLD.conversions,
    revenue_micros = revenue_micros - OLD.revenue_micros, reach = reach - OLD.reach
  WHERE account_id = OLD.account_id AND date = OLD.date;
  INSERT INTO insights_account_daily (account_id, date, spend_micros, impressions, clicks, conversions, revenue_micros, reach)
  VALUES (NEW.account_id, NEW.date, NEW.spend_micros, NEW.impressions, NEW.clicks, NEW.conversions, NEW.revenue_micros, NEW.reach)
  ON CONFLICT (account_id, date) DO UPDATE SET
    spend_micros = spend_micros + excluded.spend_micros, impressions = impressions + excluded.impressions,
    clicks = clicks + excluded.clicks, conversions = conversions + excluded.conversions,
    revenue_micros = revenue_micros + excluded.revenue_micros, reach = reach + excluded.reach;
END;

CREATE TABLE insights_ad_set_daily (
  ad_set_id TEXT NOT NULL REFERENCES ad_sets(id),
  date TEXT NOT NULL,
  account_id TEXT NOT NULL,
  campaign_id TEXT NOT NULL,
  spend_micros INTEGER NOT NULL DEFAULT 0,
  impressions INTEGER NOT NULL DEFAULT 0,
  clicks INTEGER NOT NULL DEFAULT 0,
  conversions INTEGER NOT NULL DEFAULT 0,
  revenue_micros INTEGER NOT NULL DEFAULT 0,
  reach INTEGER NOT NULL DEFAULT 0,
  frequency REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (ad_set_id, date)
) WITHOUT ROWID;
CREATE INDEX insights_ad_set_daily_campaign_date ON insights_ad_set_daily(campaign_id, date);

CREATE TABLE insights_ad_daily (
  ad_id TEXT NOT NULL REFERENCES ads(id),
  date TEXT NOT NULL,
  account_id TEXT NOT NULL,
  campaign_id TEXT NOT NULL,
  ad_set_id TEXT NOT NULL,
  spend_micros INTEGER NOT NULL DEFAULT 0,
  impressions INTEGER NOT NULL DEFAULT 0,
  clicks INTEGER NOT NULL DEFAULT 0,
  conversions INTEGER NOT NULL DEFAULT 0,
  revenue_micros INTEGER NOT NULL DEFAULT 0,
  reach INTEGER NOT NULL DEFAULT 0,
  frequency REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (ad_id, date)
) WITHOUT ROWID;
CREATE INDEX insights_ad_daily_campaign_date ON insights_ad_daily(campaign_id, date);

CREATE TABLE sync_runs (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES ad_accounts(id),
  kind TEXT NOT NULL CHECK (kind IN ('full', 'incremental')),
  status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'interrupted')),
  phase TEXT NOT NULL DEFAULT 'starting',
  percent INTEGER NOT NULL DEFAULT 0,
  pid INTEGER,
  error TEXT,
  stats TEXT NOT NULL DEFAULT '{}',
  started_at TEXT NOT NULL,
  finished_at TEXT
);
CREATE INDEX sync_runs_account_started ON sync_runs(account_id, started_at);
-- At most one running sync per account, enforced by the database itself.
CREATE UNIQUE INDEX sync_runs_one_running ON sync_runs(account_id) WHERE status = 'running';

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

CREATE TABLE andromeda_profiles (
  user_id TEXT PRIMARY KEY REFERENCES users(id),
  risk_appetite TEXT NOT NULL DEFAULT 'MEDIUM' CHECK (risk_appetite IN ('LOW', 'MEDIUM', 'HIGH')),
  focus_metric TEXT NOT NULL DEFAULT 'CPA' CHECK (focus_metric IN ('ROAS', 'CPA', 'CTR', 'CONVERSIONS')),
  updated_at TEXT NOT NULL
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
  issues_detected INTEGER NOT NULL DEFAULT 0,
  recommendation_count INTEGER NOT NULL DEFAULT 0,
  result TEXT,
  error TEXT,
  processing_time_ms INTEGER,
  created_at TEXT NOT NULL,
  started_at TEXT,
  completed_at TEXT
);
CREATE INDEX diagnostics_workspace_created ON diagnostics(workspace_id, created_at);
CREATE INDEX diagnostics_campaign_completed ON diagnostics(campaign_id, completed_at);
CREATE INDEX diagnostics_status ON diagnostics(status);
CREATE UNIQUE INDEX diagnostics_one_active_per_campaign ON diagnostics(campaign_id)
  WHERE status IN ('pending', 'running') AND campaign_id IS NOT NULL;
CREATE UNIQUE INDEX diagnostics_one_active_per_account ON diagnostics(account_id)
  WHERE status IN ('pending', 'running') AND campaign_id IS NULL;

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
CREATE INDEX reports_workspace_created ON reports(workspace_id, created_at);
CREATE INDEX reports_status ON reports(status);

CREATE TABLE dashboard_sessions (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id),
  token_hash TEXT NOT NULL UNIQUE,
  csrf_token TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);

CREATE TABLE sign_in_failures (
  email TEXT NOT NULL,
  failed_at TEXT NOT NULL
);
CREATE INDEX sign_in_failures_email ON sign_in_failures(email, failed_at);
`;
