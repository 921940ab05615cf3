import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../ids';
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

  type Res = { status: number; body: Record<string, any>; text: string }; // eslint-disable-line @typescript-eslint/no-explicit-any

  async function req(path: string, key: string, body?: unknown): Promise<Res> {
    const res = await call(t.url, path, { key, body });
    check(body === undefined ? 'GET' : 'POST', path, res.status, res.body);
    return res as Res;
  }

  async function insertDiagnostic(
    workspaceId: string,
    accountId: string,
    campaignId: string | null,
    status: string,
  ): Promise<string> {
    const id = newId('diag');
    await t.core.sql.run(
      `INSERT INTO diagnostics (id, workspace_id, account_id, campaign_id, status, date_from, date_to, created_at)
       VALUES (?, ?, ?, ?, ?, '2026-03-01', '2026-03-07', '2026-03-08T00:00:00.000Z')`,
      [id, workspaceId, accountId, campaignId, status],
    );
    return id;
  }

  beforeAll(async () => {
    ({ t, s, check } = await startScenarioApi(engine));
    writerKey = (
      await seedKey(t.core.sql, t.clock, {
        workspaceId: s.a.workspaceId,
        limitOverrides: { writes: 1000, diagnostics: 1000 },
      })
    ).key;
  });
  afterAll(async () => {
    await t.close();
  });

  describe('POST /v1/diagnostics', () => {
    it('creates a pending diagnostic that completes, then shows in list, detail and the campaign', async () => {
      const created = await req('/v1/diagnostics', writerKey, {
        account_id: s.a1.platformAccountId,
        campaign_id: s.c1,
      });
      expect(created.status).toBe(202);
      expect(created.body.data).toMatchObject({ campaignId: s.c1, status: 'pending' });
      expect(created.body.data.estimatedCompletionSeconds).toBeGreaterThan(0);
      const id = created.body.data.id as string;
      const deadline = Date.now() + 15_000;
      let detail: Res;
      do {
        detail = await req(`/v1/diagnostics/${id}`, writerKey);
        if (detail.body.data.status === 'completed' || detail.body.data.status === 'failed') break;
        await new Promise((r) => setTimeout(r, 25));
      } while (Date.now() < deadline);
      expect(detail.body.data.status).toBe('completed');
      expect(detail.body.data.dateRange).toEqual({ from: '2026-03-03', to: '2026-03-10' });
      expect(Number.isInteger(detail.body.data.processingTimeMs)).toBe(true);
      const list = await req(`/v1/diagnostics?account_id=${s.a1.id}`, writerKey);
      expect(list.body.data.map((d: { id: string }) => d.id)).toContain(id);
      expect(list.body.pagination.total).toBeGreaterThanOrEqual(1);
      const campaigns = await req('/v1/campaigns', writerKey);
      const alpha = campaigns.body.data.find((c: { id: string }) => c.id === s.c1);
      expect(alpha.latestDiagnostic.id).toBe(id);
      const withDiagnostics = await req(`/v1/campaigns/${s.c1}?include=diagnostics`, writerKey);
      expect(withDiagnostics.body.data.diagnostics[0].id).toBe(id);
    });

    it('answers 409 diagnostic_in_progress while one runs for the campaign', async () => {
      const running = await insertDiagnostic(s.a.workspaceId, s.a1.id, s.c2, 'running');
      const res = await req('/v1/diagnostics', writerKey, { account_id: s.a1.id, campaign_id: s.c2 });
      expect(res.status).toBe(409);
      expect(res.body.error.type).toBe('diagnostic_in_progress');
      await t.core.sql.run(`UPDATE diagnostics SET status = 'failed' WHERE id = ?`, [running]);
    });

    it('answers 422 campaign_not_synced for a campaign whose insights were never read', async () => {
      const res = await req('/v1/diagnostics', writerKey, { account_id: s.a1.id, campaign_id: s.c3 });
      expect(res.status).toBe(422);
      expect(res.body.error.type).toBe('campaign_not_synced');
    });

    it('validates the body, IDs and dates', async () => {
      const cases: Array<[unknown, number, string]> = [
        [{}, 400, 'invalid_request'],
        [{ account_id: 'nope' }, 400, 'invalid_request'],
        [{ account_id: s.a1.id, campaign_id: 'c1' }, 400, 'invalid_request'],
        [{ account_id: s.a1.id, extra: 1 }, 400, 'invalid_request'],
        [{ account_id: s.a1.id, date_start: '2026-13-01' }, 400, 'invalid_request'],
        [
          { account_id: s.a1.id, date_start: '2026-03-09', date_end: '2026-03-01' },
          400,
          'invalid_date_range',
        ],
        [
          { account_id: s.a1.id, date_start: '2025-01-01', date_end: '2026-03-01' },
          400,
          'invalid_date_range',
        ],
        [{ account_id: s.b1.id }, 403, 'permission_error'],
        [{ account_id: 'act_99999999' }, 404, 'not_found'],
        [{ account_id: s.a1.id, campaign_id: s.cb }, 404, 'not_found'],
        [{ account_id: s.a1.id, campaign_id: s.c5 }, 404, 'not_found'],
        [{ account_id: s.a2.id }, 404, 'not_found'],
      ];
      for (const [body, status, type] of cases) {
        const res = await req('/v1/diagnostics', writerKey, body);
        expect([res.status, res.body.error?.type], JSON.stringify(body)).toEqual([status, type]);
      }
    });
  });

  describe('GET /v1/diagnostics', () => {
    it('never shows another workspace diagnostic, nor another mode one', async () => {
      const foreign = await insertDiagnostic(s.b.workspaceId, s.b1.id, s.cb, 'completed');
      expect((await req(`/v1/diagnostics/${foreign}`, writerKey)).status).toBe(404);
      const live = await insertDiagnostic(s.a.workspaceId, s.a1.id, s.c1, 'failed');
      expect((await req(`/v1/diagnostics/${live}`, s.keys.testA.key)).status).toBe(404);
      const list = await req('/v1/diagnostics', s.keys.testA.key);
      expect(list.body.data).toEqual([]);
      expect(list.body.pagination).toEqual({ total: 0, page: 1, page_size: 20, hasMore: false });
      expect((await req('/v1/diagnostics/diag_bad', writerKey)).status).toBe(400);
    });
    it('filters and validates its query', async () => {
      const failed = await req('/v1/diagnostics?status=failed&page_size=5', writerKey);
      expect(failed.body.data.every((d: { status: string }) => d.status === 'failed')).toBe(true);
      expect((await req('/v1/diagnostics?risk_level=SEVERE', writerKey)).status).toBe(400);
      expect((await req('/v1/diagnostics?page_size=101', writerKey)).status).toBe(400);
      expect(
        (await req('/v1/diagnostics?date_start=2026-03-05&date_end=2026-03-01', writerKey)).body.error.type,
      ).toBe('invalid_date_range');
      expect((await req(`/v1/diagnostics?account_id=${s.b1.id}`, writerKey)).status).toBe(403);
      expect((await req(`/v1/diagnostics?campaign_id=${s.cb}`, writerKey)).status).toBe(404);
    });
    it('refuses a filter range longer than 90 days, and accepts 90 days', async () => {
      // 2025-12-01..2026-03-01 is 91 calendar days; 2025-12-02..2026-03-01 is 90.
      const long = await req('/v1/diagnostics?date_start=2025-12-01&date_end=2026-03-01', writerKey);
      expect([long.status, long.body.error?.type]).toEqual([400, 'invalid_date_range']);
      const ninety = await req('/v1/diagnostics?date_start=2025-12-02&date_end=2026-03-01', writerKey);
      expect(ninety.status).toBe(200);
      // One open end is not a range to measure: everything since (or until) that day.
      expect((await req('/v1/diagnostics?date_start=2025-01-01', writerKey)).status).toBe(200);
    });
  });
});
