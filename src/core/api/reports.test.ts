import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseChecker } from '../../test-support/openapi-check';
import type { Scenario } from '../../test-support/api-scenario';
import { seedKey } from '../../test-support/api-fixtures';
import { call, startScenarioApi, type TestApi } from '../../test-support/api-server';
import { ENGINES } from '../../test-support/engines';

describe.each(ENGINES)('on %s', (engine) => {
  let t: TestApi;
  let s: Scenario;
  let check: ReturnType<typeof responseChecker>;
  let key: string;
  let trialKey: string;

  type Res = { status: number; headers: Headers; body: Record<string, any>; text: string }; // eslint-disable-line @typescript-eslint/no-explicit-any

  async function req(path: string, k: string, body?: unknown): Promise<Res> {
    const res = await call(t.url, path, { key: k, body });
    if (res.body !== undefined) check(body === undefined ? 'GET' : 'POST', path, res.status, res.body);
    return res as Res;
  }

  const PNG_1x1 =
    'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

  beforeAll(async () => {
    ({ t, s, check } = await startScenarioApi(engine));
    const raised = { writes: 1000, reports: 1000 };
    key = (await seedKey(t.core.sql, t.clock, { workspaceId: s.a.workspaceId, limitOverrides: raised })).key;
    trialKey = (
      await seedKey(t.core.sql, t.clock, {
        workspaceId: s.trial.workspaceId,
        mode: 'test',
        limitOverrides: raised,
      })
    ).key;
  });
  afterAll(async () => {
    await t.close();
  });

  describe('reports', () => {
    it('generates a report, lists it, and downloads it through its signed URL with the key', async () => {
      const created = await req('/v1/reports', key, {
        account_id: s.a1.platformAccountId,
        title: 'March review',
        date_start: '2026-03-01',
        date_end: '2026-03-10',
        format: 'markdown',
        campaign_ids: [s.c1, s.c2],
      });
      expect(created.status).toBe(202);
      expect(created.body.data).toMatchObject({
        title: 'March review',
        accountId: s.a1.id,
        status: 'generating',
        dateRange: { from: '2026-03-01', to: '2026-03-10' },
      });
      const id = created.body.data.id as string;
      const deadline = Date.now() + 20_000;
      let report: Res;
      do {
        report = await req(`/v1/reports/${id}`, key);
        if (report.body.data.status !== 'generating') break;
        await new Promise((r) => setTimeout(r, 25));
      } while (Date.now() < deadline);
      expect(report.body.data.status).toBe('completed');
      const list = await req(`/v1/reports?accountId=${s.a1.id}&status=completed`, key);
      expect(list.body.data.map((r: { id: string }) => r.id)).toContain(id);
      const url = new URL(report.body.data.downloadUrl as string);
      expect(url.origin).toBe(t.url);
      const file = await call(t.url, `${url.pathname}${url.search}`, { key });
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toMatch(/^text\/markdown/);
      expect(file.headers.get('content-disposition')).toMatch(/^attachment/);
      expect(file.text).toContain('March review');
      // The link needs the key, a good signature, and a key that may see the report.
      expect((await call(t.url, `${url.pathname}${url.search}`, {})).status).toBe(401);
      const tampered = url.search.replace(/signature=[0-9a-f]/, (m) =>
        m.endsWith('0') ? m.slice(0, -1) + '1' : m.slice(0, -1) + '0',
      );
      expect((await call(t.url, `${url.pathname}${tampered}`, { key })).status).toBe(404);
      expect((await call(t.url, `${url.pathname}${url.search}`, { key: s.keys.liveB.key })).status).toBe(404);
      // Missing or malformed parts, and any other spelling of the signed text, are 404 like a bad
      // signature (DESIGN §5): the signature covers the exact `expires` text.
      const expires = url.searchParams.get('expires') as string;
      const signature = url.searchParams.get('signature') as string;
      for (const search of [
        '',
        `?signature=${signature}`,
        `?expires=${expires}`,
        `?expires=0${expires}&signature=${signature}`,
        `?expires=+${expires}&signature=${signature}`,
        `?expires=${expires}&signature=${signature.toUpperCase()}`,
        `?expires=soon&signature=xyz`,
      ]) {
        const res = await call(t.url, `${url.pathname}${search}`, { key });
        expect(res.status, search).toBe(404);
        expect((res.body as { error: { type: string } }).error.type).toBe('not_found');
      }
    });

    it('refuses more than 20 campaigns with too_many_campaigns', async () => {
      const ids = Array.from({ length: 21 }, (_, i) => `camp_${String(i).padStart(16, 'A')}`);
      const res = await req('/v1/reports', key, {
        account_id: s.a1.id,
        title: 'x',
        date_start: '2026-03-01',
        date_end: '2026-03-02',
        campaign_ids: ids,
      });
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe('too_many_campaigns');
    });

    it('allows white-label on agency and refuses it on trial with white_label_not_available', async () => {
      const whiteLabel = { companyName: 'Northwind Media', logo: PNG_1x1, primaryColor: '#123abc' };
      const agency = await req('/v1/reports', key, {
        account_id: s.a1.id,
        title: 'Branded',
        date_start: '2026-03-01',
        date_end: '2026-03-02',
        format: 'json',
        whiteLabel,
      });
      expect(agency.status).toBe(202);
      const trial = await req('/v1/reports', trialKey, {
        account_id: s.trialAccount.id,
        title: 'Branded',
        date_start: '2026-03-01',
        date_end: '2026-03-02',
        whiteLabel,
      });
      expect(trial.status).toBe(403);
      expect(trial.body.error.type).toBe('white_label_not_available');
    });

    it('refuses an empty campaign_ids list instead of generating a report of nothing', async () => {
      const res = await req('/v1/reports', key, {
        account_id: s.a1.id,
        title: 'Empty',
        date_start: '2026-03-01',
        date_end: '2026-03-02',
        campaign_ids: [],
      });
      expect([res.status, res.body.error?.type]).toEqual([400, 'invalid_request']);
      expect(res.body.error.message).toMatch(/campaign_ids/);
    });

    it('validates the body, IDs and dates', async () => {
      const base = { account_id: s.a1.id, title: 'T', date_start: '2026-03-01', date_end: '2026-03-02' };
      const cases: Array<[unknown, number, string]> = [
        [{ ...base, title: undefined }, 400, 'invalid_request'],
        [{ ...base, format: 'docx' }, 400, 'invalid_request'],
        [{ ...base, campaign_ids: ['bad'] }, 400, 'invalid_request'],
        [{ ...base, date_start: '2026-03-05' }, 400, 'invalid_date_range'],
        [{ ...base, date_start: '2025-01-01' }, 400, 'invalid_date_range'],
        [{ ...base, account_id: s.b1.id }, 403, 'permission_error'],
        [{ ...base, campaign_ids: [s.cb] }, 404, 'not_found'],
        [{ ...base, campaign_ids: [s.c5] }, 404, 'not_found'],
        [{ ...base, whiteLabel: { companyName: 'X', primaryColor: 'red' } }, 400, 'invalid_request'],
      ];
      for (const [body, status, type] of cases) {
        const res = await req('/v1/reports', key, body);
        expect([res.status, res.body.error?.type], JSON.stringify(body)).toEqual([status, type]);
      }
    });

    it('isolates reports between workspaces and modes, and validates list filters', async () => {
      const listB = await req('/v1/reports', s.keys.liveB.key);
      expect(listB.body.data).toEqual([]);
      const listTest = await req('/v1/reports', s.keys.testA.key);
      expect(listTest.body.data).toEqual([]);
      expect((await req('/v1/reports?from=2026-03-10&to=2026-03-01', key)).body.error.type).toBe(
        'invalid_date_range',
      );
      expect((await req('/v1/reports?campaign_id=x', key)).status).toBe(400);
      expect((await req(`/v1/reports?accountId=${s.b1.id}`, key)).status).toBe(403);
      expect((await req('/v1/reports/rpt_AAAAAAAAAAAAAAAA', key)).status).toBe(404);
    });

    it('checks the from/to filter as a date range: a date `to` covers its day, at most 90 days', async () => {
      const cases: [string, number][] = [
        // Same day: 10:00 until the end of 2026-03-10 (the store reads a date `to` that way).
        ['from=2026-03-10T10:00:00Z&to=2026-03-10', 200],
        ['from=2025-12-02&to=2026-03-01', 200],
        ['from=2025-12-01T00:00:00Z&to=2026-03-01T00:00:00Z', 200],
        ['from=2025-12-01&to=2026-03-01', 400],
        ['from=2025-12-01T00:00:00Z&to=2026-03-01T00:00:01Z', 400],
        ['from=2026-03-10T10:00:01Z&to=2026-03-10T10:00:00Z', 400],
      ];
      for (const [q, status] of cases) {
        const res = await req(`/v1/reports?${q}`, key);
        expect(res.status, q).toBe(status);
        if (status === 400) expect(res.body.error.type, q).toBe('invalid_date_range');
      }
    });
  });
});
