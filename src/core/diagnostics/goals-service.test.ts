// Goals reach the diagnosis as plain data on the worker thread (as hosts run it) from a real SQLite
// store: a campaign below the account's ROAS goal gets GOAL_MISSED, its own CPA goal overrides the
// account's, and the diagnostic view carries each campaign's goal check.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DiagnosticDetailSchema } from '../../shared/api/diagnostics';
import { addDays } from '../clock';
import { createCore } from '../core';
import { deleteGoal, saveGoal } from '../goals/store';
import { buildCampaign, insertCampaign, seedWorkspace } from '../../test-support/diagnostics-fixtures';
import { DiagnosticsService } from './service';

const TODAY = '2026-03-01';
const FROM = addDays(TODAY, -6);
const dir = mkdtempSync(join(tmpdir(), 'adlens-diag-goals-'));
const core = createCore({ dataDir: dir });
const service = new DiagnosticsService(core, { inWorker: true });
afterAll(async () => {
  await service.stop();
  core.close();
  rmSync(dir, { recursive: true, force: true });
});

const ws = seedWorkspace(core.db);
const shop = (name: string, value: number) =>
  buildCampaign({
    name,
    today: TODAY,
    days: 40,
    adSets: [{ name: `${name} ad set`, dailyBudget: 60, ads: [{ name: `${name} ad`, value }] }],
  });
// ROAS 0.75 and ROAS 4.5 ($40 a day, 3 purchases worth $10 or $60).
const weak = insertCampaign(core.db, ws.accountId, shop('Weak', 10));
const strong = insertCampaign(core.db, ws.accountId, shop('Strong', 60));
const ctx = { workspaceId: ws.workspaceId, userId: null };
const goal = (campaignId: string | null, kind: 'CPA' | 'ROAS', target: number) =>
  saveGoal(core.sql, {
    account_id: ws.accountId,
    campaign_id: campaignId,
    kind,
    target,
    updated_at: '2026-03-01T00:00:00.000Z',
    updated_by: null,
  });

describe('goals in a diagnosis on the worker thread', () => {
  it('judges each campaign against its own goal, else the account goal', async () => {
    await goal(null, 'ROAS', 2);
    await goal(strong, 'CPA', 20);
    const detail = await service.runNow(ctx, {
      accountId: ws.accountId,
      campaignId: null,
      dateFrom: FROM,
      dateTo: TODAY,
    });
    expect(service.offThread).toBe(true);
    expect(detail.status).toBe('completed');
    expect(() => DiagnosticDetailSchema.parse(detail)).not.toThrow();
    const missed = detail.issues.filter((i) => i.type === 'GOAL_MISSED');
    expect(missed.map((i) => i.campaignId)).toEqual([weak]);
    expect(missed[0]?.evidence).toMatchObject({
      goal: { kind: 'ROAS', target: 2, source: 'account' },
      actual: 0.75,
    });
    expect(detail.goalChecks?.map((c) => [c.campaignName, c.status, c.metric, c.goal?.source])).toEqual(
      expect.arrayContaining([
        ['Weak', 'MISSED', 'ROAS', 'account'],
        ['Strong', 'MET', 'CPA', 'campaign'],
      ]),
    );
    // The account's median ROAS (0.75 and 4.5) is beside each campaign.
    expect(detail.goalChecks?.find((c) => c.campaignName === 'Weak')?.accountMedian).toBe(2.63);
  });

  it('a campaign diagnostic still sees the account median and the goal cleared', async () => {
    await deleteGoal(core.sql, ws.accountId, null);
    const detail = await service.runNow(ctx, {
      accountId: ws.accountId,
      campaignId: weak,
      dateFrom: FROM,
      dateTo: TODAY,
    });
    // No goal: break-even is implied, and ROAS 0.75 is well below it.
    expect(detail.issues.find((i) => i.type === 'GOAL_MISSED')?.evidence).toMatchObject({
      goal: { source: 'break_even' },
      accountMedian: 2.63,
    });
    expect(detail.summary).toContain('the account median 2.63');
  });
});
