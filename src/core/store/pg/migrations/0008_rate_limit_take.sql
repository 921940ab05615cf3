-- A request's rate-limit decision in one statement (one round trip) instead of a transaction of five
-- (BEGIN, lock, count, insert, COMMIT): `SELECT … FROM rate_limit_take(…)` runs as its own
-- transaction. The per-key advisory lock is taken first; each statement of a VOLATILE function reads
-- a fresh snapshot (READ COMMITTED), so the count sees every request the key's previous holders
-- committed, and the lock is released at commit, after this request's rows are visible.
-- The admission rule is RateLimiter's `judge` (src/core/api/rate-limit.ts): admitted when every
-- counter is under its limit. The function returns each counter's usage before this request, and
-- `judge` decides again from it in the process (same rule, same answer, plus Retry-After).
-- Lock class 0x4144524c ("ADRL"): per-key locks live in the two-int advisory space, apart from the
-- migration lock's one-bigint space; two keys sharing a hash only wait for each other.
CREATE FUNCTION rate_limit_take(key text, counters text[], limits bigint[], now_ms bigint, window_ms bigint)
RETURNS TABLE (counter text, used integer, oldest bigint) LANGUAGE plpgsql AS $$
DECLARE
  used_by integer[];
  oldest_by bigint[];
  admitted boolean;
BEGIN
  PERFORM pg_advisory_xact_lock(1094996556, hashtext(key));
  SELECT array_agg(coalesce(u.n, 0) ORDER BY c.i), array_agg(u.first_at ORDER BY c.i),
    coalesce(bool_and(coalesce(u.n, 0) < c.lim), true)
  INTO used_by, oldest_by, admitted
  FROM unnest(counters, limits) WITH ORDINALITY AS c(name, lim, i)
  LEFT JOIN LATERAL (
    SELECT count(*)::integer AS n, min(r.made_at) AS first_at FROM team_rate_limit_requests r
    WHERE r.key_id = key AND r.counter = c.name AND r.made_at > now_ms - window_ms
  ) u ON true;
  IF admitted THEN
    INSERT INTO team_rate_limit_requests (key_id, counter, made_at) SELECT key, unnest(counters), now_ms;
  END IF;
  RETURN QUERY SELECT t.name, t.used, t.first_at FROM unnest(counters, used_by, oldest_by) AS t(name, used, first_at);
END
$$;
