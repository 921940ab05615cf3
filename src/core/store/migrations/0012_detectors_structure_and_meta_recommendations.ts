// Structure the recommendations are checked against, and Meta's own recommendations. A campaign's
// smart_promotion_type (AUTOMATED_SHOPPING_ADS, SMART_APP_PROMOTION: Advantage+ campaigns whose
// audience Meta builds); the account's opportunity score and its performance recommendations (Graph
// /act_{id}/recommendations), replaced whole on each read, each resolved to the campaign it names
// (NULL: account-wide or not synced). NULL score / no read time = not available for the account.
export const sql = `
ALTER TABLE campaigns ADD COLUMN smart_promotion_type TEXT;
ALTER TABLE ad_accounts ADD COLUMN opportunity_score REAL;
ALTER TABLE ad_accounts ADD COLUMN platform_recommendations_read_at TEXT;

CREATE TABLE platform_recommendations (
  account_id TEXT NOT NULL REFERENCES ad_accounts(id),
  position INTEGER NOT NULL,
  type TEXT NOT NULL,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  lift_estimate TEXT,
  points REAL,
  object_ids TEXT NOT NULL DEFAULT '[]',
  campaign_id TEXT REFERENCES campaigns(id),
  PRIMARY KEY (account_id, position)
) WITHOUT ROWID;
`;
