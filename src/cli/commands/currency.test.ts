// `currency show|set|clear` through the CLI's real command code on a real data directory, with --json
// (the summary it changes is tested in insights/currencies.test.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliJson } from '../../test-support/cli-run';
import type { CommandModule } from '../framework';
import currencyCommands from './currency';
import workspaceCommands from './workspace';

const dataDir = mkdtempSync(join(tmpdir(), 'adlens-cli-currency-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const run = (name: string, module: CommandModule, argv: string[]) => runCliJson(dataDir, name, module, argv);

describe('currency commands', () => {
  it('set, show and clear the reporting currency, and refuse bad input leaving it as it was', async () => {
    const ws = (await run('workspace', workspaceCommands, ['create', '--name', 'Agency', '--plan', 'agency']))
      .json.workspace as { id: string };
    const currency = (argv: string[]) =>
      run('currency', currencyCommands, [argv[0] as string, '--workspace', ws.id, ...argv.slice(1)]);

    expect((await currency(['show'])).json).toEqual({ reportingCurrency: null });
    const set = await currency(['set', '--currency', 'USD', '--rate', 'EUR=1.0842', '--rate', 'JPY=0.0067']);
    expect(set.code).toBe(0);
    expect(set.json.reportingCurrency).toEqual({ currency: 'USD', rates: { EUR: '1.0842', JPY: '0.0067' } });
    expect((await currency(['show'])).json.reportingCurrency).toEqual(set.json.reportingCurrency);

    const toItself = await currency(['set', '--currency', 'USD', '--rate', 'USD=1']);
    expect(toItself.code).not.toBe(0);
    expect(toItself.stderr).toContain('needs no rate to itself');
    const badRate = await currency(['set', '--currency', 'USD', '--rate', 'EUR=-1']);
    expect(badRate.stderr).toContain('positive decimal');
    const badPair = await currency(['set', '--currency', 'USD', '--rate', 'EUR']);
    expect(badPair.stderr).toContain('CODE=RATE');
    const badCode = await currency(['set', '--currency', 'dollars']);
    expect(badCode.stderr).toContain('ISO 4217');
    // Every refusal left the setting as it was.
    expect((await currency(['show'])).json.reportingCurrency).toEqual(set.json.reportingCurrency);

    expect((await currency(['clear'])).json).toEqual({ reportingCurrency: null });
    expect((await currency(['show'])).json).toEqual({ reportingCurrency: null });
  });
});
