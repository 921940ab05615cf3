// `schedule show|set` and `issues list|ack|snooze` through the CLI's real command code, with --json.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCore } from '../../core/core';
import { reconcileIssues } from '../../core/issues/lifecycle';
import { seedAccount, seedCampaign } from '../../test-support/api-fixtures';
import type { CommandModule } from '../framework';
import { runCliJson } from '../../test-support/cli-run';
import { issueCommands, scheduleCommands } from './watch';
import workspaceCommands from './workspace';

const dataDir = mkdtempSync(join(tmpdir(), 'adlens-cli-watch-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const run = (name: string, module: CommandModule, argv: string[]) => runCliJson(dataDir, name, module, argv);

describe('schedule and issues commands', () => {
  it('sets the workspace and account intervals, lists, acknowledges and snoozes issues', async () => {
    const ws = (await run('workspace', workspaceCommands, ['create', '--name', 'Agency', '--plan', 'agency']))
      .json.workspace as { id: string };
    const core = createCore({ dataDir });
    const account = seedAccount(core.db, { workspaceId: ws.id, mode: 'live' });
    const campaign = seedCampaign(core.db, { accountId: account.id, name: 'Alpha' });
    await reconcileIssues(core, {
      workspaceId: ws.id,
      accountId: account.id,
      diagnosticId: 'diag_CliDiagnosis0001',
      judgedCampaignIds: [campaign],
      found: [
        {
          campaignId: campaign,
          type: 'PACING_ISSUE',
          entity: { id: campaign, name: 'Alpha' },
          severity: 'HIGH',
          title: 'Alpha overspends',
          description: 'twice its budget',
          evidence: {},
        },
      ],
    });
    core.close();

    const set = await run('schedule', scheduleCommands, ['set', '--workspace', ws.id, '--every', '120']);
    expect(set.code).toBe(0);
    expect(set.json.schedules).toEqual([
      expect.objectContaining({ accountId: account.id, intervalMinutes: 120, intervalSource: 'workspace' }),
    ]);
    const own = await run('schedule', scheduleCommands, [
      'set',
      '--workspace',
      ws.id,
      '--account',
      account.id,
      '--every',
      '30',
    ]);
    expect(own.json.schedules).toEqual([
      expect.objectContaining({ intervalMinutes: 30, intervalSource: 'account' }),
    ]);
    expect(
      (await run('schedule', scheduleCommands, ['set', '--workspace', ws.id, '--every', '5'])).code,
    ).not.toBe(0);
    expect((await run('schedule', scheduleCommands, ['set', '--workspace', ws.id])).code).not.toBe(0);
    const shown = await run('schedule', scheduleCommands, ['show', '--workspace', ws.id]);
    expect((shown.json.schedules as unknown[]).length).toBe(1);

    const listed = await run('issues', issueCommands, ['list', '--workspace', ws.id]);
    const items = listed.json.items as { id: string; state: string; type: string }[];
    expect(items.map((i) => [i.type, i.state])).toEqual([['PACING_ISSUE', 'open']]);
    const id = items[0]!.id;
    expect((await run('issues', issueCommands, ['ack', id, '--workspace', ws.id])).json.issue).toMatchObject({
      state: 'acknowledged',
    });
    expect((await run('issues', issueCommands, ['snooze', id, '--workspace', ws.id])).code).not.toBe(0);
    const snoozed = await run('issues', issueCommands, ['snooze', id, '--workspace', ws.id, '--until-worse']);
    expect(snoozed.json.issue).toMatchObject({ state: 'snoozed', snoozeUntilWorse: true });
    expect(
      (await run('issues', issueCommands, ['list', '--workspace', ws.id, '--state', 'nope'])).code,
    ).not.toBe(0);
  });
});
