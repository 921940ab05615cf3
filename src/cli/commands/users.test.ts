// `user list|disable|enable|remove` through the CLI's real command code, with --json.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCore } from '../../core/core';
import { createUser } from '../../core/identity/users';
import type { CommandModule } from '../framework';
import { runCliJson } from '../../test-support/cli-run';
import keyCommands from './keys';
import userCommands from './users';
import workspaceCommands from './workspace';

const dataDir = mkdtempSync(join(tmpdir(), 'adlens-cli-users-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const run = (name: string, module: CommandModule, argv: string[]) => runCliJson(dataDir, name, module, argv);

describe('user commands', () => {
  it('lists people, disables one (revoking their keys), enables and removes', async () => {
    const ws = (await run('workspace', workspaceCommands, ['create', '--name', 'Agency', '--plan', 'agency']))
      .json.workspace as { id: string };
    const core = createCore({ dataDir });
    const ana = await createUser(core.sql, { workspaceId: ws.id, email: 'ana@agency.test', role: 'member' });
    await createUser(core.sql, { workspaceId: ws.id, email: 'owner@agency.test', role: 'owner' });
    core.close();
    const key = (await run('key', keyCommands, ['create', '--workspace', ws.id, '--user', ana.id])).json
      .apiKey as { id: string };

    const listed = await run('user', userCommands, ['list', '--workspace', ws.id]);
    expect(listed.code).toBe(0);
    expect(
      (listed.json.users as Array<{ email: string; status: string }>).map((u) => u.email).sort(),
    ).toEqual(['ana@agency.test', 'owner@agency.test']);

    const disabled = await run('user', userCommands, ['disable', ana.id]);
    expect(disabled.json.user).toMatchObject({ id: ana.id, status: 'disabled' });
    const keys = (await run('key', keyCommands, ['list', '--workspace', ws.id])).json.apiKeys as Array<{
      id: string;
      revokedAt: string | null;
    }>;
    expect(keys.find((k) => k.id === key.id)?.revokedAt).not.toBeNull();

    expect((await run('user', userCommands, ['enable', ana.id])).json.user).toMatchObject({
      status: 'active',
    });
    expect((await run('user', userCommands, ['remove', ana.id])).json.user).toMatchObject({
      status: 'removed',
    });
    const after = await run('user', userCommands, ['list', '--workspace', ws.id]);
    expect((after.json.users as Array<{ id: string }>).map((u) => u.id)).not.toContain(ana.id);

    const unknown = await run('user', userCommands, ['disable', 'user_0000000000000000']);
    expect(unknown.code).toBe(1);
    expect(unknown.json.error).toMatchObject({ type: 'not_found' });
  });
});
