import { mkdtempSync, readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrations, type Migration } from './migrations';
import { APPLICATION_ID, DATABASE_FILE, openStore, PRE_MIGRATION_COPIES_KEPT } from './open';

const tempDir = () => mkdtempSync(join(tmpdir(), 'adlens-store-'));

describe('openStore', () => {
  it('creates a WAL database at the latest schema version, marked as ours', () => {
    const store = openStore(tempDir());
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('user_version', { simple: true })).toBe(migrations.at(-1)?.version);
    expect(store.db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
    store.close();
  });

  it('replays every migration on an empty file and reopens without change', () => {
    const dir = tempDir();
    openStore(dir).close();
    const store = openStore(dir);
    const tables = store.db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
      .pluck()
      .all();
    expect(tables).toEqual(
      expect.arrayContaining(['campaigns', 'insights_ad_daily', 'sync_runs', 'api_keys', 'reports']),
    );
    expect(readdirSync(dir).filter((f) => f.includes('.before-v'))).toEqual([]);
    store.close();
  });

  it('refuses a database written by a newer version and leaves it untouched', () => {
    const dir = tempDir();
    openStore(dir).close();
    const raw = new Database(join(dir, DATABASE_FILE));
    raw.pragma('user_version = 999');
    raw.close();
    const before = readFileSync(join(dir, DATABASE_FILE));
    expect(() => openStore(dir)).toThrow(/newer version/);
    expect(readFileSync(join(dir, DATABASE_FILE))).toEqual(before);
  });

  it('refuses a file that is not SQLite without touching it', () => {
    const dir = tempDir();
    writeFileSync(join(dir, DATABASE_FILE), 'this is not a database, it is a shopping list');
    expect(() => openStore(dir)).toThrow(/not a SQLite database/);
    expect(readFileSync(join(dir, DATABASE_FILE), 'utf8')).toBe(
      'this is not a database, it is a shopping list',
    );
  });

  it('refuses a SQLite database of another application', () => {
    const dir = tempDir();
    const raw = new Database(join(dir, DATABASE_FILE));
    raw.exec('CREATE TABLE recipes (id INTEGER PRIMARY KEY, title TEXT)');
    raw.prepare('INSERT INTO recipes (title) VALUES (?)').run('soup');
    raw.close();
    expect(() => openStore(dir)).toThrow(/another application/);
    const check = new Database(join(dir, DATABASE_FILE));
    expect(check.prepare('SELECT title FROM recipes').pluck().all()).toEqual(['soup']);
    check.close();
  });

  it('rolls back a failed migration, keeps the data and a backup copy', () => {
    const dir = tempDir();
    const store = openStore(dir);
    store.db
      .prepare(
        `INSERT INTO workspaces (id, name, plan, created_at) VALUES ('ws_a', 'Agency', 'agency', 'now')`,
      )
      .run();
    store.close();
    const latest = migrations.at(-1)?.version ?? 0;
    const broken = [
      ...migrations,
      {
        version: latest + 1,
        name: 'half-broken',
        sql: `ALTER TABLE workspaces ADD COLUMN color TEXT; SELECT * FROM no_such_table;`,
      },
    ];
    expect(() => openStore(dir, { migrations: broken })).toThrow(
      /\(half-broken\) failed and was rolled back/,
    );
    const again = openStore(dir);
    expect(again.db.pragma('user_version', { simple: true })).toBe(latest);
    const columns = again.db.prepare(`SELECT name FROM pragma_table_info('workspaces')`).pluck().all();
    expect(columns).not.toContain('color');
    expect(again.db.prepare('SELECT name FROM workspaces').pluck().all()).toEqual(['Agency']);
    expect(readdirSync(dir).some((f) => f.includes(`.before-v${latest + 1}`))).toBe(true);
    again.close();
  });

  it('refuses an upgrade, untouched, where there is no room for its copy', () => {
    const dir = tempDir();
    openStore(dir).close();
    const latest = migrations.at(-1)?.version ?? 0;
    const upgrade: Migration[] = [
      ...migrations,
      { version: latest + 1, name: 'roomy', sql: `CREATE TABLE roomy (id INTEGER)` },
    ];
    expect(() => openStore(dir, { migrations: upgrade, freeBytes: () => 1024 })).toThrow(
      /makes a copy of it first, which needs [\d.]+ MiB in .*; 0\.0 MiB is free\. Free some space/,
    );
    expect(readdirSync(dir).filter((f) => f.includes('.before-v'))).toEqual([]);
    const same = openStore(dir);
    expect(same.db.pragma('user_version', { simple: true })).toBe(latest);
    same.close();
    // With room (the file system's own figure), the same upgrade goes through.
    const upgraded = openStore(dir, { migrations: upgrade });
    expect(upgraded.db.pragma('user_version', { simple: true })).toBe(latest + 1);
    upgraded.close();
  });

  it('keeps the copies of the last two upgrades only, newest by when they were made', () => {
    const dir = tempDir();
    openStore(dir).close();
    const latest = migrations.at(-1)?.version ?? 0;
    // Copies of three earlier upgrades: by name v9 would sort after v17, by instant it is the oldest.
    const made = (version: number, at: number) => `${DATABASE_FILE}.before-v${version}-${at}`;
    for (const [version, at] of [
      [9, 1_000],
      [17, 2_000],
      [18, 3_000],
    ] as const)
      writeFileSync(join(dir, made(version, at)), 'an old copy');
    const upgrades = (next: number): Migration[] => [
      ...migrations,
      { version: next, name: `upgrade_${next}`, sql: `CREATE TABLE upgrade_${next} (id INTEGER)` },
    ];
    openStore(dir, { migrations: upgrades(latest + 1) }).close();
    const copies = readdirSync(dir).filter((f) => f.includes('.before-v'));
    expect(copies).toHaveLength(PRE_MIGRATION_COPIES_KEPT);
    expect(copies).toContain(made(18, 3_000));
    expect(copies.some((f) => f.startsWith(`${DATABASE_FILE}.before-v${latest + 1}-`))).toBe(true);
    // Opening without an upgrade makes no copy and deletes none.
    openStore(dir, { migrations: upgrades(latest + 1) }).close();
    expect(readdirSync(dir).filter((f) => f.includes('.before-v'))).toEqual(copies);
  });
});

describe('migrations', () => {
  it('are numbered 1, 2, 3… without gaps, so none is skipped', () => {
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, i) => i + 1));
  });
});
