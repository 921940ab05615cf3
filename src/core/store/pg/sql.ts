// PostgreSQL behind the store boundary (`../sql.ts`): the stores' SQL is translated once per text
// (`?` → `$1…$n`, camelCase aliases quoted), values come back as the SQLite store gives them
// (`connect.ts`), and a transaction holds one pooled client from BEGIN to COMMIT.
import { createHash } from 'node:crypto';
import { bound, isKeptPlan, type RunResult, type Sql, type SqlValue } from '../sql';
import { inTransaction, type PgClient, type PgPool } from './connect';
import { rowFactory } from '../row-objects';

const translated = new Map<string, string>();
/** Each store text's prepared statement: its PostgreSQL text and name, found in one look-up. */
const preparedStatements = new Map<string, { text: string; name: string }>();
const MAX_TRANSLATED = 2000;

/** Unquoted camelCase aliases (`AS accountId`): PostgreSQL would fold them to lower case. */
const CAMEL_ALIAS = /\bAS\s+([a-z][a-z0-9_]*[A-Z][A-Za-z0-9_]*)/g;

/**
 * The stores' SQL for PostgreSQL: `?` → `$n`, and camelCase aliases quoted so rows keep the names
 * SQLite gives them; '…' strings, "…" identifiers and -- comments are left as they are.
 */
export function numberedPlaceholders(text: string): string {
  const hit = translated.get(text);
  if (hit !== undefined) return hit;
  let out = '';
  let plain = '';
  let n = 0;
  const flush = () => {
    out += plain.replace(CAMEL_ALIAS, 'AS "$1"');
    plain = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "'" || c === '"' || (c === '-' && text[i + 1] === '-')) {
      const close = c === '-' ? '\n' : c;
      const end = text.indexOf(close, i + 1);
      const stop = end === -1 ? text.length : c === '-' ? end : end + 1;
      flush();
      out += text.slice(i, stop);
      i = stop - 1;
    } else if (c === '?') {
      n += 1;
      plain += `$${n}`;
    } else plain += c;
  }
  flush();
  if (translated.size >= MAX_TRANSLATED) translated.delete(translated.keys().next().value as string);
  translated.set(text, out);
  return out;
}

/**
 * Each statement text runs as a named prepared statement: a connection parses it once. It is planned
 * on every call, with that call's values (`plan_cache_mode`, `connect.ts`), unless it is marked
 * `keptPlan` and runs outside a transaction: then on a connection that keeps one plan for it.
 */
function prepared(text: string, values: unknown[], rowMode?: 'array') {
  let statement = preparedStatements.get(text);
  if (statement === undefined) {
    const pgText = numberedPlaceholders(text);
    statement = { text: pgText, name: `s_${createHash('sha1').update(pgText).digest('base64url')}` };
    if (preparedStatements.size >= MAX_TRANSLATED)
      preparedStatements.delete(preparedStatements.keys().next().value as string);
    preparedStatements.set(text, statement);
  }
  return { ...statement, values, ...(rowMode ? { rowMode } : {}) };
}

/** The PostgreSQL texts of the `keptPlan` statements this process has prepared (the scale bench explains them). */
export function keptStatements(): string[] {
  return [...preparedStatements].filter(([text]) => isKeptPlan(text)).map(([, statement]) => statement.text);
}

type Queryable = Pick<PgClient, 'query'>;

/** A result read as arrays, as the objects pg would have made (`row-objects.ts`: made faster). */
function asObjects(result: { rows: unknown[][]; fields: ReadonlyArray<{ name: string }> }): unknown[] {
  const names = result.fields.map((f) => f.name);
  const make = rowFactory(names);
  if (make) return result.rows.map(make);
  return result.rows.map((row) => {
    const object: Record<string, unknown> = {};
    names.forEach((name, i) =>
      Object.defineProperty(object, name, {
        value: row[i],
        enumerable: true,
        writable: true,
        configurable: true,
      }),
    );
    return object;
  });
}

function over(target: Queryable, depth: number, pool: PgPool | null, kept: PgPool | null = null): Sql {
  const on = (text: string): Queryable => (kept !== null && isKeptPlan(text) ? kept : target);
  const query = (text: string, params: readonly SqlValue[]) => on(text).query(prepared(text, bound(params)));
  const arrays = (text: string, params: readonly SqlValue[]) =>
    on(text).query(prepared(text, bound(params), 'array'));
  return {
    engine: 'postgres',
    all: async <T>(text: string, params: readonly SqlValue[] = []) =>
      asObjects(await arrays(text, params)) as T[],
    get: async <T>(text: string, params: readonly SqlValue[] = []) =>
      asObjects(await arrays(text, params))[0] as T | undefined,
    run: async (text: string, params: readonly SqlValue[] = []): Promise<RunResult> => ({
      changes: (await query(text, params)).rowCount ?? 0,
    }),
    values: async <T extends unknown[]>(text: string, params: readonly SqlValue[] = []) =>
      (await arrays(text, params)).rows as T[],
    lock: async (key: string) => {
      if (pool) throw new Error('lock() holds until the end of a transaction: call it on the transaction');
      await target.query('SELECT pg_advisory_xact_lock(hashtext($1))', [key]);
    },
    transaction: async <T>(work: (tx: Sql) => Promise<T>): Promise<T> => {
      if (pool) return inTransaction(pool, (client) => work(over(client, 1, null)));
      const savepoint = `sp${depth}`;
      await target.query(`SAVEPOINT ${savepoint}`);
      try {
        const result = await work(over(target, depth + 1, null));
        await target.query(`RELEASE SAVEPOINT ${savepoint}`);
        return result;
      } catch (error) {
        await target.query(`ROLLBACK TO SAVEPOINT ${savepoint}`);
        throw error;
      }
    },
  };
}

/**
 * The team server's store boundary on a pool; `keptPlans`, a pool whose connections prepare generic
 * plans (`connectPg`'s `plans`), runs the `keptPlan` statements made outside a transaction.
 */
export function pgSql(pool: PgPool, keptPlans: PgPool | null = null): Sql {
  return over(pool, 0, pool, keptPlans);
}
