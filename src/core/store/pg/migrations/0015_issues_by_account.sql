-- One account's issues in a state, newest first: an account's list reads its own range, not the
-- workspace's resolved issues. SQLite's twin: migration 19.
CREATE INDEX issues_account_state ON issues(account_id, state, updated_at);
