import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoPlatform } from '../core/demo-platform/index';
import { GraphClient } from '../core/platform/graph-client';
import type { AvailableAccounts, ConnectManyResult } from '../shared/api/available-accounts';
import { FAKE_ACCOUNT, fakeAccountState, startFakeAccount } from '../test-support/fake-account';

const ROOT = join(import.meta.dirname, '..', '..');

/** Runs the CLI in a child process (async, so this process's fake platform keeps answering). */
function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** Name, size and content hash of every file: "untouched" means this does not change. */
function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    out[name] = createHash('sha256')
      .update(readFileSync(join(dir, name)))
      .digest('hex');
  }
  return out;
}

const state = fakeAccountState(new Date().toISOString().slice(0, 10));
let platform: Awaited<ReturnType<typeof startFakeAccount>>;
const dataDir = mkdtempSync(join(tmpdir(), 'adlens-cli-'));
let workspaceId = '';

beforeAll(async () => {
  platform = await startFakeAccount(state);
});
afterAll(async () => {
  await platform.close();
});

describe('cli', () => {
  it('creates and lists workspaces, one JSON object each with --json', async () => {
    const created = await cli([
      'workspace',
      'create',
      '--name',
      'Acme Agency',
      '--plan',
      'agency',
      '--data-dir',
      dataDir,
      '--json',
    ]);
    expect(created.code).toBe(0);
    const { workspace } = JSON.parse(created.stdout) as { workspace: { id: string; plan: string } };
    expect(workspace).toMatchObject({ plan: 'agency', name: 'Acme Agency' });
    workspaceId = workspace.id;
    const listed = await cli(['workspace', 'list', '--data-dir', dataDir, '--json']);
    expect(JSON.parse(listed.stdout)).toEqual({ workspaces: [expect.objectContaining({ id: workspaceId })] });
  });

  it('connects and syncs an account from a given Graph URL, then lists it', async () => {
    const connect = await cli([
      'account',
      'connect',
      '--workspace',
      workspaceId,
      '--platform-account',
      FAKE_ACCOUNT,
      '--platform-url',
      platform.url,
      '--token',
      'tok',
      '--data-dir',
      dataDir,
      '--json',
    ]);
    expect(connect.stderr).toBe('');
    expect(connect.code).toBe(0);
    const { account } = JSON.parse(connect.stdout) as { account: { id: string; mode: string } };
    expect(account.mode).toBe('live');
    const synced = await cli(['sync', '--workspace', workspaceId, '--data-dir', dataDir]);
    expect(synced.code).toBe(0);
    expect(synced.stdout).toContain('completed');
    // Non-TTY progress: one line per phase.
    expect(synced.stderr).toContain(`${FAKE_ACCOUNT}: insights:ad`);
    const listed = JSON.parse(
      (await cli(['account', 'list', '--workspace', workspaceId, '--data-dir', dataDir, '--json'])).stdout,
    ) as {
      accounts: { lastSyncedAt: string | null }[];
    };
    expect(listed.accounts).toHaveLength(1);
    expect(listed.accounts[0]?.lastSyncedAt).not.toBeNull();
  });

  it('connects and syncs a demo account from the embedded demo platform (no server running)', async () => {
    // The same seed and day as the CLI's own in-process demo platform, to learn an account ID.
    const demo = await startDemoPlatform({ port: 0, seed: 1 });
    const client = new GraphClient({ baseUrl: demo.url, apiVersion: demo.apiVersion, token: 'demo-token' });
    let gbp = '';
    for await (const page of client.listAdAccounts())
      gbp ||= page.find((a) => a.currency === 'GBP')?.id ?? '';
    await demo.close();
    const dir = mkdtempSync(join(tmpdir(), 'adlens-cli-demo-'));
    const ws = JSON.parse(
      (await cli(['workspace', 'create', '--name', 'Trial', '--plan', 'trial', '--data-dir', dir, '--json']))
        .stdout,
    ) as { workspace: { id: string } };
    const connect = await cli([
      'account',
      'connect',
      '--workspace',
      ws.workspace.id,
      '--platform-account',
      gbp,
      '--data-dir',
      dir,
      '--json',
    ]);
    expect(connect.code).toBe(0);
    expect(JSON.parse(connect.stdout)).toMatchObject({
      account: { mode: 'test', currency: 'GBP', platformAccountId: gbp },
    });
    const synced = await cli([
      'sync',
      '--workspace',
      ws.workspace.id,
      '--account',
      gbp,
      '--data-dir',
      dir,
      '--json',
    ]);
    expect(synced.code).toBe(0);
    expect(JSON.parse(synced.stdout)).toMatchObject({ syncs: [{ status: 'completed', kind: 'full' }] });
  });

  it('lists every account the demo token reaches by business (--available) and connects many at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adlens-cli-agency-'));
    const ws = JSON.parse(
      (
        await cli([
          'workspace',
          'create',
          '--name',
          'Agency',
          '--plan',
          'agency',
          '--data-dir',
          dir,
          '--json',
        ])
      ).stdout,
    ) as { workspace: { id: string } };
    const base = ['--workspace', ws.workspace.id, '--data-dir', dir];
    const listed = await cli(['account', 'list', '--available', ...base, '--json']);
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    const { available } = JSON.parse(listed.stdout) as { available: AvailableAccounts };
    expect(available.groups.length).toBe(3);
    const all = available.groups.flatMap((g) => g.accounts);
    const clients = all.filter((a) => a.relation === 'CLIENT');
    expect(clients).toHaveLength(3);
    const text = await cli(['account', 'list', '--available', ...base]);
    expect(text.stdout).toContain('CLIENT');
    expect(text.stdout).toMatch(/\[refused\].*DRAFT/);

    // One comma-separated flag: the client accounts; the one without a reading task is refused (exit 1).
    const many = await cli([
      'account',
      'connect',
      '--platform-account',
      clients.map((a) => a.platformAccountId).join(','),
      ...base,
      '--json',
    ]);
    expect(many.code).toBe(1);
    const result = JSON.parse(many.stdout) as ConnectManyResult;
    expect(result).toMatchObject({ connected: 2, refused: 1 });
    expect(result.outcomes.find((o) => o.status === 'refused')?.error?.message).toMatch(/ANALYZE/);

    // A repeated flag: two more, both connect (one view-only).
    const [viewOnly, other] = [
      all.find((a) => a.relation === 'OWNED' && a.tasks.join() === 'ANALYZE'),
      all.find((a) => a.relation === 'OWNED' && a.currency === 'GBP'),
    ];
    const repeated = await cli([
      'account',
      'connect',
      '--platform-account',
      viewOnly?.platformAccountId ?? '',
      '--platform-account',
      other?.platformAccountId ?? '',
      ...base,
      '--json',
    ]);
    expect(repeated.code).toBe(0);
    expect((JSON.parse(repeated.stdout) as ConnectManyResult).connected).toBe(2);
    const accounts = JSON.parse((await cli(['account', 'list', ...base, '--json'])).stdout) as {
      accounts: { platformAccountId: string; tokenExpiresAt: string | null; tokenWarning: string | null }[];
    };
    expect(accounts.accounts).toHaveLength(4);
    expect(accounts.accounts.every((a) => a.tokenExpiresAt === null && a.tokenWarning === null)).toBe(true);
  });

  it('refuses an unknown platform account and an expired token with one message, leaving files untouched', async () => {
    const before = fingerprint(dataDir);
    const base = [
      'account',
      'connect',
      '--workspace',
      workspaceId,
      '--platform-url',
      platform.url,
      '--token',
      'tok',
      '--data-dir',
      dataDir,
    ];
    const unknown = await cli([...base, '--platform-account', 'act_424242']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr.trim()).toBe(
      'error: ad account act_424242 was not found on the platform, or this token cannot see it',
    );
    state.tokenExpired = true;
    const expired = await cli([...base, '--platform-account', FAKE_ACCOUNT, '--json']);
    state.tokenExpired = false;
    expect(expired.code).not.toBe(0);
    expect(JSON.parse(expired.stdout)).toMatchObject({ error: { type: 'token_expired' } });
    expect(expired.stderr.trim().split('\n')).toHaveLength(1);
    expect(fingerprint(dataDir)).toEqual(before);
  });

  it('refuses a corrupt database file and a SQLite file of another application, untouched', async () => {
    const corrupt = mkdtempSync(join(tmpdir(), 'adlens-cli-corrupt-'));
    writeFileSync(join(corrupt, 'adlens.sqlite'), 'this is not a database at all, just text'.repeat(100));
    const before = fingerprint(corrupt);
    const result = await cli(['workspace', 'list', '--data-dir', corrupt]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/^error: .*adlens\.sqlite is not a SQLite database .*left untouched\.\n$/);
    expect(fingerprint(corrupt)).toEqual(before);

    const foreign = mkdtempSync(join(tmpdir(), 'adlens-cli-foreign-'));
    const db = new Database(join(foreign, 'adlens.sqlite'));
    db.exec(`CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('theirs');`);
    db.close();
    const beforeForeign = fingerprint(foreign);
    const other = await cli(['workspace', 'list', '--data-dir', foreign, '--json']);
    expect(other.code).not.toBe(0);
    expect(JSON.parse(other.stdout)).toMatchObject({
      error: { type: 'store_error', message: expect.stringContaining('another application') },
    });
    expect(fingerprint(foreign)).toEqual(beforeForeign);
  });

  it('rejects bad arguments with a usage error (exit 2)', async () => {
    const missing = await cli(['workspace', 'create', '--plan', 'gold', '--data-dir', dataDir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--name NAME is required');
    const badAccount = await cli([
      'account',
      'connect',
      '--workspace',
      workspaceId,
      '--platform-account',
      '123',
      '--data-dir',
      dataDir,
    ]);
    expect(badAccount.code).toBe(2);
    expect(badAccount.stderr).toContain('act_<digits>');
  });
});
