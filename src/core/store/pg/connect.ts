// A pool on the team server's PostgreSQL database, from a postgres:// URL. Values come back as the
// SQLite store gives them: BIGINT (money in micros, counts) as a JS number, refused when it would not
// be exact; DOUBLE PRECISION as a number; TEXT as text; BYTEA as a Buffer.
import pg from 'pg';
import { AppError } from '../../errors';

export type PgPool = pg.Pool;
export type PgClient = pg.PoolClient;

const INT8_OID = 20;
/** `sum()` of a BIGINT column is NUMERIC: an integer sum stays exact, a fraction (`avg()`) is a double. */
const NUMERIC_OID = 1700;

function exactInteger(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value))
    throw new RangeError(`integer ${text} is beyond 2^53: not exact in JavaScript`);
  return value;
}

function numeric(text: string): number {
  return /^-?\d+$/.test(text) ? exactInteger(text) : Number(text);
}

const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID
      ? exactInteger
      : oid === NUMERIC_OID
        ? numeric
        : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * The URL as a WHATWG URL. A server on the same host is often reached through its Unix socket, which
 * libpq and `pg` write with no host and the socket's directory in `host=`
 * (`postgres://user:password@/database?host=/var/run/postgresql`): a URL with credentials needs a
 * host, so that form is read with a placeholder host (`pg` reads the original).
 */
function parseDatabaseUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    try {
      const socket = new URL(url.replace(/^(postgres(?:ql)?:\/\/[^/?#]*@)\//i, '$1localhost/'));
      return socket.searchParams.get('host')?.startsWith('/') ? socket : null;
    } catch {
      return null;
    }
  }
}

/**
 * Checks the URL's shape (never echoes it: it may hold a password) and opens a pool. `plans`: whether
 * its connections plan each call with its values (the default) or keep one plan per statement.
 */
export function connectPg(url: string, options: { max?: number; plans?: 'custom' | 'generic' } = {}): PgPool {
  const parsed = parseDatabaseUrl(url);
  if (!parsed) {
    throw new AppError(
      'invalid_request',
      'the database URL is not a URL (expected postgres://user:password@host:port/database, or ' +
        'postgres://user:password@/database?host=/socket/directory for a Unix socket)',
    );
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new AppError(
      'invalid_request',
      `the database URL must start with postgres:// (got ${parsed.protocol}//)`,
    );
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 4,
    types,
    // Statements are prepared once per connection (`sql.ts`), but planned on every call with the
    // call's values: ID lists fold into constant arrays the planner can size (migration 0007), which
    // a generic plan cannot do (one account's 90-day summary went from 38 to 150 ms on one). The
    // `keptPlan` reads, whose generic plans are keyed, run on a pool of generic plans (`sql.ts`).
    // A kept plan is costed with average values, and a parallel one starts workers on every call:
    // more than a keyed read takes (the resolved issues' page: 0.3 → 13 ms). Those reads run alone.
    options:
      options.plans === 'generic'
        ? '-c plan_cache_mode=force_generic_plan -c max_parallel_workers_per_gather=0'
        : '-c plan_cache_mode=force_custom_plan',
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  return pool;
}

/** The database a URL names, for logs and the ready line: `user@host:port/database`, never the password. */
export function describeDatabase(url: string): string {
  const parsed = parseDatabaseUrl(url);
  if (!parsed) return 'postgres (unreadable URL)';
  const user = parsed.username ? `${decodeURIComponent(parsed.username)}@` : '';
  const port = parsed.port || parsed.searchParams.get('port');
  const socket =
    parsed.searchParams.get('host') ?? (parsed.hostname.startsWith('%2F') ? parsed.hostname : null);
  const where = socket ? `[socket ${decodeURIComponent(socket)}]` : parsed.hostname;
  return `postgres://${user}${where}${port ? `:${port}` : ''}${parsed.pathname}`;
}

/** Runs `work` in one transaction on one client: committed when it resolves, rolled back when it throws. */
export async function inTransaction<T>(
  pool: PgPool,
  work: (client: PgClient) => Promise<T>,
  begin = 'BEGIN',
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** A driver error as one line that names the database, never the URL. */
export function pgFailure(error: unknown, doing: string): AppError {
  if (error instanceof AppError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new AppError('store_error', `PostgreSQL: ${doing} failed: ${message}`);
}
