// Goals (an addition to the spec): the analyst's target cost per result (CPA) or ROAS for an account,
// and per campaign overriding it. Diagnostics judge campaigns against them ("below target" is never
// healthy) and weigh money lost against the goal when ranking risk.
export const sql = `
CREATE TABLE goals (
  account_id TEXT NOT NULL REFERENCES ad_accounts(id) ON DELETE CASCADE,
  -- NULL: the account's goal (every campaign without its own); else this campaign's.
  campaign_id TEXT REFERENCES campaigns(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('CPA', 'ROAS')),
  -- CPA: the account's currency in major units, per result of the campaign's result type; ROAS: a ratio.
  target REAL NOT NULL CHECK (target > 0),
  updated_at TEXT NOT NULL,
  updated_by TEXT
);
-- One account goal and one goal per campaign.
CREATE UNIQUE INDEX goals_target ON goals(account_id, ifnull(campaign_id, ''));

-- The per-campaign target CPA set before goals existed becomes the campaign's CPA goal.
INSERT INTO goals (account_id, campaign_id, kind, target, updated_at, updated_by)
  SELECT account_id, id, 'CPA', target_cpa_micros / 1000000.0, updated_time, NULL
    FROM campaigns WHERE target_cpa_micros IS NOT NULL AND target_cpa_micros > 0;
`;
