import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCore } from '../../core/core';
import { findApiKeyBySecret, hashApiKey } from '../../core/identity/api-keys';
import { findOpenInvitation } from '../../core/identity/invitations';
import { systemClock } from '../../core/clock';
import { runCommand } from '../framework';
import keyCommands from './keys';
import userCommands from './users';
import workspaceCommands from './workspace';

const dataDir = mkdtempSync(join(tmpdir(), 'adlens-cli-keys-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function run(name: string, module: typeof keyCommands, argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCommand(name, module, [...argv, '--data-dir', dataDir], {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
  });
  return { code, stdout, stderr, json: () => JSON.parse(stdout) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe('key and user commands', () => {
  it('creates, lists, limits and revokes keys; the key is printed once and stored hashed', async () => {
    const ws = (
      await run('workspace', workspaceCommands, ['create', '--name', 'Agency', '--plan', 'agency', '--json'])
    ).json().workspace;
    const created = await run('key', keyCommands, [
      'create',
      '--workspace',
      ws.id,
      '--mode',
      'test',
      '--name',
      'ci',
      '--expires-in-days',
      '30',
      '--json',
    ]);
    expect(created.code).toBe(0);
    const { key, apiKey } = created.json();
    expect(key).toMatch(/^service_test_[0-9A-Za-z]{32}$/);
    expect(apiKey.id).toMatch(/^key_/);
    expect(apiKey.expiresAt).not.toBeNull();
    const listed = await run('key', keyCommands, ['list', '--workspace', ws.id, '--json']);
    expect(listed.stdout).not.toContain(key);
    expect(listed.json().apiKeys).toHaveLength(1);
    const core = createCore({ dataDir });
    try {
      expect((await findApiKeyBySecret(core.sql, key))?.id).toBe(apiKey.id);
      const stored = core.db.prepare(`SELECT key_hash FROM api_keys`).pluck().get();
      expect(stored).toBe(hashApiKey(key));
    } finally {
      core.close();
    }
    const limits = await run('key', keyCommands, ['limits', apiKey.id, '--reads', '5000', '--json']);
    expect(limits.json().apiKey.limitOverrides).toEqual({ reads: 5000 });
    const revoked = await run('key', keyCommands, ['revoke', apiKey.id, '--json']);
    expect(revoked.json().apiKey.revokedAt).not.toBeNull();
    const text = await run('key', keyCommands, ['create', '--workspace', ws.id]);
    expect(text.stdout.split('\n')[1]).toMatch(/^service_live_/);
  });

  it('refuses bad input with a clear message and a non-zero exit', async () => {
    const missing = await run('key', keyCommands, ['create', '--json']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/--workspace/);
    const unknown = await run('key', keyCommands, ['revoke', 'key_AAAAAAAAAAAAAAAA']);
    expect(unknown.code).toBe(1);
    const badMode = await run('key', keyCommands, ['create', '--workspace', 'ws_x', '--mode', 'prod']);
    expect(badMode.code).toBe(2);
  });

  it('invites a user with a one-time URL valid 7 days', async () => {
    const ws = (await run('workspace', workspaceCommands, ['create', '--name', 'Agency 2', '--json'])).json()
      .workspace;
    const invited = await run('user', userCommands, [
      'invite',
      '--workspace',
      ws.id,
      '--email',
      'Ana@Example.com',
      '--json',
    ]);
    expect(invited.code).toBe(0);
    const { url, invitation } = invited.json();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/invite\/[0-9A-Za-z]{40}$/);
    expect(invitation.email).toBe('ana@example.com');
    expect(Date.parse(invitation.expiresAt) - Date.parse(invitation.createdAt)).toBe(7 * 86_400_000);
    const core = createCore({ dataDir });
    try {
      const token = url.split('/').pop() as string;
      expect((await findOpenInvitation(core.sql, systemClock, token)).id).toBe(invitation.id);
      expect(
        core.db.prepare(`SELECT count(*) FROM invitations WHERE token_hash = ?`).pluck().get(token),
      ).toBe(0);
    } finally {
      core.close();
    }
    const bad = await run('user', userCommands, ['invite', '--workspace', ws.id, '--email', 'nope']);
    expect(bad.code).toBe(2);
  });
});
