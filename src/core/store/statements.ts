// The prepared-statement cache of a SQLite connection, used by the SQLite side of the store boundary
// (`sql.ts`) and by the stores still on `core.db`.
import type { Statement } from 'better-sqlite3';
import type { Db } from './open';

const MAX_STATEMENTS_PER_DB = 500;
const statementCaches = new WeakMap<Db, Map<string, Statement>>();

/**
 * A prepared statement cached per connection: the API's per-request lookups (key, account, campaign)
 * run thousands of times a second, and SQLite's prepare step would dominate them.
 */
export function stmt(db: Db, sql: string): Statement {
  return cached(statementCaches, db, sql, () => db.prepare(sql));
}

const rawStatementCaches = new WeakMap<Db, Map<string, Statement>>();

/** The same, returning rows as arrays (`raw` mode), cached apart so the object-row one is untouched. */
export function rawStmt(db: Db, sql: string): Statement {
  return cached(rawStatementCaches, db, sql, () => db.prepare(sql).raw(true));
}

function cached(
  caches: WeakMap<Db, Map<string, Statement>>,
  db: Db,
  sql: string,
  prepare: () => Statement,
): Statement {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    statement = prepare();
    if (cache.size >= MAX_STATEMENTS_PER_DB) cache.delete(cache.keys().next().value as string);
    cache.set(sql, statement);
  }
  return statement;
}
