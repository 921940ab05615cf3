-- ID lists travel as one JSON parameter (`store/dialect.ts`). `json_array_elements_text` is opaque to
-- the planner: it guesses 100 elements, so `campaign_id IN (…one id…)` over a lifetime became a
-- parallel sequential scan of every campaign day (137 ms at 365,000 rows; seconds at agency scale).
-- This function is IMMUTABLE, so with the parameter bound the planner folds it to a constant array,
-- and `unnest` of a constant array is estimated at its true length: a keyed index search per ID.
CREATE FUNCTION json_texts(list json) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(e), '{}') FROM json_array_elements_text(list) AS e
$$;

-- The same for lists of tuples (`jsonTuples`: each account with its own window): the rows as one
-- two-dimensional text array, folded the same way, walked by `generate_series(1, rows)`, whose row
-- count the planner then knows. `json_array_elements` alone was guessed at 100 tuples, and the join
-- became a hash join over a sequential scan of the whole account-day rollup.
CREATE FUNCTION json_matrix(list json) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(ARRAY(SELECT json_array_elements_text(r)) ORDER BY n), '{}')
  FROM json_array_elements(list) WITH ORDINALITY AS x(r, n)
$$;
