// The diagnostics CLI commands against a real data directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../core/clock';
import { createCore } from '../../core/core';
import {
  buildCampaign,
  insertCampaign,
  seedWorkspace,
  step,
  type SeededWorkspace,
} from '../../test-support/diagnostics-fixtures';
import { runCommand, type CommandModule } from '../framework';
import { diagnoseCommands, feedbackCommands, profileCommands } from './diagnostics';

const TODAY = '2026-03-01';
let dir: string;
let ws: SeededWorkspace;
let campaignId: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'adlens-diag-cli-'));
  const core = createCore({ dataDir: dir });
  ws = seedWorkspace(core.db);
  campaignId = insertCampaign(
    core.db,
    ws.accountId,
    buildCampaign({
      name: 'Spring Sale',
      today: TODAY,
      days: 60,
      adSets: [
        {
          name: 'US broad',
          dailyBudget: 80,
          ads: [
            { name: 'Video hook', ctr: step(0.02, 0.012, 7), frequency: step(1.25, 1.6, 7) },
            { name: 'Carousel' },
          ],
        },
      ],
    }),
  );
  core.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(name: string, module: CommandModule, args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCommand(name, module, [...args, '--data-dir', dir], {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
  });
  return { code, stdout, stderr };
}

describe('diagnostics CLI', () => {
  it('sets and shows a profile', async () => {
    const set = await run('profile', profileCommands, [
      'set',
      '--workspace',
      ws.workspaceId,
      '--risk-appetite',
      'LOW',
      '--focus-metric',
      'ROAS',
      '--json',
    ]);
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout).profile).toMatchObject({
      userId: ws.userId,
      riskAppetite: 'LOW',
      focusMetric: 'ROAS',
    });
    const show = await run('profile', profileCommands, ['show', '--workspace', ws.workspaceId]);
    expect(show.stdout).toContain('riskAppetite LOW\tfocusMetric ROAS');
    const bad = await run('profile', profileCommands, [
      'set',
      '--workspace',
      ws.workspaceId,
      '--risk-appetite',
      'EXTREME',
    ]);
    expect(bad.code).toBe(2);
  });

  it('diagnoses a campaign synchronously and takes feedback on a recommendation', async () => {
    const out = await run('diagnose', diagnoseCommands, [
      '--workspace',
      ws.workspaceId,
      '--campaign',
      campaignId,
      '--from',
      addDays(TODAY, -13),
      '--to',
      TODAY,
      '--json',
    ]);
    expect(out.code).toBe(0);
    const diagnostic = JSON.parse(out.stdout).diagnostic as {
      id: string;
      status: string;
      issues: { type: string }[];
      andromedaContext: { riskAppetite: string };
    };
    expect(diagnostic.status).toBe('completed');
    expect(diagnostic.issues.map((i) => i.type)).toContain('CREATIVE_FATIGUE');
    expect(diagnostic.andromedaContext.riskAppetite).toBe('LOW');
    const text = await run('diagnose', diagnoseCommands, [
      '--workspace',
      ws.workspaceId,
      '--campaign',
      campaignId,
      '--to',
      TODAY,
    ]);
    expect(text.stdout).toMatch(/Spring Sale/);
    const fb = await run('feedback', feedbackCommands, [
      '--diagnostic',
      diagnostic.id,
      '--recommendation',
      'rec_1',
      '--dismissed',
      '--json',
    ]);
    expect(fb.code).toBe(0);
    expect(JSON.parse(fb.stdout)).toMatchObject({ feedback: 'dismissed', recommendationId: 'rec_1' });
    const both = await run('feedback', feedbackCommands, [
      '--diagnostic',
      diagnostic.id,
      '--recommendation',
      'rec_1',
      '--dismissed',
      '--applied',
    ]);
    expect(both.code).toBe(2);
  });

  it('sets a campaign target CPA', async () => {
    const out = await run('profile', profileCommands, [
      'target-cpa',
      '--workspace',
      ws.workspaceId,
      '--campaign',
      campaignId,
      '--cpa',
      '12.5',
      '--json',
    ]);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ targetCpa: 12.5 });
  });
});
