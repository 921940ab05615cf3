import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '../identity/api-keys';
import { responseChecker } from '../../test-support/openapi-check';
import { createApiServer } from './server';
import { seedKey } from '../../test-support/api-fixtures';
import type { Scenario } from '../../test-support/api-scenario';
import { call, startScenarioApi, type TestApi } from '../../test-support/api-server';
import { ENGINES } from '../../test-support/engines';

// The same conformance on a solo install's SQLite file and on a team server process's PostgreSQL.
describe.each(ENGINES)('the /v1 server on %s', (engine) => {
  let t: TestApi;
  let s: Scenario;
  let check: ReturnType<typeof responseChecker>;

  /** A request whose JSON response is validated against the served OpenAPI document. */
  async function get(
    path: string,
    key: string | undefined,
    opts: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) {
    const res = await call(t.url, path, { key, ...opts });
    if (res.body !== undefined && path.startsWith('/v1/') && !path.startsWith('/v1/openapi')) {
      check(opts.method ?? (opts.body !== undefined ? 'POST' : 'GET'), path, res.status, res.body);
    }
    return res as { status: number; headers: Headers; body: Record<string, any>; text: string }; // eslint-disable-line @typescript-eslint/no-explicit-any
  }

  beforeAll(async () => {
    ({ t, s, check } = await startScenarioApi(engine));
  });
  afterAll(async () => {
    await t.close();
  });

  describe('authentication (spec rules 1-7)', () => {
    it('rejects a missing key with 401 authentication_error', async () => {
      const res = await get('/v1/accounts', undefined);
      expect(res.status).toBe(401);
      expect(res.body.error.type).toBe('authentication_error');
    });
    it('rejects a key with another prefix, and a malformed one', async () => {
      for (const key of ['sk_live_abc', 'service_prod_' + 'a'.repeat(32), 'service_live_short']) {
        const res = await get('/v1/accounts', key);
        expect(res.status).toBe(401);
        expect(res.body.error.type).toBe('authentication_error');
      }
    });
    it('rejects a well-formed unknown key with 401 authentication_error', async () => {
      const res = await get('/v1/accounts', 'service_live_' + 'A'.repeat(32));
      expect(res.status).toBe(401);
      expect(res.body.error.type).toBe('authentication_error');
    });
    it('rejects a revoked key with 401 key_revoked', async () => {
      const res = await get('/v1/accounts', s.keys.revoked.key);
      expect(res.status).toBe(401);
      expect(res.body.error.type).toBe('key_revoked');
    });
    it('rejects an expired key with 401 authentication_error saying it expired', async () => {
      const res = await get('/v1/accounts', s.keys.expired.key);
      expect(res.status).toBe(401);
      expect(res.body.error.type).toBe('authentication_error');
      expect(res.body.error.message).toMatch(/expired/);
    });
    it('refuses starter and pro plans with 403 plan_insufficient, admits agency and trial', async () => {
      for (const key of [s.keys.starter.key, s.keys.pro.key]) {
        const res = await get('/v1/accounts', key);
        expect(res.status).toBe(403);
        expect(res.body.error.type).toBe('plan_insufficient');
      }
      expect((await get('/v1/accounts', s.keys.trial.key)).status).toBe(200);
      expect((await get('/v1/accounts', s.keys.liveA.key)).status).toBe(200);
    });
    it('refuses a key as soon as it is revoked, even right after it was used', async () => {
      const fresh = await seedKey(t.core.sql, t.clock, { workspaceId: s.a.workspaceId });
      expect((await get('/v1/accounts', fresh.key)).status).toBe(200);
      await revokeApiKey(t.core.sql, t.clock, fresh.id);
      const res = await get('/v1/accounts', fresh.key);
      expect(res.status).toBe(401);
      expect(res.body.error.type).toBe('key_revoked');
    });
    it('stores keys hashed only', async () => {
      const rows = await t.core.sql.all<{ key_hash: string; hint: string }>(
        `SELECT key_hash, hint FROM api_keys`,
      );
      const secrets = Object.values(s.keys).map((k) => k.key);
      for (const row of rows) {
        expect(secrets).not.toContain(row.key_hash);
        expect(row.hint).toMatch(/^service_(live|test)_…[0-9A-Za-z]{4}$/);
      }
    });
  });

  describe('version header, request IDs and errors', () => {
    it('defaults to 2026-03-01 and echoes it', async () => {
      const res = await get('/v1/accounts', s.keys.liveA.key);
      expect(res.headers.get('service-version')).toBe('2026-03-01');
      expect(res.headers.get('request-id')).toMatch(/^req_[0-9a-f]{32}$/);
      const explicit = await get('/v1/accounts', s.keys.liveA.key, {
        headers: { 'service-version': '2026-03-01' },
      });
      expect(explicit.status).toBe(200);
    });
    it('rejects an unknown version with 400 invalid_request naming the supported ones', async () => {
      const res = await get('/v1/accounts', s.keys.liveA.key, {
        headers: { 'service-version': '2025-01-01' },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe('invalid_request');
      expect(res.body.error.message).toContain('2026-03-01');
    });
    it('answers an unknown route with 404 not_found, with or without a key', async () => {
      for (const path of ['/v1/nope', '/v1/campaigns/camp_AAAAAAAAAAAAAAAA/extra', '/elsewhere']) {
        const res = await call(t.url, path, { key: s.keys.liveA.key });
        expect(res.status).toBe(404);
        expect((res.body as { error: { type: string } }).error.type).toBe('not_found');
      }
      const wrongMethod = await call(t.url, '/v1/accounts', { key: s.keys.liveA.key, method: 'DELETE' });
      expect(wrongMethod.status).toBe(404);
    });
    it('refuses page_size over 100 or below 1, and unknown query parameters', async () => {
      for (const q of ['page_size=101', 'page_size=0', 'page=0', 'page=abc', 'colour=red', 'page=1&page=2']) {
        const res = await get(`/v1/accounts?${q}`, s.keys.liveA.key);
        expect(res.status, q).toBe(400);
        expect(res.body.error.type).toBe('invalid_request');
      }
      expect((await get('/v1/accounts?page_size=100', s.keys.liveA.key)).status).toBe(200);
    });
    it('parses page and page_size the same way on every list (digits only, defaults 1 and 20)', async () => {
      const key = (await seedKey(t.core.sql, t.clock, { workspaceId: s.a.workspaceId })).key;
      for (const list of ['/v1/accounts', '/v1/campaigns', '/v1/diagnostics', '/v1/reports']) {
        for (const q of ['page=0x2', 'page=1e1', 'page=1.5', 'page=%202', 'page_size=2.0', 'page_size=']) {
          const res = await get(`${list}?${q}`, key);
          expect([res.status, res.body.error?.type], `${list}?${q}`).toEqual([400, 'invalid_request']);
          expect(res.body.error.message, `${list}?${q}`).not.toMatch(/is required/);
        }
        const defaults = await get(list, key);
        expect(defaults.body.pagination, list).toMatchObject({ page: 1, page_size: 20 });
        const paged = await get(`${list}?page=2&page_size=1`, key);
        expect(paged.body.pagination, list).toMatchObject({ page: 2, page_size: 1 });
      }
    });
    it('refuses bad ID formats with 400 and unknown well-formed IDs with 404', async () => {
      expect((await get('/v1/campaigns/12345', s.keys.liveA.key)).body.error.type).toBe('invalid_request');
      expect((await get('/v1/accounts/act_x!', s.keys.liveA.key)).body.error.type).toBe('invalid_request');
      const missing = await get('/v1/campaigns/camp_AAAAAAAAAAAAAAAA', s.keys.liveA.key);
      expect(missing.status).toBe(404);
      expect(missing.body.error.type).toBe('not_found');
    });
  });

  describe('accounts', () => {
    it('lists the key workspace and mode only, with pagination and meta', async () => {
      const res = await get('/v1/accounts', s.keys.liveA.key);
      expect(res.status).toBe(200);
      expect(res.body.data.map((a: { id: string }) => a.id).sort()).toEqual([s.a1.id, s.a3.id].sort());
      expect(res.body.pagination).toEqual({ total: 2, page: 1, page_size: 20, hasMore: false });
      expect(res.body.meta.remaining_requests).toBeGreaterThan(0);
      const a1 = res.body.data.find((a: { id: string }) => a.id === s.a1.id);
      expect(a1).toMatchObject({
        platformAccountId: s.a1.platformAccountId,
        currency: 'USD',
        connectionStatus: 'active',
        campaignCount: 3,
        activeCampaignCount: 2,
        permissions: ['read_insights', 'read_campaigns', 'read_ads'],
        connectedBy: s.a.ownerId,
      });
      // 20 days × 10.00 (c1, 2026-02-19..03-10 all within 30 days) + 10 days × 5.00 (c2).
      expect(a1.totalSpendLast30d).toBe(250);
    });
    it('filters on connection status and pages', async () => {
      const expired = await get('/v1/accounts?status=token_expired', s.keys.liveA.key);
      expect(expired.body.data.map((a: { id: string }) => a.id)).toEqual([s.a3.id]);
      const page = await get('/v1/accounts?page=2&page_size=1', s.keys.liveA.key);
      expect(page.body.data).toHaveLength(1);
      expect(page.body.pagination).toEqual({ total: 2, page: 2, page_size: 1, hasMore: false });
      const first = await get('/v1/accounts?page=1&page_size=1', s.keys.liveA.key);
      expect(first.body.pagination.hasMore).toBe(true);
    });
    it('gets one account by service or platform ID; other mode 404; other workspace 403', async () => {
      expect((await get(`/v1/accounts/${s.a1.id}`, s.keys.liveA.key)).body.data.id).toBe(s.a1.id);
      expect((await get(`/v1/accounts/${s.a1.platformAccountId}`, s.keys.liveA.key)).body.data.id).toBe(
        s.a1.id,
      );
      const otherMode = await get(`/v1/accounts/${s.a2.id}`, s.keys.liveA.key);
      expect(otherMode.status).toBe(404);
      const foreign = await get(`/v1/accounts/${s.b1.id}`, s.keys.liveA.key);
      expect(foreign.status).toBe(403);
      expect(foreign.body.error.type).toBe('permission_error');
      expect(foreign.text).not.toContain('B1 Other');
      const foreignPlatform = await get(`/v1/accounts/${s.b1.platformAccountId}`, s.keys.liveA.key);
      expect(foreignPlatform.status).toBe(403);
    });
    it('answers a name outside ASCII whole, its length counted in bytes', async () => {
      const name = 'Café Zürich — 東京 🚀';
      const original = (await get(`/v1/accounts/${s.a1.id}`, s.keys.liveA.key)).body.data.name as string;
      await t.runElsewhere('UPDATE ad_accounts SET name = ? WHERE id = ?', [name, s.a1.id]);
      try {
        const res = await get(`/v1/accounts/${s.a1.id}`, s.keys.liveA.key);
        expect(res.body.data.name).toBe(name);
        expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(res.text));
      } finally {
        await t.runElsewhere('UPDATE ad_accounts SET name = ? WHERE id = ?', [original, s.a1.id]);
      }
    });
    it('refuses to sync an account whose token expired (400) and a foreign one (403)', async () => {
      const expired = await get(`/v1/accounts/${s.a3.id}/sync`, s.keys.liveA.key, { method: 'POST' });
      expect(expired.status).toBe(400);
      expect(expired.body.error.message).toMatch(/token_expired/);
      const foreign = await get(`/v1/accounts/${s.b1.id}/sync`, s.keys.liveA.key, { method: 'POST' });
      expect(foreign.status).toBe(403);
    });
  });

  describe('campaigns', () => {
    it('lists campaigns with last-7-day insights, counts and null ratios on zero denominators', async () => {
      const res = await get('/v1/campaigns', s.keys.liveA.key);
      expect(res.status).toBe(200);
      const names = res.body.data.map((c: { name: string }) => c.name);
      expect(names).toEqual(['Alpha prospecting', 'Beta retargeting', 'Euro campaign', 'Gamma new']);
      const alpha = res.body.data[0];
      expect(alpha).toMatchObject({
        id: s.c1,
        accountId: s.a1.id,
        adSetCount: 2,
        adCount: 3,
        currency: 'USD',
        dailyBudget: 50,
        latestDiagnostic: null,
      });
      expect(alpha.createdAt).toMatch(/Z$/);
      expect(alpha.insights).toEqual({
        spend: 70,
        impressions: 7000,
        clicks: 140,
        conversions: 14,
        cpa: 5,
        roas: 3,
        ctr: 2,
        cpm: 10,
        dateRange: 'last_7d',
      });
      const beta = res.body.data[1];
      expect(beta.insights.cpa).toBeNull();
      expect(beta.insights.roas).toBe(0);
      const gamma = res.body.data[3];
      expect(gamma.insights).toMatchObject({ spend: 0, cpa: null, roas: null, ctr: null, cpm: null });
      expect(gamma.dailyBudget).toBeNull();
    });
    it('filters by account, status and sorts by spend', async () => {
      const byAccount = await get(
        `/v1/campaigns?account_id=${s.a1.platformAccountId}&sort=-spend`,
        s.keys.liveA.key,
      );
      expect(byAccount.body.data.map((c: { id: string }) => c.id)).toEqual([s.c1, s.c2, s.c3]);
      const paused = await get('/v1/campaigns?status=paused', s.keys.liveA.key);
      expect(paused.body.data.map((c: { id: string }) => c.id)).toEqual([s.c2]);
      expect((await get('/v1/campaigns?sort=colour', s.keys.liveA.key)).status).toBe(400);
      expect((await get(`/v1/campaigns?account_id=${s.b1.id}`, s.keys.liveA.key)).status).toBe(403);
    });
    it('shows a test key only test-mode campaigns, and a live key only live ones', async () => {
      const test = await get('/v1/campaigns', s.keys.testA.key);
      expect(test.body.data.map((c: { id: string }) => c.id)).toEqual([s.c4]);
      expect((await get(`/v1/campaigns/${s.c1}`, s.keys.testA.key)).status).toBe(404);
      expect((await get(`/v1/campaigns/${s.c4}`, s.keys.liveA.key)).status).toBe(404);
      expect((await get(`/v1/campaigns/${s.c4}`, s.keys.testA.key)).status).toBe(200);
    });
    it('never shows another workspace campaign (404)', async () => {
      const res = await get(`/v1/campaigns/${s.cb}`, s.keys.liveA.key);
      expect(res.status).toBe(404);
      expect(res.text).not.toContain('B campaign');
      const list = await get('/v1/campaigns', s.keys.liveB.key);
      expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([s.cb]);
    });
    it('returns the detail with includes and an insights range with daily rows', async () => {
      const plain = await get(`/v1/campaigns/${s.c1}`, s.keys.liveA.key);
      expect(plain.body.data).not.toHaveProperty('insights');
      expect(plain.body.data).not.toHaveProperty('adSetCount');
      expect(plain.body.data.specialAdCategories).toEqual([]);
      const full = await get(
        `/v1/campaigns/${s.c1}?include=adSets,ads,insights,diagnostics&insightsDateRange=last_14d`,
        s.keys.liveA.key,
      );
      const d = full.body.data;
      expect(d.adSets).toHaveLength(2);
      const lookalike = d.adSets.find((x: { name: string }) => x.name === 'Lookalike 1%');
      expect(lookalike).toMatchObject({
        learningPhaseStatus: 'IN_LEARNING',
        adCount: 2,
        dailyBudget: 20,
        targeting: { geoLocations: ['US'], ageMin: 25, ageMax: 54, genders: ['all'] },
      });
      const broad = d.adSets.find((x: { name: string }) => x.name === 'Broad');
      expect(broad).toMatchObject({
        learningPhaseStatus: 'EXITED',
        targeting: { geoLocations: ['US', 'CA'], genders: ['female'] },
      });
      expect(d.ads).toHaveLength(3);
      expect(d.ads[0]).toHaveProperty('adSetId');
      expect(d.diagnostics).toEqual([]);
      expect(d.insights.dateRange).toBe('last_14d');
      expect(d.insights.spend).toBe(140);
      expect(d.insights.daily).toHaveLength(14);
      expect(d.insights.daily[13]).toEqual({ date: '2026-03-10', spend: 10, conversions: 2, cpa: 5 });
      const lifetime = await get(
        `/v1/campaigns/${s.c1}?include=insights&insightsDateRange=lifetime`,
        s.keys.liveA.key,
      );
      expect(lifetime.body.data.insights.daily).toHaveLength(20);
      expect(lifetime.body.data.insights.spend).toBe(200);
      expect((await get(`/v1/campaigns/${s.c1}?include=colours`, s.keys.liveA.key)).status).toBe(400);
      expect((await get(`/v1/campaigns/${s.c1}?insightsDateRange=last_year`, s.keys.liveA.key)).status).toBe(
        400,
      );
    });
  });

  describe('insights summary', () => {
    it('computes totals, trends, series and breakdown for one account', async () => {
      const res = await get(
        `/v1/insights/summary?account_id=${s.a1.id}&date_start=2026-03-04&date_end=2026-03-10`,
        s.keys.liveA.key,
      );
      expect(res.status).toBe(200);
      const d = res.body.data;
      expect(d.dateRange).toEqual({ from: '2026-03-04', to: '2026-03-10' });
      expect(d.currency).toBe('USD');
      expect(d.totals).toMatchObject({
        spend: 105,
        impressions: 10500,
        clicks: 175,
        conversions: 14,
        cpa: 7.5,
        roas: 2,
        cpm: 10,
      });
      expect(d.timeSeries).toHaveLength(7);
      expect(d.breakdown.map((b: { entity: { id: string } }) => b.entity.id)).toEqual([s.c1, s.c2]);
      expect(d.breakdown[1].cpa).toBeNull();
      // Previous 7 days (02-25..03-03): c1 70 + c2 15 (03-01..03-03) = 85 → +23.53 %.
      expect(d.trends.spendChange).toBe(23.53);
    });
    it('defaults to the last 7 days ending today', async () => {
      const res = await get(`/v1/insights/summary?account_id=${s.a1.id}`, s.keys.liveA.key);
      expect(res.body.data.dateRange).toEqual({ from: '2026-03-04', to: '2026-03-10' });
    });
    it('answers mixed currencies with one total per currency (no money added), and filters by campaign', async () => {
      const mixed = await get('/v1/insights/summary', s.keys.liveA.key);
      expect(mixed.status).toBe(200);
      expect(mixed.body.data.currency).toBe('XXX');
      expect(mixed.body.data.currencies.map((c: { currency: string }) => c.currency)).toEqual(['EUR', 'USD']);
      const one = await get(`/v1/insights/summary?campaign_ids=${s.c2}`, s.keys.liveA.key);
      expect(one.status).toBe(200);
      expect(one.body.data.totals.spend).toBe(35);
      expect((await get(`/v1/insights/summary?campaign_ids=${s.cb}`, s.keys.liveA.key)).status).toBe(404);
      expect((await get(`/v1/insights/summary?campaign_ids=nope`, s.keys.liveA.key)).status).toBe(400);
    });
    it('checks date ranges', async () => {
      const after = await get(
        `/v1/insights/summary?account_id=${s.a1.id}&date_start=2026-03-10&date_end=2026-03-01`,
        s.keys.liveA.key,
      );
      expect(after.status).toBe(400);
      expect(after.body.error.type).toBe('invalid_date_range');
      const long = await get(
        `/v1/insights/summary?account_id=${s.a1.id}&date_start=2025-01-01&date_end=2026-03-01`,
        s.keys.liveA.key,
      );
      expect(long.body.error.type).toBe('invalid_date_range');
      const ninety = await get(
        `/v1/insights/summary?account_id=${s.a1.id}&date_start=2025-12-11&date_end=2026-03-10`,
        s.keys.liveA.key,
      );
      expect(ninety.status).toBe(200);
      const bad = await get(
        `/v1/insights/summary?account_id=${s.a1.id}&date_start=2026-02-30`,
        s.keys.liveA.key,
      );
      expect(bad.body.error.type).toBe('invalid_request');
    });
    it('reports invalid_date_range across currencies too', async () => {
      // Agency A's live accounts use USD and EUR: a bad explicit range is named as such before anything.
      const key = (await seedKey(t.core.sql, t.clock, { workspaceId: s.a.workspaceId })).key;
      const after = await get('/v1/insights/summary?date_start=2026-03-10&date_end=2026-03-01', key);
      expect([after.status, after.body.error.type]).toEqual([400, 'invalid_date_range']);
      const long = await get('/v1/insights/summary?date_start=2025-12-01&date_end=2026-03-01', key);
      expect([long.status, long.body.error.type]).toEqual([400, 'invalid_date_range']);
      const mixed = await get('/v1/insights/summary?date_start=2026-03-01&date_end=2026-03-07', key);
      expect([mixed.status, mixed.body.data.currency]).toEqual([200, 'XXX']);
    });
    it('isolates workspaces: the other workspace account is 403', async () => {
      const res = await get(`/v1/insights/summary?account_id=${s.a1.id}`, s.keys.liveB.key);
      expect(res.status).toBe(403);
      const own = await get(
        '/v1/insights/summary?date_start=2026-03-01&date_end=2026-03-10',
        s.keys.liveB.key,
      );
      expect(own.body.data.totals.spend).toBe(990);
    });
  });

  describe('bodies', () => {
    it('refuses malformed JSON, wrong content types and unknown fields', async () => {
      const bad = await get(`/v1/accounts/${s.a1.id}/sync`, s.keys.liveA.key, {
        method: 'POST',
        body: '{nope',
      });
      expect(bad.status).toBe(400);
      const type = await get(`/v1/accounts/${s.a1.id}/sync`, s.keys.liveA.key, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'text/plain' },
      });
      expect(type.status).toBe(400);
      const unknown = await get(`/v1/accounts/${s.a1.id}/sync`, s.keys.liveA.key, {
        method: 'POST',
        body: { force: true },
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error.type).toBe('invalid_request');
    });
  });

  describe('body field types', () => {
    it('says which field has the wrong type instead of calling it missing', async () => {
      const key = (await seedKey(t.core.sql, t.clock, { workspaceId: s.a.workspaceId })).key;
      const wrong = await get('/v1/diagnostics', key, { body: { account_id: 123 } });
      expect([wrong.status, wrong.body.error.type]).toEqual([400, 'invalid_request']);
      expect(wrong.body.error.message).toMatch(/"account_id".*expected string/);
      expect(wrong.body.error.message).not.toMatch(/required/);
      const missing = await get('/v1/diagnostics', key, { body: {} });
      expect(missing.body.error.message).toMatch(/"account_id" is required/);
    });
  });

  describe('response cache', () => {
    it('never serves a stale read: writes on this connection and on another both invalidate it', async () => {
      const path = `/v1/campaigns/${s.c2}?include=insights&insightsDateRange=today`;
      const before = await get(path, s.keys.liveA.key);
      expect(before.body.data.insights.spend).toBe(5);
      const setSpend = `UPDATE insights_campaign_daily SET spend_micros = ? WHERE campaign_id = ? AND date = '2026-03-10'`;
      await t.core.sql.run(setSpend, [6_000_000, s.c2]);
      expect((await get(path, s.keys.liveA.key)).body.data.insights.spend).toBe(6);
      await t.runElsewhere(setSpend, [7_000_000, s.c2]);
      expect((await get(path, s.keys.liveA.key)).body.data.insights.spend).toBe(7);
      await t.core.sql.run(setSpend, [5_000_000, s.c2]);
    });
    it('keeps meta.remaining_requests per request on cached answers', async () => {
      const a = await get('/v1/accounts?page_size=7', s.keys.trial.key);
      const b = await get('/v1/accounts?page_size=7', s.keys.trial.key);
      expect(b.body.meta.remaining_requests).toBe(a.body.meta.remaining_requests - 1);
    });
  });

  describe('fallback', () => {
    it('hands every request outside /v1 to the fallback, and keeps /v1 for itself', async () => {
      const seen: string[] = [];
      const second = await createApiServer(t.app, {
        port: 0,
        fallback: async (req, res) => {
          seen.push(req.url ?? '');
          if (req.url !== '/dashboard') return false;
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end('<html></html>');
          return true;
        },
      });
      try {
        expect((await call(second.url, '/dashboard')).text).toBe('<html></html>');
        expect((await call(second.url, '/other')).status).toBe(404);
        expect((await call(second.url, '/v1/accounts', { key: s.keys.liveA.key })).status).toBe(200);
        expect(seen).toEqual(['/dashboard', '/other']);
      } finally {
        await second.close();
      }
    });
  });
});
