// The two engines' schemas stay twins: a SQLite migration that lands without its PostgreSQL twin (or
// the reverse) fails here, by table, column, kind, nullability, primary key and index name.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../../../test-support/postgres';
import { columnKind, type ColumnKind } from '../copy/tables';
import { migrations, type Migration } from '../migrations';
import { openStore } from '../open';
import { connectPg } from './connect';
import { migratePg, pgMigrations } from './migrate';

/**
 * Tables only the team server has: its migrations ledger, report files (on disk when solo), and what
 * a solo process keeps in memory (rate-limit windows, events too large for a NOTIFY, job claims and
 * Meta pacing shared by its processes).
 */
const TEAM_ONLY_TABLES = new Set([
  'schema_migrations',
  'report_files',
  'team_rate_limit_requests',
  'team_rate_limit_totals',
  'team_rate_limit_log',
  'team_rate_limit_counts',
  'team_event_payloads',
  'job_leases',
  'ad_account_pacing',
]);

interface ColumnShape {
  kind: ColumnKind;
  notNull: boolean;
  primaryKey: boolean;
}
type Shape = Record<string, Record<string, ColumnShape>>;

function sqliteShape(extra: Migration[] = []): { tables: Shape; indexes: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'adlens-schema-parity-'));
  const store = openStore(dir, { migrations: [...migrations, ...extra] });
  try {
    const tables: Shape = {};
    const names = store.db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
      .pluck()
      .all() as string[];
    for (const name of names) {
      const columns = store.db
        .prepare(`SELECT name, type, "notnull", pk FROM pragma_table_info(?)`)
        .all(name) as {
        name: string;
        type: string;
        notnull: number;
        pk: number;
      }[];
      tables[name] = Object.fromEntries(
        columns.map((c) => [
          c.name,
          { kind: columnKind(c.type), notNull: c.notnull === 1 || c.pk > 0, primaryKey: c.pk > 0 },
        ]),
      );
    }
    const indexes = store.db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name`)
      .pluck()
      .all() as string[];
    return { tables, indexes };
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const PG_KINDS: Record<string, ColumnKind> = {
  bigint: 'integer',
  integer: 'integer',
  'double precision': 'real',
  text: 'text',
  bytea: 'blob',
};

async function pgShape(url: string): Promise<{ tables: Shape; indexes: string[] }> {
  const pool = connectPg(url);
  try {
    await migratePg(pool);
    const { rows: columns } = await pool.query<{
      table_name: string;
      column_name: string;
      data_type: string;
      is_nullable: string;
      primary_key: boolean;
    }>(
      `SELECT c.table_name, c.column_name, c.data_type, c.is_nullable,
              EXISTS (SELECT 1 FROM information_schema.key_column_usage k
                      JOIN information_schema.table_constraints t USING (constraint_schema, constraint_name)
                      WHERE t.constraint_type = 'PRIMARY KEY' AND k.table_name = c.table_name
                        AND k.column_name = c.column_name AND k.table_schema = c.table_schema) AS primary_key
       FROM information_schema.columns c WHERE c.table_schema = current_schema()`,
    );
    const tables: Shape = {};
    for (const c of columns) {
      if (TEAM_ONLY_TABLES.has(c.table_name)) continue;
      const kind = PG_KINDS[c.data_type];
      if (!kind) throw new Error(`${c.table_name}.${c.column_name}: type ${c.data_type} has no SQLite twin`);
      (tables[c.table_name] ??= {})[c.column_name] = {
        kind,
        notNull: c.is_nullable === 'NO',
        primaryKey: c.primary_key,
      };
    }
    // Primary keys and UNIQUE constraints are named by PostgreSQL (SQLite's are automatic): compare the rest.
    const { rows: indexes } = await pool.query<{ indexname: string }>(
      `SELECT indexname FROM pg_indexes i WHERE schemaname = current_schema()
         AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conname = i.indexname)
         AND tablename <> ALL ($1::text[])
       ORDER BY indexname`,
      [[...TEAM_ONLY_TABLES]],
    );
    return { tables, indexes: indexes.map((i) => i.indexname) };
  } finally {
    await pool.end();
  }
}

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
});
afterAll(async () => {
  await server?.stop();
});

/** What differs, one line each: empty when the schemas are twins. */
function differences(
  sqlite: { tables: Shape; indexes: string[] },
  pg: { tables: Shape; indexes: string[] },
): string[] {
  const found: string[] = [];
  for (const table of new Set([...Object.keys(sqlite.tables), ...Object.keys(pg.tables)])) {
    const [a, b] = [sqlite.tables[table], pg.tables[table]];
    if (!a || !b) {
      found.push(`table ${table} only in ${a ? 'SQLite' : 'PostgreSQL'}`);
      continue;
    }
    for (const column of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const [x, y] = [JSON.stringify(a[column]), JSON.stringify(b[column])];
      if (x !== y) found.push(`${table}.${column}: SQLite ${x ?? 'none'}, PostgreSQL ${y ?? 'none'}`);
    }
  }
  for (const index of sqlite.indexes.filter((i) => !pg.indexes.includes(i)))
    found.push(`index ${index} only in SQLite`);
  for (const index of pg.indexes.filter((i) => !sqlite.indexes.includes(i)))
    found.push(`index ${index} only in PostgreSQL`);
  return found;
}

describe('SQLite and PostgreSQL schemas', () => {
  it('have the same tables, columns (kind, NOT NULL, primary key) and indexes', async () => {
    const pg = await pgShape(await server.createDatabase());
    expect(Object.keys(pg.tables).length).toBeGreaterThan(30);
    expect(differences(sqliteShape(), pg)).toEqual([]);

    // A SQLite migration landing without its PostgreSQL twin is caught.
    const ahead = sqliteShape([
      {
        version: migrations.length + 1,
        name: 'untwinned',
        sql: `ALTER TABLE campaigns ADD COLUMN budget_note TEXT; CREATE INDEX campaigns_note ON campaigns(budget_note)`,
      },
    ]);
    expect(differences(ahead, pg)).toEqual([
      'campaigns.budget_note: SQLite {"kind":"text","notNull":false,"primaryKey":false}, PostgreSQL none',
      'index campaigns_note only in SQLite',
    ]);
  });
});

describe('PostgreSQL migrations', () => {
  it('apply once, in order; a second run changes nothing; a database from a newer AdLens is refused', async () => {
    const pool = connectPg(await server.createDatabase());
    try {
      const known = pgMigrations();
      const versions = known.map((m) => m.version);
      expect(versions).toEqual(known.map((_, i) => i + 1));
      const latest = versions.at(-1) ?? 0;
      expect(await migratePg(pool)).toBe(latest);
      expect(await migratePg(pool)).toBe(latest);
      const { rows } = await pool.query<{ version: number }>(
        'SELECT version FROM schema_migrations ORDER BY version',
      );
      expect(rows.map((r) => r.version)).toEqual(known.map((m) => m.version));
      await pool.query(`INSERT INTO schema_migrations (version, name) VALUES ($1, 'from_the_future')`, [
        latest + 1,
      ]);
      await expect(migratePg(pool)).rejects.toThrow(
        /newer version of AdLens \(schema \d+, this build knows \d+\)/,
      );
    } finally {
      await pool.end();
    }
  });
});
