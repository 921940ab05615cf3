// The PostgreSQL loader of the scale bench: the same rows as the SQLite loader (./walk.ts) into a
// migrated database, one transaction per account, each table's rows of the account sent as one
// `INSERT … SELECT FROM unnest(…)` (one array parameter per column). Indexes and the rollup trigger
// stay in place, as on SQLite: the load time is what a sync pays.
import { systemClock } from '../../src/core/clock';
import { createApiKey } from '../../src/core/identity/api-keys';
import { inTransaction, type PgPool } from '../../src/core/store/pg/connect';
import { pgSql } from '../../src/core/store/pg/sql';
import type { AgencyShape } from './agency';
import type { LoadedAgency } from './load-sqlite';
import { TABLES, walkAgency, type Table, type Value } from './walk';

const ARRAY_TYPE = { text: 'text[]', bigint: 'bigint[]', double: 'double precision[]', bytea: 'bytea[]' };

function insertOf(table: Table): string {
  const columns = Object.entries(TABLES[table]);
  const arrays = columns.map(([, type], i) => `$${i + 1}::${ARRAY_TYPE[type]}`).join(', ');
  return `INSERT INTO ${table} (${columns.map(([name]) => name).join(', ')}) SELECT * FROM unnest(${arrays})`;
}

export async function loadPostgres(
  pool: PgPool,
  shape: AgencyShape,
  log: (line: string) => void,
): Promise<LoadedAgency> {
  const started = performance.now();
  const sql = pgSql(pool);
  const now = new Date().toISOString();
  const workspaceId = 'ws_ScaleAgency0000001';
  const userId = 'user_ScaleOwner00000001';
  await sql.run(
    `INSERT INTO workspaces (id, name, plan, created_at) VALUES (?, 'Scale Agency', 'agency', ?)`,
    [workspaceId, now],
  );
  await sql.run(
    `INSERT INTO users (id, workspace_id, email, role, created_at) VALUES (?, ?, 'owner@scale.test', 'owner', ?)`,
    [userId, workspaceId, now],
  );
  const big = 1e9;
  const { key } = await createApiKey(sql, systemClock, {
    workspaceId,
    mode: 'live',
    name: 'scale bench',
    userId,
    limitOverrides: { reads: big, writes: big, diagnostics: big, reports: big },
  });
  const tables = Object.keys(TABLES) as Table[];
  const statements = new Map(tables.map((t) => [t, insertOf(t)]));
  const pending = new Map<Table, Value[][]>(tables.map((t) => [t, []]));
  const walked = await walkAgency(
    shape,
    { workspaceId, userId, at: now },
    {
      row(table, values) {
        pending.get(table)?.push(values);
      },
      // Parents first: the tables are listed in that order.
      async endAccount() {
        await inTransaction(pool, async (client) => {
          for (const table of tables) {
            const rows = pending.get(table) ?? [];
            if (rows.length === 0) continue;
            const width = Object.keys(TABLES[table]).length;
            const columns = Array.from({ length: width }, (_, i) => rows.map((r) => r[i] ?? null));
            await client.query(statements.get(table) as string, columns);
            pending.set(table, []);
          }
        });
      },
    },
    (done, rows) => {
      if (done % 25 === 0 || done === shape.accounts)
        log(
          `  loaded ${done}/${shape.accounts} accounts into PostgreSQL, ${rows.campaignDays.toLocaleString('en-US')} campaign days (${((performance.now() - started) / 1000).toFixed(0)} s)`,
        );
    },
  );
  const size = await sql.get<{ bytes: number }>(`SELECT pg_database_size(current_database()) AS bytes`);
  return {
    key,
    workspaceId,
    ...walked,
    loadMs: performance.now() - started,
    bytesOnDisk: size?.bytes ?? NaN,
  };
}
