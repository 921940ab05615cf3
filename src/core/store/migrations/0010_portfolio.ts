// The portfolio and diagnostics history: a whole-account diagnostic's history is read by account and
// completion time, without a pass over every diagnostic (the watcher adds some with every sync).
export const sql = `
CREATE INDEX diagnostics_account_completed ON diagnostics(account_id, completed_at) WHERE campaign_id IS NULL;
`;
