// Client-ready reports: branding per client (ad account) — the workspace default stays in settings —
// and one delivery row per finished report and target (a folder, an e-mail address), retried like the
// alerts outbox, so a failed delivery is visible on the report and tried again.
export const sql = `
CREATE TABLE client_branding (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  account_id TEXT NOT NULL REFERENCES ad_accounts(id) ON DELETE CASCADE,
  company_name TEXT NOT NULL,
  -- A PNG or JPEG data URI (checked: magic bytes, at most 256 KB decoded).
  logo TEXT,
  primary_color TEXT,
  footer_text TEXT,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (workspace_id, account_id)
);

CREATE TABLE report_deliveries (
  id TEXT PRIMARY KEY,
  report_id TEXT NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
  channel TEXT NOT NULL CHECK (channel IN ('folder', 'email')),
  -- The folder's absolute path or the e-mail address.
  target TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  last_error TEXT,
  delivered_at TEXT,
  -- Where the file was written (folder deliveries).
  path TEXT,
  created_at TEXT NOT NULL,
  UNIQUE (report_id, channel, target)
);
CREATE INDEX report_deliveries_due ON report_deliveries(next_attempt_at) WHERE status = 'pending';
`;
