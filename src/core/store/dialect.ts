// The few places the two engines' SQL differs, written once each. A store asks for the fragment by
// `sql.engine`; everything else (`ON CONFLICT`, `RETURNING`, `COALESCE`, `IS DISTINCT FROM`,
// `NULLS FIRST/LAST`, `CAST(? AS …)`) is the same text on both.
import type { Sql } from './sql';

/**
 * A subquery over a JSON array parameter (`JSON.stringify(ids)`), for `col IN ${jsonValues(sql)}`:
 * one parameter however long the list, so the statement text (and its cached plan) never changes.
 * Elements come back as text on PostgreSQL: use it for text columns (IDs, states, dates). There the
 * list goes through `json_texts` (PostgreSQL migration 0007), which the planner folds to a constant
 * array of known length: `json_array_elements_text` alone is guessed at 100 rows and planned as a scan.
 */
export function jsonValues(sql: Sql): string {
  return sql.engine === 'postgres'
    ? `(SELECT unnest(json_texts(CAST(? AS json))))`
    : `(SELECT value FROM json_each(?))`;
}

/**
 * `column` is one of a JSON array parameter's elements (text), as a WHERE term. On PostgreSQL a
 * filter on the constant array (`= ANY`), not a join with its elements: a list read in an index's
 * order (the issue list of a workspace's accounts) walks that index and checks each row's value,
 * where the join drove the read account by account and sorted every row (63 ms at 30,000 resolved
 * issues, 0.2 ms as a filter).
 */
export function inJsonValues(sql: Sql, column: string): string {
  return sql.engine === 'postgres'
    ? `${column} = ANY(json_texts(CAST(? AS json)))`
    : `${column} IN (SELECT value FROM json_each(?))`;
}

/**
 * A `FROM` item of a JSON array parameter's elements (text), one row each in column `value`: for a
 * statement that reads per element (`SELECT value, (SELECT … WHERE x = value) FROM ${jsonEach(sql)}`).
 */
export function jsonEach(sql: Sql): string {
  return sql.engine === 'postgres' ? `unnest(json_texts(CAST(? AS json))) AS j(value)` : `json_each(?)`;
}

/**
 * A workspace's rows of some accounts (`alias.workspace_id`, `alias.account_id`), as WHERE terms and
 * their parameters. One account reads its own range of an `(account_id, …)` index: SQLite would
 * otherwise walk the workspace's index for the account's rows, so the workspace term is kept off any
 * index there (`unindexed`). Several accounts are a filter on the list (`inJsonValues`).
 */
export function inAccounts(
  sql: Sql,
  alias: string,
  workspaceId: string,
  accountIds: readonly string[],
): { terms: string[]; params: string[] } {
  const [one] = accountIds;
  return accountIds.length === 1 && one !== undefined
    ? {
        terms: [`${unindexed(sql, `${alias}.workspace_id`)} = ?`, `${alias}.account_id = ?`],
        params: [workspaceId, one],
      }
    : {
        terms: [`${alias}.workspace_id = ?`, inJsonValues(sql, `${alias}.account_id`)],
        params: [workspaceId, JSON.stringify(accountIds)],
      };
}

/** The smaller of two values of a row (SQLite's scalar `min(a, b)`, PostgreSQL's `LEAST`). */
export function least(sql: Sql, a: string, b: string): string {
  return sql.engine === 'postgres' ? `LEAST(${a}, ${b})` : `min(${a}, ${b})`;
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
    // `json_matrix` (PostgreSQL migration 0007): a constant array to the planner, so it knows how many
    // tuples there are and searches an index per tuple instead of hashing a whole table. It is read a
    // column at a time (`m[:][i:i]`, one pass each) and unnested side by side: cell by cell
    // (`m[row][i]`) every read walks the array from its start, since text elements have no fixed
    // width, and 5,000 tuples took 590 ms instead of 2.
    const cast = { text: 'text', integer: 'bigint', real: 'double precision' } as const;
    const names = kinds.map((_, i) => `c${i + 1}`);
    const columns = kinds.map((kind, i) =>
      kind === 'text' ? `json_row.${names[i]}` : `CAST(json_row.${names[i]} AS ${cast[kind]})`,
    );
    return `SELECT ${columns.join(', ')} FROM (SELECT json_matrix(CAST(? AS json)) AS m) AS json_rows,
      unnest(${kinds.map((_, i) => `json_rows.m[:][${i + 1}:${i + 1}]`).join(', ')}) AS json_row(${names.join(', ')})`;
  }
  return sqliteTuples(kinds);
}

/** SQLite's rows of a JSON array of tuples: one pass, whatever the statement. */
function sqliteTuples(kinds: readonly JsonColumnKind[]): string {
  return `SELECT ${kinds.map((_, i) => `json_extract(value, '$[${i}]')`).join(', ')} FROM json_each(?)`;
}

/**
 * The same rows for a statement that writes them (`INSERT … ${jsonRows(…)} WHERE true ON CONFLICT …`):
 * on PostgreSQL one pass over the JSON array, with nothing folded while planning (`jsonTuples`' matrix
 * is built at plan time, about 60 ms for 5,000 tuples, worth it only where the row count steers a
 * join). Takes the engine, so a statement can be built once at load.
 */
export function jsonRows(engine: Sql['engine'], kinds: readonly JsonColumnKind[]): string {
  if (engine === 'postgres') {
    const cast = { integer: 'bigint', real: 'double precision' } as const;
    const columns = kinds.map((kind, i) =>
      kind === 'text' ? `json_row.r->>${i}` : `CAST(json_row.r->>${i} AS ${cast[kind]})`,
    );
    return `SELECT ${columns.join(', ')} FROM json_array_elements(CAST(? AS json)) AS json_row(r)`;
  }
  return sqliteTuples(kinds);
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

/**
 * `expr` with no index chosen for it on SQLite (its unary plus), so the planner takes a better one
 * (a (campaign_id, completed_at) key rather than a status index). PostgreSQL has no plus for text
 * and plans on its own statistics: the plain column.
 */
export function unindexed(sql: Sql, expr: string): string {
  return sql.engine === 'postgres' ? expr : `+${expr}`;
}

/**
 * A nullable text column with '' for NULL, written as each engine's expression index spells it
 * (SQLite's `IFNULL`, PostgreSQL's `COALESCE`): the same text lets the planner use that index.
 */
export function orEmpty(sql: Sql, expr: string): string {
  return sql.engine === 'postgres' ? `COALESCE(${expr}, '')` : `IFNULL(${expr}, '')`;
}
