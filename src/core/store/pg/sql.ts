// PostgreSQL behind the store boundary (`../sql.ts`): the stores' `?` placeholders become `$1…$n`
// (never inside a quoted string or identifier), values come back as the SQLite store gives them
// (`connect.ts`), and a transaction holds one pooled client from BEGIN to COMMIT.
import { bound, type RunResult, type Sql, type SqlValue } from '../sql';
import { inTransaction, type PgClient, type PgPool } from './connect';

const translated = new Map<string, string>();
const MAX_TRANSLATED = 2000;

/** `?` → `$n`, skipping '…' strings, "…" identifiers and -- comments. */
export function numberedPlaceholders(text: string): string {
  const hit = translated.get(text);
  if (hit !== undefined) return hit;
  let out = '';
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      const stop = end === -1 ? text.length : end + 1;
      out += text.slice(i, stop);
      i = stop - 1;
    } else if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      out += text.slice(i, stop);
      i = stop - 1;
    } else if (c === '?') {
      n += 1;
      out += `$${n}`;
    } else out += c;
  }
  if (translated.size >= MAX_TRANSLATED) translated.delete(translated.keys().next().value as string);
  translated.set(text, out);
  return out;
}

type Queryable = Pick<PgClient, 'query'>;

function over(target: Queryable, depth: number, pool: PgPool | null): Sql {
  const query = (text: string, params: readonly SqlValue[]) =>
    target.query(numberedPlaceholders(text), bound(params));
  return {
    engine: 'postgres',
    all: async <T>(text: string, params: readonly SqlValue[] = []) => (await query(text, params)).rows as T[],
    get: async <T>(text: string, params: readonly SqlValue[] = []) =>
      (await query(text, params)).rows[0] as T | undefined,
    run: async (text: string, params: readonly SqlValue[] = []): Promise<RunResult> => ({
      changes: (await query(text, params)).rowCount ?? 0,
    }),
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

/** The team server's store boundary on a pool. */
export function pgSql(pool: PgPool): Sql {
  return over(pool, 0, pool);
}
