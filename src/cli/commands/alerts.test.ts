// `alerts add|list|test|remove|smtp|quiet|digest` through the CLI's real command code, with --json,
// against a webhook receiver on loopback.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createCore } from '../../core/core';
import { createUser } from '../../core/identity/users';
import { validSignature, webhookReceiver } from '../../test-support/alert-receivers';
import type { CommandModule } from '../framework';
import { runCliJson } from '../../test-support/cli-run';
import alertCommands from './alerts';
import workspaceCommands from './workspace';

const dataDir = mkdtempSync(join(tmpdir(), 'adlens-cli-alerts-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const run = (name: string, module: CommandModule, argv: string[]) => runCliJson(dataDir, name, module, argv);

describe('alerts commands', () => {
  it('adds a webhook with its secret once, tests it signed, sets SMTP, quiet hours and a digest, removes it', async () => {
    const ws = (await run('workspace', workspaceCommands, ['create', '--name', 'Agency', '--plan', 'agency']))
      .json.workspace as { id: string };
    const core = createCore({ dataDir });
    const user = await createUser(core.sql, {
      workspaceId: ws.id,
      email: 'owner@agency.test',
      role: 'owner',
    });
    core.close();
    const hook = await webhookReceiver(cleanups);

    const added = await run('alerts', alertCommands, [
      'add',
      '--workspace',
      ws.id,
      '--webhook',
      hook.url,
      '--min-risk',
      'MEDIUM',
      '--slack',
    ]);
    expect(added.code).toBe(0);
    const destination = added.json.destination as {
      id: string;
      secret: string;
      minRisk: string;
      format: string;
    };
    expect(destination).toMatchObject({ minRisk: 'MEDIUM', format: 'slack' });
    expect(destination.secret).toMatch(/^whsec_/);
    expect(
      (await run('alerts', alertCommands, ['add', '--workspace', ws.id, '--webhook', 'ftp://x'])).code,
    ).not.toBe(0);
    expect(
      (
        await run('alerts', alertCommands, [
          'add',
          '--workspace',
          ws.id,
          '--webhook',
          hook.url,
          '--min-risk',
          'HUGE',
        ])
      ).code,
    ).not.toBe(0);
    const email = await run('alerts', alertCommands, [
      'add',
      '--workspace',
      ws.id,
      '--email',
      'a@agency.test',
    ]);
    expect((email.json.destination as { secret: unknown }).secret).toBeNull();

    const listed = await run('alerts', alertCommands, ['list', '--workspace', ws.id]);
    expect((listed.json.destinations as { id: string }[]).map((d) => d.id)).toContain(destination.id);
    expect(JSON.stringify(listed.json)).not.toContain(destination.secret);

    const tested = await run('alerts', alertCommands, ['test', destination.id, '--workspace', ws.id]);
    expect(tested.json.result).toMatchObject({ delivered: true, httpStatus: 200 });
    expect(validSignature(destination.secret, hook.calls[0]!)).toBe(true);
    hook.state.status = 500;
    const failing = await run('alerts', alertCommands, ['test', destination.id, '--workspace', ws.id]);
    expect(failing.code).toBe(1);
    expect(failing.json.result).toMatchObject({ delivered: false, httpStatus: 500 });

    const smtp = await run('alerts', alertCommands, [
      'smtp',
      '--workspace',
      ws.id,
      '--host',
      'smtp.agency.test',
      '--port',
      '587',
      '--user',
      'alerts',
      '--password',
      's3cret',
      '--from',
      'alerts@agency.test',
    ]);
    expect(smtp.json.smtp).toEqual({
      host: 'smtp.agency.test',
      port: 587,
      security: 'starttls',
      user: 'alerts',
      from: 'alerts@agency.test',
      passwordSet: true,
    });
    const quiet = await run('alerts', alertCommands, [
      'quiet',
      '--workspace',
      ws.id,
      '--from',
      '22',
      '--to',
      '7',
      '--timezone',
      'Europe/Paris',
    ]);
    expect(quiet.json.preferences).toMatchObject({ quietFrom: 22, quietTo: 7, timezone: 'Europe/Paris' });
    const digest = await run('alerts', alertCommands, [
      'digest',
      '--workspace',
      ws.id,
      '--user',
      user.id,
      '--hour',
      '8',
      '--timezone',
      'Europe/Paris',
    ]);
    expect(digest.json.digest).toMatchObject({ hour: 8, timezone: 'Europe/Paris' });
    expect(
      (
        await run('alerts', alertCommands, [
          'digest',
          '--workspace',
          ws.id,
          '--user',
          user.id,
          '--hour',
          '8',
          '--timezone',
          'Mars/Olympus',
        ])
      ).code,
    ).not.toBe(0);

    expect((await run('alerts', alertCommands, ['remove', destination.id, '--workspace', ws.id])).code).toBe(
      0,
    );
    expect(
      (await run('alerts', alertCommands, ['test', destination.id, '--workspace', ws.id])).code,
    ).not.toBe(0);
  });
});
