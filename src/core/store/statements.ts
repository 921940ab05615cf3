// The prepared-statement cache of a SQLite connection, used by the SQLite side of the store boundary
// (`sql.ts`) and by the stores still on `core.db`.
import type { Statement } from 'better-sqlite3';
import type { Db } from './open';
import { rowFactory } from './row-objects';

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

function cached<S>(caches: WeakMap<Db, Map<string, S>>, db: Db, sql: string, prepare: () => S): S {
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

/** Reads rows as objects, built faster than better-sqlite3 builds them (`row-objects.ts`). */
export interface RowReader {
  all(params: unknown[]): unknown[];
  get(params: unknown[]): unknown;
}

const readerCaches = new WeakMap<Db, Map<string, RowReader>>();

/**
 * Rows as objects of the statement's columns, read as arrays (the connection's `raw` statement, which
 * `Sql.values` shares) and made by the statement's row factory. Statements that return no data, and
 * columns named `__proto__`, take the object-mode statement (its errors and its behaviour stay as
 * they were).
 */
export function rowReader(db: Db, sql: string): RowReader {
  return cached(readerCaches, db, sql, () => {
    const objects = stmt(db, sql);
    const make = objects.reader ? rowFactory(objects.columns().map((c) => c.name)) : null;
    if (!make) return { all: (params) => objects.all(...params), get: (params) => objects.get(...params) };
    const statement = rawStmt(db, sql);
    return {
      all: (params) => (statement.all(...params) as unknown[][]).map(make),
      get: (params) => {
        const row = statement.get(...params) as unknown[] | undefined;
        return row === undefined ? undefined : make(row);
      },
    };
  });
}
