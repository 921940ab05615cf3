// Loading the scale bench's daily tables bare, on either engine: their secondary indexes, foreign keys
// (PostgreSQL) and triggers are taken off before the load and put back after from the definitions
// the store's migrations wrote (read from the catalog), then the account rollup their trigger keeps
// is summed once (the one statement here that restates the schema: the rollup's columns). Building an index over 36 M sorted rows and
// validating a foreign key in one join cost a fraction of doing both row by row.
import type { Database } from 'better-sqlite3';
import type { PgClient } from '../../src/core/store/pg/connect';

/** The tables loaded bare: campaign days and ad-set days. */
export const DAILY_TABLES = ['insights_campaign_daily', 'insights_ad_set_daily'];

const METRICS = 'spend_micros, impressions, clicks, conversions, revenue_micros, reach, link_clicks';

/** What their triggers kept: the account rollup, from campaign days (it is empty before the load). */
const ROLLUP = `INSERT INTO insights_account_daily (account_id, date, ${METRICS})
  SELECT account_id, date, ${METRICS.split(', ')
    .map((m) => `sum(${m})`)
    .join(', ')}
  FROM insights_campaign_daily GROUP BY account_id, date`;

interface Definition {
  name: string;
  table: string;
  definition: string;
}

export interface StrippedSqlite {
  /** Index and trigger statements, in the order they are created again. */
  statements: Definition[];
}

export function stripSqlite(db: Database, tables: string[]): StrippedSqlite {
  const statements = db
    .prepare(
      `SELECT name, tbl_name AS "table", sql AS definition FROM sqlite_master
       WHERE type IN ('index', 'trigger') AND sql IS NOT NULL
         AND tbl_name IN (SELECT value FROM json_each(?))
       ORDER BY type = 'trigger', name`,
    )
    .all(JSON.stringify(tables)) as Definition[];
  for (const s of statements)
    db.exec(`DROP ${s.definition.startsWith('CREATE TRIGGER') ? 'TRIGGER' : 'INDEX'} "${s.name}"`);
  return { statements };
}

export function restoreSqlite(db: Database, stripped: StrippedSqlite): void {
  db.transaction(() => {
    for (const s of stripped.statements) db.exec(s.definition);
    db.exec(ROLLUP);
  })();
}

export interface StrippedPostgres {
  tables: string[];
  indexes: Definition[];
  foreignKeys: Definition[];
}

export async function stripPostgres(client: PgClient, tables: string[]): Promise<StrippedPostgres> {
  const { rows: indexes } = await client.query<Definition>(
    `SELECT i.indexname AS name, i.tablename AS "table", i.indexdef AS definition FROM pg_indexes i
     WHERE i.schemaname = current_schema() AND i.tablename = ANY($1)
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)
     ORDER BY i.indexname`,
    [tables],
  );
  const { rows: foreignKeys } = await client.query<Definition>(
    `SELECT conname AS name, conrelid::regclass::text AS "table", pg_get_constraintdef(oid) AS definition
     FROM pg_constraint WHERE contype = 'f' AND conrelid = ANY(CAST($1 AS regclass[])) ORDER BY conname`,
    [tables],
  );
  for (const index of indexes) await client.query(`DROP INDEX "${index.name}"`);
  for (const fk of foreignKeys) await client.query(`ALTER TABLE ${fk.table} DROP CONSTRAINT "${fk.name}"`);
  for (const table of tables) await client.query(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
  return { tables, indexes, foreignKeys };
}

export async function restorePostgres(client: PgClient, stripped: StrippedPostgres): Promise<void> {
  // Index builds sort in memory rather than in temporary files.
  await client.query(`SET maintenance_work_mem = '1GB'`);
  await client.query('BEGIN');
  try {
    for (const index of stripped.indexes) await client.query(index.definition);
    for (const fk of stripped.foreignKeys)
      await client.query(`ALTER TABLE ${fk.table} ADD CONSTRAINT "${fk.name}" ${fk.definition}`);
    for (const table of stripped.tables) await client.query(`ALTER TABLE ${table} ENABLE TRIGGER USER`);
    await client.query(ROLLUP);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.query('RESET maintenance_work_mem');
  }
}
