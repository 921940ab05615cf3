// /v1/issues and /v1/accounts/{id}/schedule (additions to the spec): the envelopes and the OpenAPI
// document, the live-state default, acknowledge and snooze, validation, and workspace isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileIssues } from '../issues/lifecycle';
import { responseChecker } from '../../test-support/openapi-check';
import type { Scenario } from '../../test-support/api-scenario';
import { seedKey } from '../../test-support/api-fixtures';
import { call, startScenarioApi, type TestApi } from '../../test-support/api-server';
import { ENGINES } from '../../test-support/engines';

describe.each(ENGINES)('on %s', (engine) => {
  let t: TestApi;
  let s: Scenario;
  let check: ReturnType<typeof responseChecker>;
  let writerKey: string;

  type Res = { status: number; body: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any

  async function req(path: string, key: string, body?: unknown): Promise<Res> {
    const res = await call(t.url, path, { key, body });
    check(body === undefined ? 'GET' : 'POST', path, res.status, res.body);
    return res as Res;
  }

  const found = (campaignId: string, type: string, severity: 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL') => ({
    campaignId,
    type,
    entity: { id: campaignId, name: 'Alpha prospecting' },
    severity,
    title: `${type} on Alpha`,
    description: 'what the diagnosis saw',
    evidence: { pacingRate: 1.9 },
  });

  beforeAll(async () => {
    ({ t, s, check } = await startScenarioApi(engine));
    writerKey = (
      await seedKey(t.core.sql, t.clock, {
        workspaceId: s.a.workspaceId,
        limitOverrides: { writes: 1000 },
      })
    ).key;
    const base = { workspaceId: s.a.workspaceId, accountId: s.a1.id, judgedCampaignIds: [s.c1] };
    await reconcileIssues(t.app.core, {
      ...base,
      diagnosticId: 'diag_FirstDiagnosis01',
      found: [found(s.c1, 'PACING_ISSUE', 'MEDIUM'), found(s.c1, 'CPA_DEGRADATION', 'HIGH')],
    });
    // The next diagnosis: pacing got worse, the CPA problem is gone.
    await reconcileIssues(t.app.core, {
      ...base,
      diagnosticId: 'diag_SecondDiagnosis1',
      found: [found(s.c1, 'PACING_ISSUE', 'CRITICAL')],
    });
  });
  afterAll(async () => {
    await t.close();
  });

  describe('GET /v1/issues', () => {
    it('lists the live issues by default, worst first, with their history', async () => {
      const list = await req('/v1/issues', s.keys.liveA.key);
      expect(list.status).toBe(200);
      expect(list.body.data.map((i: { type: string }) => i.type)).toEqual(['PACING_ISSUE']);
      expect(list.body.data[0]).toMatchObject({
        state: 'open',
        severity: 'CRITICAL',
        peakSeverity: 'CRITICAL',
        campaignName: 'Alpha prospecting',
        diagnosticId: 'diag_SecondDiagnosis1',
      });
      expect(list.body.data[0].history.map((h: { change: string }) => h.change)).toEqual([
        'opened',
        'worsened',
      ]);
      const resolved = await req('/v1/issues?state=resolved', s.keys.liveA.key);
      expect(resolved.body.data.map((i: { type: string }) => i.type)).toEqual(['CPA_DEGRADATION']);
      expect(
        (await req(`/v1/issues?account_id=${s.a1.platformAccountId}&min_severity=CRITICAL`, s.keys.liveA.key))
          .body.pagination.total,
      ).toBe(1);
    });

    it('refuses bad filters with 400 and never shows another workspace its issues', async () => {
      expect((await req('/v1/issues?state=closed', s.keys.liveA.key)).status).toBe(400);
      expect((await req('/v1/issues?account_id=nope', s.keys.liveA.key)).status).toBe(400);
      expect((await req('/v1/issues', s.keys.liveB.key)).body.data).toEqual([]);
      const id = (await req('/v1/issues', s.keys.liveA.key)).body.data[0].id as string;
      expect((await req(`/v1/issues/${id}`, s.keys.liveB.key)).status).toBe(404);
      expect((await req(`/v1/issues/${id}/acknowledge`, s.keys.liveB.key, {})).status).toBe(404);
    });
  });

  describe('POST /v1/issues/{id}/acknowledge and /snooze', () => {
    it('acknowledges, snoozes until a date or until worse, and refuses a snooze without either', async () => {
      const id = (await req('/v1/issues', writerKey)).body.data[0].id as string;
      const acknowledged = await req(`/v1/issues/${id}/acknowledge`, writerKey, {});
      expect(acknowledged.status).toBe(200);
      expect(acknowledged.body.data.state).toBe('acknowledged');
      expect((await req(`/v1/issues/${id}/snooze`, writerKey, {})).status).toBe(400);
      expect((await req(`/v1/issues/${id}/snooze`, writerKey, { until: '2026-01-01' })).status).toBe(400);
      const snoozed = await req(`/v1/issues/${id}/snooze`, writerKey, {
        until: '2026-03-20',
        untilWorse: true,
      });
      expect(snoozed.body.data).toMatchObject({
        state: 'snoozed',
        snoozedUntil: '2026-03-20',
        snoozeUntilWorse: true,
      });
      expect(
        (await req(`/v1/issues/${id}`, writerKey)).body.data.history.map((h: { change: string }) => h.change),
      ).toEqual(['opened', 'worsened', 'acknowledged', 'snoozed']);
    });
  });

  describe('GET /v1/accounts/{id}/schedule', () => {
    it('says when the account syncs next and at what interval', async () => {
      const res = await req(`/v1/accounts/${s.a1.platformAccountId}/schedule`, s.keys.liveA.key);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        accountId: s.a1.id,
        intervalMinutes: 60,
        intervalSource: 'default',
      });
      expect((await req(`/v1/accounts/${s.b1.platformAccountId}/schedule`, s.keys.liveA.key)).status).toBe(
        403,
      );
    });
  });
});
