import Database from 'better-sqlite3';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
  statfsSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../errors';
import { forgetCleanClose, recordCleanClose, vouchedCheck } from './clean-close';
import { migrations as allMigrations, type Migration } from './migrations';

export type Db = Database.Database;

/** Marks a database as ours ("ADLN"); a SQLite file with another application_id is refused. */
export const APPLICATION_ID = 0x41444c4e;
export const DATABASE_FILE = 'adlens.sqlite';

export interface Store {
  readonly db: Db;
  readonly dataDir: string;
  readonly path: string;
  close(): void;
}

export interface OpenStoreOptions {
  /** Open without running migrations or writing (used by read-only checks). */
  readonly?: boolean;
  /** For tests of the migration machinery. */
  migrations?: readonly Migration[];
  /**
   * The host process already opened, checked and migrated this store (a worker thread's own
   * connection): the integrity check, seconds on a large file, is not repeated.
   */
  checkedByHost?: boolean;
  /** The room left where the store lives, in bytes (default: the file system's); for tests. */
  freeBytes?: (dataDir: string) => number;
}

const SQLITE_HEADER = 'SQLite format 3\u0000';

/** Refuses a file that is not a SQLite database before SQLite gets a chance to touch it. */
function assertSqliteFile(path: string): void {
  if (!existsSync(path) || statSync(path).size === 0) return;
  const header = Buffer.alloc(16);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, header, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  if (header.toString('latin1') !== SQLITE_HEADER) {
    throw new AppError(
      'store_error',
      `${path} is not a SQLite database (corrupt or not an AdLens file); it was left untouched.`,
    );
  }
}

/** Private to the user who runs AdLens: the directory 0700, the database (and so its WAL and SHM, which
 * SQLite creates with the database's mode) 0600. */
function makePrivate(dataDir: string, path: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (existsSync(file)) chmodSync(file, 0o600);
  }
}

/** Copies kept before migrating at most, this one included: each is the whole store (10 GB at agency scale). */
export const PRE_MIGRATION_COPIES_KEPT = 2;

/**
 * The copies a migration kept, newest first (by the instant in their names: `before-v9-…` sorts after
 * `before-v17-…` as text), for the recovery advice of a damaged database and for their pruning.
 */
function preMigrationCopies(dataDir: string): string[] {
  const prefix = `${DATABASE_FILE}.before-v`;
  const madeAt = (name: string) => Number(name.slice(name.lastIndexOf('-') + 1)) || 0;
  return readdirSync(dataDir)
    .filter((name) => name.startsWith(prefix))
    .sort((a, b) => madeAt(b) - madeAt(a) || b.localeCompare(a));
}

/**
 * A quick structural check (PRAGMA quick_check) before anything is written: a database with damaged
 * pages is refused with a way out, instead of being synced into and damaged further. Skipped when the
 * record of a clean close still vouches for the file (clean-close.ts).
 */
function assertIntact(db: Db, dataDir: string, path: string): void {
  let problems: string[];
  try {
    problems = (db.pragma('quick_check(3)') as Array<{ quick_check: string }>).map((r) => r.quick_check);
  } catch (error) {
    problems = [(error as Error).message];
  }
  if (problems.length === 1 && problems[0] === 'ok') return;
  const found = problems
    .join('; ')
    .replace(/\*\*\*[^*]*\*\*\*/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);
  const copy = preMigrationCopies(dataDir)[0];
  const recovery = copy
    ? `restore the copy made before the last upgrade: stop AdLens, rename ${path} aside and rename ${join(dataDir, copy)} to ${DATABASE_FILE}`
    : `stop AdLens and move ${path} aside: a new database is created on the next start (the demo data comes back; connect real accounts again)`;
  throw new AppError(
    'store_error',
    `${path} is damaged (integrity check: ${found}); it was left untouched. To recover, ${recovery}.`,
  );
}

export function openStore(dataDir: string, options: OpenStoreOptions = {}): Store {
  const migrations = options.migrations ?? allMigrations;
  const path = join(dataDir, DATABASE_FILE);
  assertSqliteFile(path);
  if (!options.readonly) makePrivate(dataDir, path);
  let db: Db;
  /** When the integrity check last ran on this file (null: this connection is not the checking one). */
  let checkedAt: number | null = null;
  try {
    db = new Database(path, {
      readonly: options.readonly ?? false,
      fileMustExist: options.readonly ?? false,
    });
  } catch (error) {
    throw new AppError('store_error', `cannot open ${path}: ${(error as Error).message}`);
  }
  try {
    checkOwnership(db, path, migrations);
    if (!options.checkedByHost) {
      checkedAt = vouchedCheck(path, Date.now());
      if (checkedAt === null) {
        assertIntact(db, dataDir, path);
        checkedAt = Date.now();
      }
    }
    if (!options.readonly) {
      if (!options.checkedByHost) forgetCleanClose(path);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      db.pragma('busy_timeout = 5000');
      migrate(db, dataDir, path, migrations, options.freeBytes ?? freeBytesIn);
    }
  } catch (error) {
    db.close();
    if (error instanceof AppError) throw error;
    throw new AppError('store_error', `cannot use ${path}: ${(error as Error).message}`);
  }
  return {
    db,
    dataDir,
    path,
    close: () => {
      if (!db.open) return;
      db.close();
      if (!options.readonly && checkedAt !== null) recordCleanClose(path, checkedAt);
    },
  };
}

function checkOwnership(db: Db, path: string, migrations: readonly Migration[]): void {
  let applicationId: number;
  let version: number;
  let tableCount: number;
  try {
    applicationId = db.pragma('application_id', { simple: true }) as number;
    version = db.pragma('user_version', { simple: true }) as number;
    tableCount = (db.prepare(`SELECT count(*) AS n FROM sqlite_master`).get() as { n: number }).n;
  } catch (error) {
    throw new AppError(
      'store_error',
      `${path} is corrupt or not a database (${(error as Error).message}); it was left untouched.`,
    );
  }
  if (applicationId !== APPLICATION_ID && (applicationId !== 0 || tableCount > 0)) {
    throw new AppError(
      'store_error',
      `${path} is a SQLite database of another application; it was left untouched.`,
    );
  }
  const latest = migrations.at(-1)?.version ?? 0;
  if (version > latest) {
    throw new AppError(
      'store_error',
      `${path} was written by a newer version of AdLens (schema ${version}, this build knows ${latest}). Update the app; the file was left untouched.`,
    );
  }
}

/** The bytes an unprivileged process may still write in `dir` (Infinity where it cannot be told). */
function freeBytesIn(dir: string): number {
  try {
    const fs = statfsSync(dir);
    return fs.bavail * fs.bsize;
  } catch {
    return Infinity;
  }
}

const sizeOf = (bytes: number) =>
  bytes >= 2 ** 30 ? `${(bytes / 2 ** 30).toFixed(1)} GiB` : `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** Applies pending migrations, each in its own transaction, after a backup of a non-empty database. */
function migrate(
  db: Db,
  dataDir: string,
  path: string,
  migrations: readonly Migration[],
  freeBytes: (dataDir: string) => number,
): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  const pending = migrations.filter((migration) => migration.version > current);
  if (pending.length === 0) return;
  if (current > 0) {
    // Older copies go first, so that an upgrade never needs room for more than the copies kept.
    for (const old of preMigrationCopies(dataDir).slice(PRE_MIGRATION_COPIES_KEPT - 1))
      rmSync(join(dataDir, old), { force: true });
    // A copy before changing a populated schema: a failed migration rolls back, and this is the belt to those braces.
    // It needs about the store's size: refused up front, with the figures, rather than a full disk.
    const needed = statSync(path).size;
    const free = freeBytes(dataDir);
    if (free < needed) {
      throw new AppError(
        'store_error',
        `Upgrading ${path} makes a copy of it first, which needs ${sizeOf(needed)} in ${dataDir}; ${sizeOf(free)} is free. Free some space and start again: the store was not changed.`,
      );
    }
    const copy = `${path}.before-v${pending[0]?.version}-${Date.now()}`;
    try {
      db.exec(`VACUUM INTO '${copy.replaceAll("'", "''")}'`);
    } catch (error) {
      // A copy cut short is no copy: it would only take the room the next attempt needs.
      rmSync(copy, { force: true });
      throw new AppError(
        'store_error',
        `Could not copy ${path} before upgrading it (${(error as Error).message}): the store was not changed.`,
      );
    }
    chmodSync(copy, 0o600);
  }
  for (const migration of pending) {
    const apply = db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`application_id = ${APPLICATION_ID}`);
      db.pragma(`user_version = ${migration.version}`);
    });
    try {
      apply();
    } catch (error) {
      throw new AppError(
        'store_error',
        `migration ${migration.version} (${migration.name}) failed and was rolled back: ${(error as Error).message}`,
      );
    }
  }
}
