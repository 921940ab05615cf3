// /v1 goals (an addition to the spec) on real HTTP and a real SQLite file: the account goal and campaign
// goals through GET/PUT/DELETE, their envelopes against the OpenAPI document, validation errors, the
// writes counter, and workspace and mode isolation.
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

  type Res = { status: number; body: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any

  async function req(
    method: 'GET' | 'PUT' | 'DELETE',
    path: string,
    k: string,
    body?: unknown,
  ): Promise<Res> {
    const res = await call(t.url, path, { key: k, method, body });
    check(method, path, res.status, res.body);
    return res as Res;
  }

  beforeAll(async () => {
    ({ t, s, check } = await startScenarioApi(engine));
    key = (
      await seedKey(t.core.sql, t.clock, { workspaceId: s.a.workspaceId, limitOverrides: { writes: 1000 } })
    ).key;
  });
  afterAll(async () => {
    await t.close();
  });

  describe('/v1 goals', () => {
    it('sets, reads and clears the account goal and a campaign goal that overrides it', async () => {
      const empty = await req('GET', `/v1/accounts/${s.a1.id}/goals`, key);
      expect(empty.status).toBe(200);
      expect(empty.body.data).toEqual({ accountId: s.a1.id, account: null, campaigns: [] });

      const account = await req('PUT', `/v1/accounts/${s.a1.platformAccountId}/goals`, key, {
        kind: 'ROAS',
        target: 1,
      });
      expect(account.status).toBe(200);
      expect(account.body.data).toMatchObject({
        accountId: s.a1.id,
        campaignId: null,
        kind: 'ROAS',
        target: 1,
      });
      expect(account.body.meta.remaining_requests).toBeGreaterThan(0);

      const own = await req('PUT', `/v1/campaigns/${s.c1}/goal`, key, { kind: 'CPA', target: 25 });
      expect(own.body.data).toMatchObject({ accountId: s.a1.id, campaignId: s.c1, kind: 'CPA', target: 25 });
      expect((await req('GET', `/v1/campaigns/${s.c1}/goal`, key)).body.data).toMatchObject({
        own: { kind: 'CPA', target: 25 },
        effective: { kind: 'CPA', target: 25, source: 'campaign' },
      });
      expect((await req('GET', `/v1/campaigns/${s.c2}/goal`, key)).body.data).toEqual({
        accountId: s.a1.id,
        campaignId: s.c2,
        own: null,
        effective: { kind: 'ROAS', target: 1, source: 'account' },
      });
      const listed = await req('GET', `/v1/accounts/${s.a1.id}/goals`, key);
      expect(listed.body.data.account).toMatchObject({ kind: 'ROAS', target: 1 });
      expect(listed.body.data.campaigns).toEqual([expect.objectContaining({ campaignId: s.c1, target: 25 })]);

      const cleared = await req('DELETE', `/v1/campaigns/${s.c1}/goal`, key);
      expect(cleared.body.data).toMatchObject({ own: null, effective: { kind: 'ROAS', source: 'account' } });
      const accountCleared = await req('DELETE', `/v1/accounts/${s.a1.id}/goals`, key);
      expect(accountCleared.body.data).toEqual({ accountId: s.a1.id, account: null, campaigns: [] });
    });

    it('refuses bad goals with invalid_request naming the field', async () => {
      const zero = await req('PUT', `/v1/accounts/${s.a1.id}/goals`, key, { kind: 'CPA', target: 0 });
      expect(zero.status).toBe(400);
      expect(zero.body.error.type).toBe('invalid_request');
      expect(zero.body.error.message).toContain('target');
      const kind = await req('PUT', `/v1/accounts/${s.a1.id}/goals`, key, { kind: 'CPC', target: 3 });
      expect(kind.status).toBe(400);
      expect(kind.body.error.message).toContain('CPA or ROAS');
      const percent = await req('PUT', `/v1/campaigns/${s.c1}/goal`, key, { kind: 'ROAS', target: 300 });
      expect(percent.status).toBe(400);
      expect(percent.body.error.message).toContain('ratio');
      const extra = await req('PUT', `/v1/campaigns/${s.c1}/goal`, key, { kind: 'ROAS', target: 2, x: 1 });
      expect(extra.status).toBe(400);
      const noBody = await req('PUT', `/v1/campaigns/${s.c1}/goal`, key);
      expect(noBody.status).toBe(400);
      const body = await call(t.url, `/v1/accounts/${s.a1.id}/goals`, {
        key,
        method: 'DELETE',
        body: { kind: 'CPA' },
      });
      expect(body.status).toBe(400);
      expect((await req('GET', `/v1/accounts/${s.a1.id}/goals`, key)).body.data.account).toBeNull();
    });

    it('keeps workspaces and modes apart', async () => {
      const foreign = await req('PUT', `/v1/accounts/${s.b1.id}/goals`, key, { kind: 'CPA', target: 5 });
      expect(foreign.status).toBe(403);
      expect((await req('GET', `/v1/campaigns/${s.cb}/goal`, key)).status).toBe(404);
      expect((await req('PUT', `/v1/campaigns/${s.cb}/goal`, key, { kind: 'CPA', target: 5 })).status).toBe(
        404,
      );
      // A test key does not know live accounts exist.
      expect((await req('GET', `/v1/accounts/${s.a1.id}/goals`, s.keys.testA.key)).status).toBe(404);
      expect((await req('DELETE', `/v1/campaigns/${s.c1}/goal`, s.keys.testA.key)).status).toBe(404);
    });

    it('counts PUT and DELETE as writes', async () => {
      const limited = (
        await seedKey(t.core.sql, t.clock, {
          workspaceId: s.a.workspaceId,
          limitOverrides: { writes: 2 },
        })
      ).key;
      expect(
        (await req('PUT', `/v1/campaigns/${s.c1}/goal`, limited, { kind: 'CPA', target: 9 })).status,
      ).toBe(200);
      expect((await req('DELETE', `/v1/campaigns/${s.c1}/goal`, limited)).status).toBe(200);
      const refused = await req('PUT', `/v1/campaigns/${s.c1}/goal`, limited, { kind: 'CPA', target: 9 });
      expect(refused.status).toBe(429);
      expect(refused.body.error.message).toContain('writes');
      expect((await req('GET', `/v1/accounts/${s.a1.id}/goals`, limited)).status).toBe(200);
    });
  });
});
