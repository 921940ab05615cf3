-- Several takes of one key in one statement: a serve process whose requests of one key arrive while
-- that key's take is on its way to the database sends them together when it returns, instead of each
-- waiting its turn at the key's lock (with 8 clients of one key, a take was 0.4–1.4 ms, most of it
-- waiting). The decisions are those of `takes` identical takes made one after the other at `now_ms`:
-- the first `admitted` are admitted (as many as every counter has room for), the rest refused. The
-- function returns each counter's usage before the batch and how many were admitted; the process
-- decides each take from them with RateLimiter's `judge` (src/core/api/rate-limit-pg.ts).
-- The five-argument function of 0011 stays for a process of the previous release still running beside
-- this one: it is now one take of this one.
CREATE FUNCTION rate_limit_take(key text, counters text[], limits bigint[], now_ms bigint, window_ms bigint, takes integer)
RETURNS TABLE (counter text, used integer, oldest bigint, admitted integer) LANGUAGE plpgsql AS $$
DECLARE
  i integer;
  gone integer;
  in_window integer;
  first_at bigint;
  used_by integer[] := '{}';
  oldest_by bigint[] := '{}';
  room bigint := greatest(takes, 0);
BEGIN
  PERFORM pg_advisory_xact_lock(1094996556, hashtext(key));
  FOR i IN 1 .. coalesce(array_length(counters, 1), 0) LOOP
    DELETE FROM team_rate_limit_requests r
    WHERE r.key_id = key AND r.counter = counters[i] AND r.made_at <= now_ms - window_ms;
    GET DIAGNOSTICS gone = ROW_COUNT;
    IF gone > 0 THEN
      UPDATE team_rate_limit_totals t SET requests = t.requests - gone
      WHERE t.key_id = key AND t.counter = counters[i];
    END IF;
    SELECT t.requests INTO in_window FROM team_rate_limit_totals t
    WHERE t.key_id = key AND t.counter = counters[i];
    SELECT r.made_at INTO first_at FROM team_rate_limit_requests r
    WHERE r.key_id = key AND r.counter = counters[i] ORDER BY r.made_at LIMIT 1;
    in_window := coalesce(in_window, 0);
    used_by := used_by || in_window;
    oldest_by := oldest_by || first_at;
    room := least(room, greatest(limits[i] - in_window, 0));
  END LOOP;
  IF room > 0 THEN
    INSERT INTO team_rate_limit_requests (key_id, counter, made_at)
      SELECT key, c.name, now_ms FROM unnest(counters) AS c(name), generate_series(1, room);
    INSERT INTO team_rate_limit_totals AS t (key_id, counter, requests) SELECT key, unnest(counters), room
    ON CONFLICT ON CONSTRAINT team_rate_limit_totals_pkey DO UPDATE SET requests = t.requests + EXCLUDED.requests;
  END IF;
  RETURN QUERY SELECT c.name, c.used, c.oldest_at, room::integer
    FROM unnest(counters, used_by, oldest_by) AS c(name, used, oldest_at);
END
$$;

CREATE OR REPLACE FUNCTION rate_limit_take(key text, counters text[], limits bigint[], now_ms bigint, window_ms bigint)
RETURNS TABLE (counter text, used integer, oldest bigint) LANGUAGE sql AS $$
  SELECT t.counter, t.used, t.oldest FROM rate_limit_take(key, counters, limits, now_ms, window_ms, 1) AS t;
$$;
