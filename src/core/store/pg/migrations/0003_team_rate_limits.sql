-- Team server only (solo keeps them in memory): the requests each API key made lately, one row per
-- counter it used, so that every serve process on this database counts the same sliding window.
-- UNLOGGED: no WAL for a table written on every request; a crash empties it, which only forgets the
-- last minute of requests, as a solo restart does.
CREATE UNLOGGED TABLE team_rate_limit_requests (
  key_id TEXT NOT NULL,
  counter TEXT NOT NULL,
  -- Milliseconds since the epoch, by the clock of the process that admitted the request.
  made_at BIGINT NOT NULL
);
CREATE INDEX team_rate_limit_requests_window ON team_rate_limit_requests (key_id, counter, made_at);
