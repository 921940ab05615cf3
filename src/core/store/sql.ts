// The asynchronous store boundary (DESIGN §2, "Solo and team"): a domain store speaks SQL through
// `Sql` and never knows the engine. The composition root hands it SQLite (embedded, solo) or
// PostgreSQL (the team server). Statements use `?` placeholders and the SQL the two engines share
// (`ON CONFLICT … DO UPDATE/NOTHING`, `excluded.`, `RETURNING`); where they differ a store branches on
// `sql.engine`, in the store, once.
import type { Db } from './open';
import { rawStmt, rowReader, stmt } from './statements';

/** Booleans are stored as 0/1 on both engines (the schemas are twins). */
export type SqlValue = string | number | bigint | boolean | null | Buffer;

export interface RunResult {
  /** Rows inserted, updated or deleted. */
  changes: number;
}

export interface Sql {
  readonly engine: 'sqlite' | 'postgres';
  all<T>(text: string, params?: readonly SqlValue[]): Promise<T[]>;
  get<T>(text: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  run(text: string, params?: readonly SqlValue[]): Promise<RunResult>;
  /**
   * The rows as arrays of their column values, in select order: bulk reads (a diagnosis's daily rows)
   * skip building an object per row, on both engines.
   */
  values<T extends unknown[]>(text: string, params?: readonly SqlValue[]): Promise<T[]>;
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws. Inside,
   * use the `tx` it receives (a nested call is a savepoint); other callers never see half of it.
   */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
  /**
   * Inside a transaction: waits until no other transaction holds `key`, and holds it to the end (a
   * check-then-write on a team server's several processes). SQLite's transactions already exclude
   * each other.
   */
  lock(key: string): Promise<void>;
}

/** The mark `keptPlan` puts at the end of a statement (a comment: both engines ignore it). */
const KEPT_PLAN_MARK = ' /* kept plan */';

/**
 * A hot read whose plan PostgreSQL keeps per connection instead of making it again on every call
 * (`pgSql`: such statements run on connections that prepare generic plans). Planning was most of the
 * database's CPU on the lists at agency scale. Mark only a statement whose generic plan is keyed at
 * scale whatever its values: a lookup by key, or an ID list read per ID. The scale bench explains
 * every marked statement at full size and names any that reads a large table whole.
 */
export function keptPlan(text: string): string {
  return text.endsWith(KEPT_PLAN_MARK) ? text : `${text}${KEPT_PLAN_MARK}`;
}

export function isKeptPlan(text: string): boolean {
  return text.endsWith(KEPT_PLAN_MARK);
}

/** A unique or primary-key constraint refused the write (either engine). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export const bound = (params: readonly SqlValue[]): unknown[] =>
  params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p));

/**
 * SQLite behind the boundary. better-sqlite3 is synchronous on one connection, so a transaction that
 * awaits would let another request's statements fall inside it: while one is open, every statement
 * from outside it waits for it to end (its own `tx` goes straight through). Code still on `core.db`
 * bypasses that queue, so until every store is behind the boundary a transaction here awaits nothing
 * but its own statements (no I/O, no timers) and stays short.
 */
export function sqliteSql(db: Db): Sql {
  // One adapter per connection: its transaction queue must be the only one on that connection.
  let adapter = adapters.get(db);
  if (!adapter) {
    adapter = sqliteAdapter(db);
    adapters.set(db, adapter);
  }
  return adapter;
}

const adapters = new WeakMap<Db, Sql>();

function sqliteAdapter(db: Db): Sql {
  const direct = (depth: number): Sql => {
    const self: Sql = {
      engine: 'sqlite',
      all: async <T>(text: string, params: readonly SqlValue[] = []) =>
        rowReader(db, text).all(bound(params)) as T[],
      get: async <T>(text: string, params: readonly SqlValue[] = []) =>
        rowReader(db, text).get(bound(params)) as T | undefined,
      run: async (text: string, params: readonly SqlValue[] = []) => ({
        changes: stmt(db, text).run(...bound(params)).changes,
      }),
      values: async <T extends unknown[]>(text: string, params: readonly SqlValue[] = []) =>
        rawStmt(db, text).all(...bound(params)) as T[],
      lock: async () => {},
      transaction: async <T>(work: (tx: Sql) => Promise<T>): Promise<T> => {
        const savepoint = `sp${depth + 1}`;
        db.exec(`SAVEPOINT ${savepoint}`);
        try {
          const result = await work(direct(depth + 1));
          db.exec(`RELEASE ${savepoint}`);
          return result;
        } catch (error) {
          db.exec(`ROLLBACK TO ${savepoint}`);
          db.exec(`RELEASE ${savepoint}`);
          throw error;
        }
      },
    };
    return self;
  };
  const inside = direct(0);
  // Transactions queue behind each other; statements from outside wait while one is open.
  let queue: Promise<void> = Promise.resolve();
  let open: Promise<void> | null = null;
  const outside = async (): Promise<void> => {
    while (open) await open;
  };

  return {
    engine: 'sqlite',
    all: async (text, params) => {
      if (open) await outside();
      return inside.all(text, params);
    },
    get: async (text, params) => {
      if (open) await outside();
      return inside.get(text, params);
    },
    run: async (text, params) => {
      if (open) await outside();
      return inside.run(text, params);
    },
    values: async (text, params) => {
      if (open) await outside();
      return inside.values(text, params);
    },
    lock: async () => {},
    transaction: async <T>(work: (tx: Sql) => Promise<T>): Promise<T> => {
      const previous = queue;
      let end!: () => void;
      const mine = new Promise<void>((resolve) => (end = resolve));
      queue = previous.then(() => mine);
      await previous;
      open = mine;
      try {
        db.exec('BEGIN IMMEDIATE');
        try {
          const result = await work(direct(0));
          db.exec('COMMIT');
          return result;
        } catch (error) {
          if (db.inTransaction) db.exec('ROLLBACK');
          throw error;
        }
      } finally {
        open = null;
        end();
      }
    },
  };
}
