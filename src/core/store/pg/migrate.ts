// Numbered PostgreSQL migrations (migrations/NNNN_name.sql), the team server's twin of the SQLite
// ones: the pending ones applied in one transaction (all or none), each recorded in schema_migrations.
// An advisory lock makes several serve processes starting together apply them once; a database
// migrated by a newer AdLens is refused, as SQLite's user_version check does.
import { readdirSync, readFileSync } from 'node:fs';
import { AppError } from '../../errors';
import { inTransaction, type PgPool } from './connect';

export interface PgMigration {
  version: number;
  name: string;
  sql: string;
}

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);
const FILE = /^(\d{4})_([a-z0-9_]+)\.sql$/;
// Any constant shared by every AdLens process: "ADLN" as in SQLite's application_id.
const MIGRATION_LOCK = 0x41444c4e;

export function pgMigrations(): PgMigration[] {
  return readdirSync(MIGRATIONS_DIR)
    .map((file) => FILE.exec(file))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({
      version: Number(match[1]),
      name: match[2] as string,
      sql: readFileSync(new URL(match[0], MIGRATIONS_DIR), 'utf8'),
    }))
    .sort((a, b) => a.version - b.version);
}

/** Applies the pending migrations; returns the schema version the database is now at. */
export async function migratePg(
  pool: PgPool,
  migrations: readonly PgMigration[] = pgMigrations(),
): Promise<number> {
  const latest = migrations.at(-1)?.version ?? 0;
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ version: number | null }>(
      'SELECT max(version) AS version FROM schema_migrations',
    );
    const current = rows[0]?.version ?? 0;
    if (current > latest) {
      throw new AppError(
        'store_error',
        `the database was migrated by a newer version of AdLens (schema ${current}, this build knows ${latest}); it was left untouched.`,
      );
    }
    for (const migration of migrations.filter((m) => m.version > current)) {
      try {
        await client.query(migration.sql);
      } catch (error) {
        throw new AppError(
          'store_error',
          `PostgreSQL migration ${migration.version} (${migration.name}) failed and was rolled back: ${(error as Error).message}`,
        );
      }
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
    }
    return Math.max(current, latest);
  });
}
