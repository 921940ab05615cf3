// A team server process's core on a real PostgreSQL: the key file is required and must be the
// database's own, several processes starting together migrate and seal once, and what belongs to a
// solo install is refused by name.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../test-support/postgres';
import { SECRET_KEY_FILE_ENV } from './secret-key-file';
import { openTeamCore, type TeamCore } from './team-core';

let server: TestPostgres;
let dir: string;
beforeAll(async () => {
  server = await startTestPostgres();
  dir = mkdtempSync(join(tmpdir(), 'adlens-team-core-'));
}, 120_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function keyFile(name: string): string {
  const path = join(dir, name);
  writeFileSync(path, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  return path;
}

describe('openTeamCore', () => {
  it('opens on the key file, migrates and seals once for processes starting together, and refuses another key', async () => {
    const databaseUrl = await server.createDatabase();
    const env = { [SECRET_KEY_FILE_ENV]: keyFile('team.key') };
    const cores: TeamCore[] = await Promise.all(
      [1, 2, 3].map(() => openTeamCore({ databaseUrl, env, poolSize: 3 })),
    );
    const [first, second] = cores as [TeamCore, TeamCore];
    const checks = await first.sql.all(`SELECT value FROM settings WHERE key = 'token_key_check'`);
    expect(checks).toHaveLength(1);
    // Every process seals and opens with the same key.
    expect(second.tokenCipher.decrypt(first.tokenCipher.encrypt('a token'))).toBe('a token');
    expect(() => first.db).toThrow(/solo install/);
    expect(() => first.dataDir).toThrow(/solo install/);
    expect(new Set(cores.map((c) => c.owner)).size).toBe(3);
    // An event emitted on one process reaches the others.
    const seen = new Promise((resolve) => second.events.on('report.changed', resolve));
    first.events.emit('report.changed', { workspaceId: 'ws_1', reportId: 'rep_1', status: 'completed' });
    await expect(seen).resolves.toEqual({ workspaceId: 'ws_1', reportId: 'rep_1', status: 'completed' });
    await Promise.all(cores.map((core) => core.close()));

    await expect(
      openTeamCore({ databaseUrl, env: { [SECRET_KEY_FILE_ENV]: keyFile('other.key') } }),
    ).rejects.toThrow(/different key from the one this database was sealed with/);
    await expect(openTeamCore({ databaseUrl, env: {} })).rejects.toThrow(/ADLENS_SECRET_KEY_FILE is not set/);
    const reopened = await openTeamCore({ databaseUrl, env });
    await reopened.close();
  }, 60_000);

  it('names the database, never the URL, when it cannot connect', async () => {
    const env = { [SECRET_KEY_FILE_ENV]: keyFile('any.key') };
    const error = await openTeamCore({
      databaseUrl: 'postgres://someone:s3cret@127.0.0.1:1/nowhere',
      env,
    }).catch((e: unknown) => e as Error);
    expect(String((error as Error).message)).toMatch(/PostgreSQL: connecting to the database failed/);
    expect(String((error as Error).message)).not.toContain('s3cret');
  });
});
