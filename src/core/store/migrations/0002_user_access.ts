// Sign-in: attempts counted per client address as well as per email.
// Users can be disabled (sign-in and sessions refused, keys revoked) and removed (the same, and the
// e-mail released for a new invitation); their row stays so history keeps its author.
export const sql = `
ALTER TABLE users ADD COLUMN disabled_at TEXT;
ALTER TABLE users ADD COLUMN removed_at TEXT;
ALTER TABLE users ADD COLUMN removed_email TEXT;
CREATE INDEX api_keys_user ON api_keys(user_id);
CREATE INDEX dashboard_sessions_user ON dashboard_sessions(user_id);
-- Sign-in attempts are reserved before the password hash runs and counted per client address too.
ALTER TABLE sign_in_failures ADD COLUMN client TEXT NOT NULL DEFAULT '';
CREATE INDEX sign_in_failures_client ON sign_in_failures(client, failed_at);
`;
