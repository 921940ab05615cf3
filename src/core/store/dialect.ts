// The few places the two engines' SQL differs, written once each. A store asks for the fragment by
// `sql.engine`; everything else (`ON CONFLICT`, `RETURNING`, `COALESCE`, `IS DISTINCT FROM`,
// `NULLS FIRST/LAST`, `CAST(? AS …)`) is the same text on both.
import type { Sql } from './sql';

/**
 * A subquery over a JSON array parameter (`JSON.stringify(ids)`), for `col IN ${jsonValues(sql)}`:
 * one parameter however long the list, so the statement text (and its cached plan) never changes.
 * Elements come back as text on PostgreSQL: use it for text columns (IDs, states, dates).
 */
export function jsonValues(sql: Sql): string {
  return sql.engine === 'postgres'
    ? `(SELECT json_array_elements_text(CAST(? AS json)))`
    : `(SELECT value FROM json_each(?))`;
}

/**
 * A subquery over a JSON array held in a text column (`expr`), for `? IN ${jsonValuesOf(sql, 'col')}`:
 * the elements as text, like jsonValues.
 */
export function jsonValuesOf(sql: Sql, expr: string): string {
  return sql.engine === 'postgres'
    ? `(SELECT json_array_elements_text(CAST(${expr} AS json)))`
    : `(SELECT value FROM json_each(${expr}))`;
}

export type JsonColumnKind = 'text' | 'integer' | 'real';

/**
 * `SELECT` of a JSON array of tuples (`JSON.stringify([[a, b], …])`) as rows, one column per kind
 * in order (unnamed: use it inside `INSERT … SELECT` or `WITH t(a, b) AS (…)`).
 */
export function jsonTuples(sql: Sql, kinds: readonly JsonColumnKind[]): string {
  if (sql.engine === 'postgres') {
    const cast = { text: 'text', integer: 'bigint', real: 'double precision' } as const;
    const columns = kinds.map((kind, i) =>
      kind === 'text' ? `t.value->>${i}` : `CAST(t.value->>${i} AS ${cast[kind]})`,
    );
    return `SELECT ${columns.join(', ')} FROM json_array_elements(CAST(? AS json)) AS t(value)`;
  }
  const columns = kinds.map((_, i) => `json_extract(value, '$[${i}]')`);
  return `SELECT ${columns.join(', ')} FROM json_each(?)`;
}

/** A text field of a JSON object held in a text column: `expr`'s `key`, or NULL. */
export function jsonText(sql: Sql, expr: string, key: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw new Error(`not a JSON key: ${key}`);
  return sql.engine === 'postgres'
    ? `(CAST(${expr} AS json)->>'${key}')`
    : `json_extract(${expr}, '$.${key}')`;
}

/** Case-insensitive substring match of `expr` against a parameter (the caller passes `%text%`). */
export function containsInsensitive(sql: Sql, expr: string): string {
  return sql.engine === 'postgres' ? `${expr} ILIKE ?` : `${expr} LIKE ?`;
}
