// What the platform's debug_token said of a connection's token, read when connecting and at most once
// a day by a sync: its kind (USER, SYSTEM_USER…), when it expires (NULL = never, or not known yet:
// token_checked_at tells which), and the day the "expiring soon" event last went out.
export const sql = `
ALTER TABLE platform_connections ADD COLUMN token_type TEXT;
ALTER TABLE platform_connections ADD COLUMN token_expires_at TEXT;
ALTER TABLE platform_connections ADD COLUMN token_data_access_expires_at TEXT;
ALTER TABLE platform_connections ADD COLUMN token_checked_at TEXT;
ALTER TABLE platform_connections ADD COLUMN token_expiring_notified_on TEXT;
`;
