// Files at rest (issue 12): a database with damaged pages is refused untouched with a way out, a
// missing or replaced token key is detected and its connections marked for re-authentication, and
// every data file is private to the user (directory 0700, files 0600).
import { createHash } from 'node:crypto';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { createCore } from '../core';
import { startDemoPlatform, type DemoPlatform } from '../demo-platform/index';
import { createUser } from '../identity/users';
import { createWorkspace } from '../identity/workspaces';
import { KEY_CHANGED_REASON } from '../sealing-check';
import { KEY_FILE } from '../secrets';
import { runCommand } from '../../cli/framework';
import workspaceCommands from '../../cli/commands/workspace';
import { DATABASE_FILE } from './open';

let dir: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'adlens-files-'));
});
afterEach(async () => rmSync(dir, { recursive: true, force: true }));

const hashDir = (path: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(path)
      .sort()
      .map((name) => [
        name,
        createHash('sha256')
          .update(readFileSync(join(path, name)))
          .digest('hex'),
      ]),
  );

async function populated(dataDir: string): Promise<void> {
  const core = createCore({ dataDir });
  const ws = await createWorkspace(core.sql, { name: 'Agency', plan: 'agency' });
  const insert = core.db.prepare(`INSERT INTO settings (key, value) VALUES (?, ?)`);
  core.db.transaction(() => {
    for (let i = 0; i < 3000; i += 1) insert.run(`filler:${ws.id}:${i}`, 'x'.repeat(40));
  })();
  core.close();
}

describe('a database with damaged pages', () => {
  it('is refused with a clear message naming a way out, by the core and the CLI, and left untouched', async () => {
    const dataDir = join(dir, 'data');
    await populated(dataDir);
    const fd = openSync(join(dataDir, DATABASE_FILE), 'r+');
    writeSync(fd, Buffer.alloc(12288, 0xff), 0, 12288, 12288);
    closeSync(fd);
    const before = hashDir(dataDir);
    expect(() => createCore({ dataDir })).toThrow(
      /is damaged .*left untouched\. To recover, .*move .* aside/,
    );
    let stderr = '';
    const code = await runCommand('workspace', workspaceCommands, ['list', '--data-dir', dataDir], {
      stdout: () => {},
      stderr: (t) => (stderr += t),
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/is damaged/);
    expect(stderr).not.toMatch(/disk image is malformed$/m);
    expect(hashDir(dataDir)).toEqual(before);
  });
});

describe('the token key', () => {
  let platform: DemoPlatform;
  beforeEach(async () => {
    platform = await startDemoPlatform({ port: 0, seed: 2, today: '2026-03-15' });
  });
  afterEach(async () => {
    await platform.close();
  });

  async function connectedStore(dataDir: string): Promise<string> {
    const demo = { url: platform.url, apiVersion: platform.apiVersion };
    const app = createApp(createCore({ dataDir }), {
      sync: { demoPlatform: async () => demo },
      host: { demoPlatform: () => demo },
    });
    const ws = await createWorkspace(app.core.sql, { name: 'Agency', plan: 'agency' });
    const owner = await createUser(app.core.sql, {
      workspaceId: ws.id,
      email: 'o@agency.test',
      role: 'owner',
    });
    const ctx = await app.use.identity.contextForUser(owner.id);
    const candidate = (await app.use.accounts.demoCandidates(ctx)).find((c) => c.canConnect);
    const account = await app.use.accounts.connect(ctx, { platformAccountId: candidate!.platformAccountId });
    await app.stop();
    return account.id;
  }

  for (const change of ['missing', 'replaced'] as const) {
    it(`when ${change}, marks the connections for re-authentication with the reason, and reconnecting works`, async () => {
      const dataDir = join(dir, change);
      const accountId = await connectedStore(dataDir);
      const keyPath = join(dataDir, KEY_FILE);
      if (change === 'missing') rmSync(keyPath);
      else {
        const fd = openSync(keyPath, 'w');
        writeSync(fd, Buffer.from(Buffer.alloc(32, 7).toString('base64')));
        closeSync(fd);
      }
      const demo = { url: platform.url, apiVersion: platform.apiVersion };
      const app = createApp(createCore({ dataDir }), {
        sync: { demoPlatform: async () => demo },
        host: { demoPlatform: () => demo },
      });
      try {
        const owner = app.core.db.prepare(`SELECT id FROM users`).pluck().get() as string;
        const ctx = await app.use.identity.contextForUser(owner);
        const account = await app.use.accounts.get(ctx, accountId);
        expect(account).toMatchObject({
          connectionStatus: 'token_expired',
          statusReason: KEY_CHANGED_REASON,
        });
        await expect(app.use.accounts.sync(ctx, accountId)).rejects.toMatchObject({
          type: 'invalid_request',
          message: expect.stringMatching(/token_expired/),
        });
        const again = await app.use.accounts.reconnect(ctx, accountId, 'demo-token');
        expect(again.connectionStatus).toBe('active');
      } finally {
        await app.stop();
      }
      // The next start finds the key and the connection in order: nothing is marked again.
      const core = createCore({ dataDir });
      const status = core.db
        .prepare(`SELECT connection_status FROM ad_accounts WHERE id = ?`)
        .pluck()
        .get(accountId);
      core.close();
      expect(status).toBe('active');
    });
  }
});

describe('file modes', () => {
  it('creates the data directory 0700 and the database, its WAL and SHM, and the key 0600', () => {
    const dataDir = join(dir, 'fresh');
    const core = createCore({ dataDir });
    core.db.prepare(`INSERT INTO settings (key, value) VALUES ('x', 'y')`).run();
    const mode = (path: string) => statSync(path).mode & 0o777;
    expect(mode(dataDir)).toBe(0o700);
    for (const file of [DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`, KEY_FILE]) {
      expect(mode(join(dataDir, file)), file).toBe(0o600);
    }
    core.close();
  });
});
