-- Rate-limit takes off the requests' path (with 8 clients of one key, 1.4–1.7 ms of the database a
-- take, most of it walking dead index entries):
-- - A take deletes nothing. A busy key's requests were deleted from the start of its index range one
--   take at a time, and each later take's delete and its read of the oldest request stepped over every
--   entry deleted since the last vacuum (0.9 + 0.2 ms a take). Now a key's count is of its requests
--   made after `counted_after`: a take moves that instant to the start of its window and takes off the
--   requests in between (those that just left, live rows), then reads the oldest request after it.
--   Each process's sweep deletes, once a window, what no window counts: the requests a count is already
--   past without waiting for anyone, an idle key's under its lock (src/core/api/rate-limit-pg.ts).
-- - Several takes in one statement: a process whose requests of one key arrive while that key's take
--   is on its way sends them together when it returns. The decisions are those of `takes` identical
--   takes made one after the other at `now_ms`: the first `admitted` are admitted (as many as every
--   counter has room for), the rest refused. The function returns each counter's usage before the batch
--   and how many were admitted; the process decides each take from them with RateLimiter's `judge`.
-- New tables, so that a process of an earlier release still running, whose sweep deletes and counts
-- requests in the old ones, cannot miscount these: its takes come here too (its five-argument
-- rate_limit_take is one take of this one below), and its sweeps find nothing of theirs. The old tables
-- go later.
CREATE UNLOGGED TABLE team_rate_limit_log (
  key_id TEXT NOT NULL,
  counter TEXT NOT NULL,
  -- Milliseconds since the epoch, by the clock of the process that admitted the request.
  made_at BIGINT NOT NULL
);
CREATE INDEX team_rate_limit_log_window ON team_rate_limit_log (key_id, counter, made_at);
CREATE UNLOGGED TABLE team_rate_limit_counts (
  key_id TEXT NOT NULL,
  counter TEXT NOT NULL,
  -- The rows of team_rate_limit_log for this key and counter made after counted_after.
  requests INTEGER NOT NULL,
  counted_after BIGINT NOT NULL,
  PRIMARY KEY (key_id, counter)
);
INSERT INTO team_rate_limit_log (key_id, counter, made_at)
  SELECT key_id, counter, made_at FROM team_rate_limit_requests;
INSERT INTO team_rate_limit_counts (key_id, counter, requests, counted_after)
  SELECT key_id, counter, count(*), 0 FROM team_rate_limit_log GROUP BY key_id, counter;

CREATE FUNCTION rate_limit_take(key text, counters text[], limits bigint[], now_ms bigint, window_ms bigint, takes integer)
RETURNS TABLE (counter text, used integer, oldest bigint, admitted integer) LANGUAGE plpgsql AS $$
DECLARE
  i integer;
  in_window integer;
  after_at bigint;
  first_at bigint;
  starts bigint := now_ms - window_ms;
  made bigint := now_ms;
  used_by integer[] := '{}';
  oldest_by bigint[] := '{}';
  room bigint := greatest(takes, 0);
BEGIN
  PERFORM pg_advisory_xact_lock(1094996556, hashtext(key));
  FOR i IN 1 .. coalesce(array_length(counters, 1), 0) LOOP
    SELECT t.requests, t.counted_after INTO in_window, after_at FROM team_rate_limit_counts t
    WHERE t.key_id = key AND t.counter = counters[i];
    IF NOT FOUND THEN
      in_window := 0;
      after_at := starts;
    ELSIF after_at < starts THEN
      -- The requests that left the window since the count was last moved (by any process's clock).
      in_window := in_window - (SELECT count(*) FROM team_rate_limit_log r
        WHERE r.key_id = key AND r.counter = counters[i] AND r.made_at > after_at AND r.made_at <= starts);
      after_at := starts;
      UPDATE team_rate_limit_counts t SET requests = in_window, counted_after = after_at
      WHERE t.key_id = key AND t.counter = counters[i];
    END IF;
    SELECT r.made_at INTO first_at FROM team_rate_limit_log r
    WHERE r.key_id = key AND r.counter = counters[i] AND r.made_at > after_at ORDER BY r.made_at LIMIT 1;
    used_by := used_by || in_window;
    oldest_by := oldest_by || first_at;
    -- A request is counted after its counter's instant, even by a process whose clock is behind.
    made := greatest(made, after_at + 1);
    room := least(room, greatest(limits[i] - in_window, 0));
  END LOOP;
  IF room > 0 THEN
    INSERT INTO team_rate_limit_log (key_id, counter, made_at)
      SELECT key, c.name, made FROM unnest(counters) AS c(name), generate_series(1, room);
    INSERT INTO team_rate_limit_counts AS t (key_id, counter, requests, counted_after)
      SELECT key, unnest(counters), room, starts
    ON CONFLICT ON CONSTRAINT team_rate_limit_counts_pkey DO UPDATE SET requests = t.requests + EXCLUDED.requests;
  END IF;
  RETURN QUERY SELECT c.name, c.used, c.oldest_at, room::integer
    FROM unnest(counters, used_by, oldest_by) AS c(name, used, oldest_at);
END
$$;

CREATE OR REPLACE FUNCTION rate_limit_take(key text, counters text[], limits bigint[], now_ms bigint, window_ms bigint)
RETURNS TABLE (counter text, used integer, oldest bigint) LANGUAGE sql AS $$
  SELECT t.counter, t.used, t.oldest FROM rate_limit_take(key, counters, limits, now_ms, window_ms, 1) AS t;
$$;
