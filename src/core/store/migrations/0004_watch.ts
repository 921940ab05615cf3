// Watching the accounts: each account's sync schedule (survives restarts; one catch-up after a sleep),
// diagnostics started by the watcher rather than a person (with the campaigns they re-judge), and
// issues with a lifecycle: one row per problem across diagnoses, opened, updated, resolved, and
// acknowledged or snoozed by the analyst, with its history.
export const sql = `
CREATE TABLE sync_schedules (
  account_id TEXT PRIMARY KEY REFERENCES ad_accounts(id) ON DELETE CASCADE,
  interval_minutes INTEGER CHECK (interval_minutes IS NULL OR interval_minutes BETWEEN 15 AND 1440),
  next_incremental_at TEXT NOT NULL,
  next_full_at TEXT NOT NULL,
  failures INTEGER NOT NULL DEFAULT 0,
  backoff_until TEXT,
  last_reason TEXT
);

-- A completed sync is judged once: its changed campaigns are re-diagnosed, then judged_at is set.
ALTER TABLE sync_runs ADD COLUMN judged_at TEXT;
-- What was synced before this version is not re-judged in one burst on upgrade.
UPDATE sync_runs SET judged_at = finished_at WHERE status = 'completed';
CREATE INDEX sync_runs_unjudged ON sync_runs(finished_at) WHERE status = 'completed' AND judged_at IS NULL;

ALTER TABLE diagnostics ADD COLUMN trigger TEXT NOT NULL DEFAULT 'manual' CHECK (trigger IN ('manual', 'automatic'));
ALTER TABLE diagnostics ADD COLUMN campaign_scope TEXT;

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
  snooze_until_worse INTEGER NOT NULL DEFAULT 0,
  acknowledged_by TEXT,
  history TEXT NOT NULL DEFAULT '[]'
);
-- One live issue per problem: the same type on the same entity of the same campaign.
CREATE UNIQUE INDEX issues_one_live ON issues(account_id, IFNULL(campaign_id, ''), type, entity_id)
  WHERE state != 'resolved';
CREATE INDEX issues_workspace_state ON issues(workspace_id, state, updated_at);
CREATE INDEX issues_campaign ON issues(campaign_id, state);
-- Snoozes that end are found without reading every issue (each watcher pass and each list asks).
CREATE INDEX issues_snoozed ON issues(snoozed_until) WHERE state = 'snoozed';
-- A resolved problem seen again is found by its key (to reopen it), without scanning every issue.
CREATE INDEX issues_key ON issues(account_id, IFNULL(campaign_id, ''), type, entity_id, resolved_at);
`;
