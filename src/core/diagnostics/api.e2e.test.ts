// End to end through the /v1 server: POST /v1/diagnostics, poll GET until completed, and check the
// response against the spec's fields (and the served OpenAPI document); 409 and 422 paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiagnosticDetailSchema } from '../../shared/api/diagnostics';
import { addDays } from '../clock';
import { responseChecker } from '../../test-support/openapi-check';
import { call, startTestApi, type TestApi } from '../../test-support/api-server';
import { createApiKey } from '../identity/api-keys';
import {
  buildCampaign,
  insertCampaign,
  seedWorkspace,
  step,
  type SeededWorkspace,
} from '../../test-support/diagnostics-fixtures';

const TODAY = '2026-03-01';
const FROM = addDays(TODAY, -13);
let t: TestApi;
let ws: SeededWorkspace;
let key: string;
let campaignId: string;
let check: ReturnType<typeof responseChecker>;

type Body = {
  data?: Record<string, unknown> & { id?: string; status?: string };
  error?: { type: string; message: string };
};

async function req(path: string, body?: unknown): Promise<{ status: number; body: Body }> {
  const res = await call(t.url, path, { key, body });
  check(body === undefined ? 'GET' : 'POST', path.split('?')[0] ?? path, res.status, res.body);
  return { status: res.status, body: res.body as Body };
}

/** Polls the detail (as the spec suggests) until it leaves pending/running, within a deadline. */
async function untilDone(id: string): Promise<Body> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await req(`/v1/diagnostics/${id}`);
    expect(res.status).toBe(200);
    if (res.body.data?.status === 'completed' || res.body.data?.status === 'failed') return res.body;
    if (Date.now() > deadline) throw new Error(`diagnostic ${id} still ${res.body.data?.status}`);
    await t.app.diagnostics.whenIdle();
  }
}

beforeAll(async () => {
  t = await startTestApi({ now: `${TODAY}T12:00:00.000Z` });
  check = responseChecker(
    (await call(t.url, '/v1/openapi.json')).body as Parameters<typeof responseChecker>[0],
  );
  ws = seedWorkspace(t.core.db);
  key = (
    await createApiKey(t.core.sql, t.core.clock, {
      workspaceId: ws.workspaceId,
      mode: 'test',
      limitOverrides: { writes: 1000, diagnostics: 1000 },
    })
  ).key;
  campaignId = insertCampaign(
    t.core.db,
    ws.accountId,
    buildCampaign({
      name: 'Spring Sale',
      today: TODAY,
      days: 60,
      adSets: [
        {
          name: 'US broad',
          targeting: { geo_locations: { countries: ['US'] }, age_min: 18, age_max: 65 },
          dailyBudget: 80,
          ads: [
            { name: 'Video hook', ctr: step(0.02, 0.012, 7), frequency: step(1.25, 1.6, 7) },
            { name: 'Carousel' },
          ],
        },
        {
          name: 'DE broad',
          targeting: { geo_locations: { countries: ['DE'] }, age_min: 18, age_max: 65 },
          dailyBudget: 100,
          ads: [{ name: 'Static', impressions: () => 5000 }],
        },
      ],
    }),
  );
});
afterAll(async () => {
  await t.close();
});

describe('POST /v1/diagnostics → GET until completed', () => {
  it('returns pending at once, then a completed diagnostic with every field of the spec', async () => {
    const created = await req('/v1/diagnostics', {
      account_id: ws.accountId,
      campaign_id: campaignId,
      date_start: FROM,
      date_end: TODAY,
    });
    expect(created.status).toBe(202);
    expect(Object.keys(created.body.data ?? {}).sort()).toEqual([
      'campaignId',
      'createdAt',
      'estimatedCompletionSeconds',
      'id',
      'status',
    ]);
    expect(created.body.data).toMatchObject({ campaignId, status: 'pending' });
    expect(Number.isInteger(created.body.data?.estimatedCompletionSeconds)).toBe(true);

    const done = await untilDone(String(created.body.data?.id));
    const d = DiagnosticDetailSchema.parse(done.data);
    for (const field of [
      'id',
      'campaignId',
      'campaignName',
      'status',
      'riskLevel',
      'summary',
      'issuesDetected',
      'recommendationCount',
      'createdAt',
      'completedAt',
      'platformCampaignId',
      'dateRange',
      'metrics',
      'issues',
      'recommendations',
      'andromedaContext',
      'processingTimeMs',
    ]) {
      expect(done.data, field).toHaveProperty(field);
    }
    expect(d.status).toBe('completed');
    expect(d.id).toMatch(/^diag_/);
    expect(d.dateRange).toEqual({ from: FROM, to: TODAY });
    expect(Object.keys(d.metrics ?? {}).sort()).toEqual([
      'clicks',
      'conversions',
      'cpa',
      'cpm',
      'ctr',
      'currency',
      'impressions',
      'roas',
      'spend',
    ]);
    expect(d.issuesDetected).toBe(d.issues.length);
    expect(d.recommendationCount).toBe(d.recommendations.length);
    expect(d.recommendations.length).toBeGreaterThanOrEqual(1);
    expect(d.recommendations.length).toBeLessThanOrEqual(3);
    expect(d.recommendations.map((r) => r.priority)).toEqual(d.recommendations.map((_, i) => i + 1));
    const fatigue = d.issues.find((i) => i.type === 'CREATIVE_FATIGUE');
    expect(fatigue?.id).toMatch(/^issue_\d+$/);
    expect(fatigue?.affectedEntity).toMatchObject({ type: 'adSet', name: 'US broad' });
    expect(fatigue?.evidence).toHaveProperty('frequencyTrend');
    expect(fatigue?.evidence).toHaveProperty('ctrTrend');
    for (const r of d.recommendations)
      for (const issue of r.relatedIssues) expect(d.issues.map((i) => i.id)).toContain(issue);
    expect(d.andromedaContext).toMatchObject({ riskAppetite: 'MEDIUM', focusMetric: 'CPA' });
    expect(d.processingTimeMs).toBeGreaterThanOrEqual(1);
    expect(d.summary).toContain('Spring Sale');

    // The campaign list's latestDiagnostic follows.
    const list = await call(t.url, `/v1/campaigns?account_id=${ws.accountId}`, { key });
    const row = (list.body as { data: { id: string; latestDiagnostic?: { id: string } | null }[] }).data.find(
      (c) => c.id === campaignId,
    );
    expect(row?.latestDiagnostic?.id).toBe(d.id);
  });

  it('runs an account-level diagnostic when campaign_id is left out', async () => {
    const created = await req('/v1/diagnostics', {
      account_id: ws.accountId,
      date_start: FROM,
      date_end: TODAY,
    });
    expect(created.status).toBe(202);
    expect(created.body.data?.campaignId).toBeNull();
    const done = DiagnosticDetailSchema.parse((await untilDone(String(created.body.data?.id))).data);
    expect(done).toMatchObject({
      status: 'completed',
      campaignId: null,
      campaignName: null,
      platformCampaignId: null,
    });
    expect(done.issues.length).toBeGreaterThan(0);
  });

  it('answers 409 diagnostic_in_progress while one is pending for the campaign', async () => {
    t.core.db
      .prepare(
        `INSERT INTO diagnostics (id, workspace_id, account_id, campaign_id, status, date_from, date_to, created_at)
         VALUES ('diag_StillRunning0001', ?, ?, ?, 'running', ?, ?, ?)`,
      )
      .run(ws.workspaceId, ws.accountId, campaignId, FROM, TODAY, `${TODAY}T11:00:00.000Z`);
    const res = await req('/v1/diagnostics', { account_id: ws.accountId, campaign_id: campaignId });
    expect(res.status).toBe(409);
    expect(res.body.error?.type).toBe('diagnostic_in_progress');
    t.core.db.prepare(`DELETE FROM diagnostics WHERE id = 'diag_StillRunning0001'`).run();
  });

  it('answers 422 campaign_not_synced for a campaign whose insights were never synced', async () => {
    const unsynced = insertCampaign(
      t.core.db,
      ws.accountId,
      buildCampaign({
        name: 'Just connected',
        today: TODAY,
        days: 10,
        adSets: [{ name: 'US', ads: [{ name: 'A' }] }],
      }),
      false,
    );
    const res = await req('/v1/diagnostics', { account_id: ws.accountId, campaign_id: unsynced });
    expect(res.status).toBe(422);
    expect(res.body.error?.type).toBe('campaign_not_synced');
  });
});
