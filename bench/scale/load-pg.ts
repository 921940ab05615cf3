// The PostgreSQL loader of the scale bench: the same rows as the SQLite loader (./walk.ts) into a
// migrated database, in bulk as a database administrator loads one: each table's rows of an account
// sent as one binary `COPY … FROM STDIN`, the next account generated while the database takes the last one.
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
import type { PgClient, PgPool } from '../../src/core/store/pg/connect';
import { pgSql } from '../../src/core/store/pg/sql';
import type { AgencyShape } from './agency';
import { DAILY_TABLES, restorePostgres, stripPostgres } from './bulk';
import type { LoadedAgency } from './load-sqlite';
import { TABLES, walkAgency, type ColumnType, type Table, type Value } from './walk';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const CHUNK = 1 << 20;
const TWO_32 = 2 ** 32;

/**
 * One table's rows in COPY's binary format, in chunks of about 1 MB: integers and doubles go as
 * their 8 bytes, so the database parses no number (the text format's `int8in` and `float8in` were
 * most of the backend's time, and the backend, not this process, is what the load waits on).
 */
function* copyBinaryChunks(types: readonly ColumnType[], rows: Value[][]): Generator<Buffer> {
  let buf = Buffer.allocUnsafe(CHUNK);
  SIGNATURE.copy(buf, 0);
  buf.writeInt32BE(0, 11); // flags
  buf.writeInt32BE(0, 15); // header extension length
  let at = 19;
  for (const row of rows) {
    let most = 2;
    for (const value of row)
      most += 4 + (value === null ? 0 : typeof value === 'number' ? 8 : value.length * 3);
    if (at + most + 2 > buf.length) {
      yield buf.subarray(0, at);
      buf = Buffer.allocUnsafe(Math.max(CHUNK, most + 2));
      at = 0;
    }
    buf.writeInt16BE(row.length, at);
    at += 2;
    for (let i = 0; i < row.length; i++) {
      const value = row[i] ?? null;
      if (value === null) {
        at = buf.writeInt32BE(-1, at);
      } else if (typeof value === 'number') {
        at = buf.writeInt32BE(8, at);
        if (types[i] === 'double') at = buf.writeDoubleBE(value, at);
        else if (value >= 0 && Number.isSafeInteger(value)) {
          at = buf.writeUInt32BE(Math.floor(value / TWO_32), at);
          at = buf.writeUInt32BE(value % TWO_32, at);
        } else at = buf.writeBigInt64BE(BigInt(value), at);
      } else if (Buffer.isBuffer(value)) {
        at = buf.writeInt32BE(value.length, at);
        at += value.copy(buf, at);
      } else {
        const length = buf.write(value, at + 4, 'utf8');
        buf.writeInt32BE(length, at);
        at += 4 + length;
      }
    }
  }
  buf.writeInt16BE(-1, at); // trailer
  yield buf.subarray(0, at + 2);
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
  // One client per daily table and one for the parents: two database backends copy at once (the
  // database, not this process, is what a COPY load waits on).
  const dailyClients = new Map<Table, PgClient>();
  try {
    const stripped = await stripPostgres(client, DAILY_TABLES);
    const tables = Object.keys(TABLES) as Table[];
    // (One long transaction per daily table, truncated first and copied with FREEZE so that its rows
    // skip the WAL, made every later copy slower than the last: 28 s per 25 accounts by the 150th.)
    for (const table of DAILY_TABLES as Table[]) dailyClients.set(table, await pool.connect());
    const copyOf = (table: Table) =>
      `COPY ${table} (${Object.keys(TABLES[table]).join(', ')}) FROM STDIN (FORMAT binary)`;
    const copy = (into: PgClient, table: Table, rows: Value[][]) =>
      rows.length > 0
        ? pipeline(
            Readable.from(copyBinaryChunks(Object.values(TABLES[table]), rows)),
            into.query(copyFrom(copyOf(table))),
          )
        : Promise.resolve();
    let pending = new Map<Table, Value[][]>(tables.map((t) => [t, []]));
    let inFlight: Promise<unknown> = Promise.resolve();
    const copyAccount = async (rows: Map<Table, Value[][]>) => {
      // Parents first (the tables are listed in that order), then both daily tables at once.
      for (const table of tables)
        if (!dailyClients.has(table)) await copy(client, table, rows.get(table) ?? []);
      await Promise.all([...dailyClients].map(([table, into]) => copy(into, table, rows.get(table) ?? [])));
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
    for (const dailyClient of dailyClients.values()) dailyClient.release();
    dailyClients.clear();
    const restoring = performance.now();
    await restorePostgres(pool, stripped);
    log(
      `  PostgreSQL: indexes, foreign keys and the account rollup in ${((performance.now() - restoring) / 1000).toFixed(0)} s`,
    );
    const size = await sql.get<{ bytes: number }>(`SELECT pg_database_size(current_database()) AS bytes`);
    return {
      key,
      workspaceId,
      ...walked,
      loadMs: performance.now() - started,
      bytesOnDisk: size?.bytes ?? NaN,
    };
  } finally {
    for (const dailyClient of dailyClients.values()) dailyClient.release();
    client.release();
  }
}
