// Kept plans (`keptPlan`): a marked statement made outside a transaction runs on the connections that
// keep one (generic) plan per statement, without parallel workers; an unmarked one, and any statement
// inside a transaction, is planned on every call with its values. Read from PostgreSQL's own record
// of each connection's prepared statements.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../../../test-support/postgres';
import { isKeptPlan, keptPlan } from '../sql';
import { connectPg, type PgPool } from './connect';
import { keptStatements, pgSql } from './sql';

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

/** Each prepared statement of the pool's one connection that contains `fragment`: its calls by kind of plan. */
async function plansOf(pool: PgPool, fragment: string) {
  const { rows } = await pool.query<{ generic_plans: string; custom_plans: string }>(
    `SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE strpos(statement, $1) > 0`,
    [fragment],
  );
  return rows.map((r) => ({ generic: Number(r.generic_plans), custom: Number(r.custom_plans) }));
}

describe('kept plans on PostgreSQL', () => {
  it('runs marked reads with one generic plan on their own connections; the rest planned per call', async () => {
    const url = await server.createDatabase();
    const pool = connectPg(url, { max: 1 });
    const kept = connectPg(url, { max: 1, plans: 'generic' });
    try {
      const sql = pgSql(pool, kept);
      await sql.run(`CREATE TABLE sample (id TEXT PRIMARY KEY, n INTEGER NOT NULL)`);
      await sql.run(`INSERT INTO sample (id, n) VALUES ('a', 1), ('b', 2), ('c', 3)`);
      const byId = keptPlan(`SELECT n FROM sample WHERE id = ?`);
      expect(isKeptPlan(byId)).toBe(true);
      expect(keptPlan(byId)).toBe(byId);
      for (const [id, n] of [
        ['a', 1],
        ['b', 2],
        ['c', 3],
      ] as const)
        expect(await sql.get<{ n: number }>(byId, [id])).toEqual({ n });
      const atLeast = `SELECT count(*) AS k FROM sample WHERE n >= ?`;
      expect(await sql.get<{ k: number }>(atLeast, [2])).toEqual({ k: 2 });
      expect(await sql.get<{ k: number }>(atLeast, [3])).toEqual({ k: 1 });
      // Inside a transaction everything runs on the transaction's connection, planned per call; a
      // write there is seen by the kept connection once committed.
      const byN = keptPlan(`SELECT id FROM sample WHERE n = ?`);
      await sql.transaction(async (tx) => {
        await tx.run(`UPDATE sample SET n = 20 WHERE id = 'b'`);
        expect(await tx.get(byN, [20])).toEqual({ id: 'b' });
      });
      expect(await sql.get(byId, ['b'])).toEqual({ n: 20 });

      expect(await plansOf(kept, 'FROM sample WHERE id = $1')).toEqual([{ generic: 4, custom: 0 }]);
      expect(await plansOf(kept, 'count(*)')).toEqual([]);
      expect(await plansOf(kept, 'FROM sample WHERE n = $1')).toEqual([]);
      expect(await plansOf(pool, 'count(*)')).toEqual([{ generic: 0, custom: 2 }]);
      expect(await plansOf(pool, 'FROM sample WHERE n = $1')).toEqual([{ generic: 0, custom: 1 }]);
      expect(await plansOf(pool, 'FROM sample WHERE id = $1')).toEqual([]);
      // No parallel workers on the kept connections: a kept plan is costed with average values.
      expect((await kept.query(`SHOW max_parallel_workers_per_gather`)).rows[0]).toEqual({
        max_parallel_workers_per_gather: '0',
      });
      expect(keptStatements()).toContain('SELECT n FROM sample WHERE id = $1 /* kept plan */');
      expect(keptStatements().some((text) => text.includes('count(*)'))).toBe(false);
    } finally {
      await Promise.all([pool.end(), kept.end()]);
    }
  });
});
