// Alerts where the analyst works: destinations (webhooks, e-mail) with their rules, a persisted
// outbox of deliveries (retries survive restarts; one delivery per destination and per issue state
// change, by a unique key), and each user's morning digest (sent once a day, in their time zone).
export const sql = `
CREATE TABLE alert_destinations (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  -- NULL: every account of the workspace; else this account only.
  account_id TEXT REFERENCES ad_accounts(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('webhook', 'email')),
  -- The webhook URL or the e-mail address.
  target TEXT NOT NULL,
  format TEXT NOT NULL DEFAULT 'json' CHECK (format IN ('json', 'slack')),
  min_risk TEXT NOT NULL DEFAULT 'HIGH' CHECK (min_risk IN ('LOW', 'MEDIUM', 'HIGH', 'CRITICAL')),
  -- The alert types it receives (JSON array).
  types TEXT NOT NULL,
  -- The webhook signing secret, sealed with the token cipher (it must be recoverable to sign).
  secret_sealed BLOB,
  created_at TEXT NOT NULL
);
CREATE INDEX alert_destinations_workspace ON alert_destinations(workspace_id);

CREATE TABLE alert_deliveries (
  id TEXT PRIMARY KEY,
  destination_id TEXT NOT NULL REFERENCES alert_destinations(id) ON DELETE CASCADE,
  -- What it announces, e.g. issue:<id>:<change>:<history length>, sync:<run id>, digest:<user>:<day>.
  dedupe_key TEXT NOT NULL,
  type TEXT NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  next_attempt_at TEXT NOT NULL,
  -- Retries stop a day after the first attempt (a delivery held by quiet hours counts from its release).
  expires_at TEXT NOT NULL,
  last_status INTEGER,
  last_error TEXT,
  delivered_at TEXT,
  UNIQUE (destination_id, dedupe_key)
);
CREATE INDEX alert_deliveries_due ON alert_deliveries(next_attempt_at) WHERE status = 'pending';

CREATE TABLE alert_digests (
  user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  hour INTEGER NOT NULL CHECK (hour BETWEEN 0 AND 23),
  timezone TEXT NOT NULL,
  -- The user's local day it was last sent, and when (what changed since then goes in the next one).
  last_day TEXT,
  last_sent_at TEXT
);
`;
