// The SQLite loader of the scale bench: the agency written straight into a real store file, opened
// (and migrated) the way the host opens it, in one transaction per account with prepared statements;
// the rows are the engine-neutral walk's (./walk.ts). The two daily tables are loaded bare and made
// whole after (./bulk.ts): their indexes built once and the account rollup summed once, where row by
// row every campaign day paid a covering-index insert and a trigger's upsert. What a sync pays per
// row is the sync bench's figure, not this one's.
import { sqliteSql } from '../../src/core/store/sql';
import { statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '../../src/core/clock';
import { createApiKey } from '../../src/core/identity/api-keys';
import { createUser } from '../../src/core/identity/users';
import { createWorkspace } from '../../src/core/identity/workspaces';
import { openStore } from '../../src/core/store/open';
import type { AgencyShape } from './agency';
import { DAILY_TABLES, restoreSqlite, stripSqlite } from './bulk';
import { TABLES, walkAgency, type Table, type WalkedAgency } from './walk';

export interface LoadedAgency extends WalkedAgency {
  key: string;
  workspaceId: string;
  loadMs: number;
  bytesOnDisk: number;
  /**
   * SQLite: the integrity check a first open runs (`PRAGMA quick_check`, every page), timed just after
   * the load, while much of the file is still in the page cache (a cold file takes longer).
   */
  integrityCheckMs?: number;
}

function bytesIn(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

export async function loadSqlite(
  dataDir: string,
  shape: AgencyShape,
  log: (line: string) => void,
): Promise<LoadedAgency> {
  const started = performance.now();
  const store = openStore(dataDir);
  const db = store.db;
  // A bigger page cache for the load only (the host keeps its own setting).
  db.pragma('cache_size = -524288');
  const now = new Date();
  const sql = sqliteSql(db);
  const workspace = await createWorkspace(sql, { name: 'Scale Agency', plan: 'agency' }, now);
  const owner = await createUser(
    sql,
    { workspaceId: workspace.id, email: 'owner@scale.test', role: 'owner' },
    now,
  );
  const big = 1e9;
  const { key } = await createApiKey(sqliteSql(db), systemClock, {
    workspaceId: workspace.id,
    mode: 'live',
    name: 'scale bench',
    userId: owner.id,
    limitOverrides: { reads: big, writes: big, diagnostics: big, reports: big },
  });
  const stripped = stripSqlite(db, DAILY_TABLES);
  const inserts = new Map(
    (Object.keys(TABLES) as Table[]).map((table) => {
      const columns = Object.keys(TABLES[table]);
      return [
        table,
        db.prepare(
          `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
        ),
      ] as const;
    }),
  );
  let open = false;
  // One transaction per account, prepared statements.
  const walked = await walkAgency(
    shape,
    { workspaceId: workspace.id, userId: owner.id, at: now.toISOString() },
    {
      row(table, values) {
        if (!open) {
          db.exec('BEGIN');
          open = true;
        }
        inserts.get(table)?.run(...values);
      },
      endAccount() {
        if (open) db.exec('COMMIT');
        open = false;
      },
    },
    (done, rows) => {
      if (done % 25 === 0 || done === shape.accounts)
        log(
          `  loaded ${done}/${shape.accounts} accounts, ${rows.campaignDays.toLocaleString('en-US')} campaign days (${((performance.now() - started) / 1000).toFixed(0)} s)`,
        );
    },
  );
  const restoring = performance.now();
  restoreSqlite(db, stripped);
  log(`  SQLite: indexes and the account rollup in ${((performance.now() - restoring) / 1000).toFixed(0)} s`);
  // No ANALYZE: the product never runs it, so the planner sees what a user's file gives it.
  db.pragma('wal_checkpoint(TRUNCATE)');
  const loadMs = performance.now() - started;
  // What a first open of this file checks. The store then closes cleanly, as the app would after its
  // own writes, so its record vouches for the file and the server's start skips the check
  // (src/core/store/clean-close.ts). Here it runs beside the longer PostgreSQL load.
  const checking = performance.now();
  const check = db.pragma('quick_check(1)', { simple: true });
  if (check !== 'ok') throw new Error(`the loaded store fails its integrity check: ${String(check)}`);
  const integrityCheckMs = performance.now() - checking;
  log(`  SQLite: integrity check (quick_check) in ${(integrityCheckMs / 1000).toFixed(1)} s`);
  store.close();
  return {
    key,
    workspaceId: workspace.id,
    ...walked,
    loadMs,
    bytesOnDisk: bytesIn(dataDir),
    integrityCheckMs,
  };
}
