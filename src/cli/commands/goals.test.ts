// `goals show|set|clear` through the CLI's real command code on a real data directory, with --json.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCore } from '../../core/core';
import { seedAccount, seedCampaign } from '../../test-support/api-fixtures';
import { runCliJson } from '../../test-support/cli-run';
import type { CommandModule } from '../framework';
import goalCommands from './goals';
import workspaceCommands from './workspace';

const dataDir = mkdtempSync(join(tmpdir(), 'adlens-cli-goals-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const run = (name: string, module: CommandModule, argv: string[]) => runCliJson(dataDir, name, module, argv);

describe('goals commands', () => {
  it('set, show and clear the account goal and campaign goals, and refuse bad input', async () => {
    const ws = (await run('workspace', workspaceCommands, ['create', '--name', 'Agency', '--plan', 'agency']))
      .json.workspace as { id: string };
    const core = createCore({ dataDir });
    const account = seedAccount(core.db, { workspaceId: ws.id, mode: 'live' });
    const campaign = seedCampaign(core.db, { accountId: account.id, name: 'Alpha' });
    core.close();
    const goals = (argv: string[]) =>
      run('goals', goalCommands, [argv[0] as string, '--workspace', ws.id, ...argv.slice(1)]);

    const roas = await goals(['set', '--account', account.platformAccountId, '--roas', '3']);
    expect(roas.code).toBe(0);
    expect(roas.json.goal).toMatchObject({
      accountId: account.id,
      campaignId: null,
      kind: 'ROAS',
      target: 3,
    });
    const cpa = await goals(['set', '--campaign', campaign, '--cpa', '25']);
    expect(cpa.json.goal).toMatchObject({ campaignId: campaign, kind: 'CPA', target: 25 });
    const shown = await goals(['show', '--account', account.id]);
    expect(shown.json.goals).toMatchObject({
      account: { kind: 'ROAS', target: 3 },
      campaigns: [{ campaignId: campaign, kind: 'CPA', target: 25 }],
    });
    const breakEven = await goals(['set', '--account', account.id, '--break-even']);
    expect(breakEven.json.goal).toMatchObject({ kind: 'ROAS', target: 1 });

    const cleared = await goals(['clear', '--campaign', campaign]);
    expect(cleared.json.goal).toMatchObject({
      own: null,
      effective: { kind: 'ROAS', target: 1, source: 'account' },
    });
    const all = await goals(['clear', '--account', account.id]);
    expect(all.json.goals).toMatchObject({ account: null, campaigns: [] });

    const both = await goals(['set', '--account', account.id, '--cpa', '5', '--roas', '2']);
    expect(both.code).not.toBe(0);
    expect(both.stderr).toContain('one of --cpa AMOUNT, --roas RATIO or --break-even');
    const none = await goals(['set', '--cpa', '5']);
    expect(none.stderr).toContain('--account');
    const word = await goals(['set', '--account', account.id, '--cpa', 'lots']);
    expect(word.stderr).toContain('--cpa is a number');
    const zero = await goals(['set', '--account', account.id, '--roas', '0']);
    expect(zero.stderr).toContain('above zero');
  });
});
