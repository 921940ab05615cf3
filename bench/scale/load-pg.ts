// The PostgreSQL loader of the scale bench: the same rows as the SQLite loader (./walk.ts) into a
// migrated database, in bulk as a database administrator loads one: each table's rows of an account
// sent as one `COPY … FROM STDIN`, the next account generated while the database takes the last one.
// The two daily tables (54 M of the 55 M rows at full size) are loaded bare and made whole after
// (./bulk.ts): their secondary indexes built once, their foreign keys validated in one pass, and the
// account rollup their trigger keeps summed in one statement. Row by row, every campaign day paid a
// foreign-key check and a trigger; the load ran at 8,000 campaign days a second, 75 minutes at full
// size. What a sync pays per row is the sync bench's figure, not this one's.
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { from as copyFrom } from 'pg-copy-streams';
import { systemClock } from '../../src/core/clock';
import { createApiKey } from '../../src/core/identity/api-keys';
import type { PgPool } from '../../src/core/store/pg/connect';
import { pgSql } from '../../src/core/store/pg/sql';
import type { AgencyShape } from './agency';
import { DAILY_TABLES, restorePostgres, stripPostgres } from './bulk';
import type { LoadedAgency } from './load-sqlite';
import { TABLES, walkAgency, type Table, type Value } from './walk';

/** A value in COPY's text format: `\N` for NULL, bytea as `\\x…`, text with its specials escaped. */
function copyText(value: Value): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  if (Buffer.isBuffer(value)) return `\\\\x${value.toString('hex')}`;
  return /[\\\t\n\r]/.test(value)
    ? value.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c] ?? c)
    : value;
}

/** One table's rows as COPY text, in chunks of about 1 MB. */
function* copyChunks(rows: Value[][]): Generator<string> {
  let chunk = '';
  for (const row of rows) {
    chunk += `${row.map(copyText).join('\t')}\n`;
    if (chunk.length >= 1 << 20) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
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
  const client = await pool.connect();
  try {
    const stripped = await stripPostgres(client, DAILY_TABLES);
    const tables = Object.keys(TABLES) as Table[];
    const copyOf = (table: Table) => `COPY ${table} (${Object.keys(TABLES[table]).join(', ')}) FROM STDIN`;
    let pending = new Map<Table, Value[][]>(tables.map((t) => [t, []]));
    let inFlight: Promise<void> = Promise.resolve();
    // Parents first: the tables are listed in that order, and one client takes them in turn.
    const copyAccount = async (rows: Map<Table, Value[][]>) => {
      for (const table of tables) {
        const tableRows = rows.get(table) ?? [];
        if (tableRows.length > 0)
          await pipeline(Readable.from(copyChunks(tableRows)), client.query(copyFrom(copyOf(table))));
      }
    };
    const walked = await walkAgency(
      shape,
      { workspaceId, userId, at: now },
      {
        row(table, values) {
          pending.get(table)?.push(values);
        },
        async endAccount() {
          await inFlight;
          const rows = pending;
          pending = new Map<Table, Value[][]>(tables.map((t) => [t, []]));
          inFlight = copyAccount(rows);
          // A failed copy is reported by the next await; keep it from being unhandled meanwhile.
          inFlight.catch(() => {});
        },
      },
      (done, rows) => {
        if (done % 25 === 0 || done === shape.accounts)
          log(
            `  loaded ${done}/${shape.accounts} accounts into PostgreSQL, ${rows.campaignDays.toLocaleString('en-US')} campaign days (${((performance.now() - started) / 1000).toFixed(0)} s)`,
          );
      },
    );
    await inFlight;
    const restoring = performance.now();
    await restorePostgres(client, stripped);
    log(
      `  PostgreSQL: indexes, foreign keys and the account rollup in ${((performance.now() - restoring) / 1000).toFixed(0)} s`,
    );
    // Each account's month of sync runs is copied in one statement, so the newest-run trigger rewrites
    // its account row 720 times in one transaction: no version can be pruned meanwhile, and the 500
    // rows end scattered over about 6,700 pages (one row per page read by every list of accounts). A
    // month of hourly syncs, each its own transaction, leaves them where HOT updates and pruning keep
    // them: rewritten once here, as that routine upkeep would have kept them.
    await client.query('VACUUM (FULL, ANALYZE) ad_accounts');
    const size = await sql.get<{ bytes: number }>(`SELECT pg_database_size(current_database()) AS bytes`);
    return {
      key,
      workspaceId,
      ...walked,
      loadMs: performance.now() - started,
      bytesOnDisk: size?.bytes ?? NaN,
    };
  } finally {
    client.release();
  }
}
