import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedScenario, type Scenario } from '../test-support/api-scenario';
import { seedKey } from '../test-support/api-fixtures';
import { startTestApi, type TestApi } from '../test-support/api-server';
import { AdLensClient, ApiError } from './index';

let t: TestApi;
let s: Scenario;
beforeAll(async () => {
  t = await startTestApi();
  s = await seedScenario(t.core.db, t.clock);
});
afterAll(async () => {
  await t.close();
});

/** A fetch that counts requests, and a sleep that moves the server's clock instead of waiting. */
function harness() {
  const calls: string[] = [];
  const sleeps: number[] = [];
  return {
    calls,
    sleeps,
    fetch: ((input: string | URL | Request, init?: RequestInit) => {
      calls.push(`${init?.method ?? 'GET'} ${String(input).replace(t.url, '')}`);
      return fetch(input, init);
    }) as typeof fetch,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      t.clock.advance(ms);
    },
    now: () => t.clock.now().getTime(),
  };
}

describe('AdLensClient', () => {
  it('sets, reads and clears goals with PUT and DELETE, and a write clears the GET cache', async () => {
    const h = harness();
    const key = await seedKey(t.core.db, t.clock, {
      workspaceId: s.a.workspaceId,
      limitOverrides: { writes: 100 },
    });
    const client = new AdLensClient({ baseUrl: t.url, apiKey: key.key, ...h, cacheTtlSeconds: 60 });
    expect((await client.getAccountGoals(s.a1.id)).data.account).toBeNull();
    expect((await client.setAccountGoal(s.a1.id, { kind: 'ROAS', target: 2 })).data).toMatchObject({
      kind: 'ROAS',
      target: 2,
    });
    expect((await client.getAccountGoals(s.a1.id)).data.account).toMatchObject({ target: 2 });
    await client.setCampaignGoal(s.c1, { kind: 'CPA', target: 12 });
    expect((await client.getCampaignGoal(s.c1)).data.effective).toEqual({
      kind: 'CPA',
      target: 12,
      source: 'campaign',
    });
    expect((await client.clearCampaignGoal(s.c1)).data.effective).toMatchObject({ source: 'account' });
    expect((await client.clearAccountGoal(s.a1.id)).data).toMatchObject({ account: null, campaigns: [] });
    await expect(client.setAccountGoal(s.a1.id, { kind: 'CPA', target: 0 })).rejects.toBeInstanceOf(ApiError);
    expect(h.calls.filter((c) => c.startsWith('PUT') || c.startsWith('DELETE'))).toHaveLength(5);
    expect(h.calls.filter((c) => c === `GET /v1/accounts/${s.a1.id}/goals`)).toHaveLength(2);
  });

  it('reads typed data and caches GETs for the TTL', async () => {
    const h = harness();
    const client = new AdLensClient({ baseUrl: t.url, apiKey: s.keys.liveA.key, ...h, cacheTtlSeconds: 60 });
    const first = await client.listCampaigns({ account_id: s.a1.id });
    expect(first.data[0]?.insights.dateRange).toBe('last_7d');
    await client.listCampaigns({ account_id: s.a1.id });
    expect(h.calls).toHaveLength(1);
    t.clock.advance(61_000);
    await client.listCampaigns({ account_id: s.a1.id });
    expect(h.calls).toHaveLength(2);
    expect(() => new AdLensClient({ baseUrl: t.url, apiKey: 'x', cacheTtlSeconds: 30 })).toThrow(RangeError);
    expect(() => new AdLensClient({ baseUrl: t.url, apiKey: 'x', pollIntervalMs: 500 })).toThrow(RangeError);
  });

  it('never retries 400, 401, 403 or 404', async () => {
    const h = harness();
    const client = new AdLensClient({ baseUrl: t.url, apiKey: s.keys.liveA.key, ...h });
    const revoked = new AdLensClient({ baseUrl: t.url, apiKey: s.keys.revoked.key, ...h });
    const attempts: Array<[() => Promise<unknown>, number]> = [
      [() => client.listAccounts({ page_size: 500 }), 400],
      [() => revoked.listAccounts(), 401],
      [() => client.getAccount(s.b1.id), 403],
      [() => client.getCampaign('camp_AAAAAAAAAAAAAAAA'), 404],
    ];
    for (const [attempt, status] of attempts) {
      const before = h.calls.length;
      const error = await attempt().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(status);
      expect(h.calls.length - before).toBe(1);
    }
    expect(h.sleeps).toEqual([]);
  });

  it('retries a 429 with backoff of at least the wait the message names, then succeeds', async () => {
    const h = harness();
    const { key } = await seedKey(t.core.db, t.clock, {
      workspaceId: s.a.workspaceId,
      limitOverrides: { reads: 2 },
    });
    const client = new AdLensClient({
      baseUrl: t.url,
      apiKey: key,
      ...h,
      cache: false,
      limits: { reads: 2, writes: 10 },
    });
    await client.listAccounts();
    await client.listAccounts();
    const third = await client.listAccounts();
    expect(third.data.length).toBeGreaterThan(0);
    // Pacing below 10% of the budget, then one 429 waited out (its message names ~60 s).
    expect(h.calls).toHaveLength(4);
    expect(h.sleeps.some((ms) => ms >= 30_000)).toBe(true);
  });

  it('retries 500s with exponential backoff and jitter, then gives up with the requestId', async () => {
    let hits = 0;
    const flaky = createServer((_req, res) => {
      hits++;
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: 'boom', requestId: 'req_1' } }));
    });
    await new Promise<void>((r) => flaky.listen(0, '127.0.0.1', () => r()));
    const sleeps: number[] = [];
    const client = new AdLensClient({
      baseUrl: `http://127.0.0.1:${(flaky.address() as AddressInfo).port}`,
      apiKey: 'service_live_x',
      maxRetries: 3,
      baseDelayMs: 100,
      random: () => 1,
      sleep: async (ms) => void sleeps.push(ms),
    });
    const error = (await client.listAccounts().catch((e: unknown) => e)) as ApiError;
    flaky.close();
    expect(error.status).toBe(500);
    expect(error.requestId).toBe('req_1');
    expect(hits).toBe(4);
    expect(sleeps).toEqual([100, 200, 400]);
  });

  it('slows down when remaining_requests falls below 10% of the limit', async () => {
    const h = harness();
    const { key } = await seedKey(t.core.db, t.clock, {
      workspaceId: s.a.workspaceId,
      limitOverrides: { reads: 20 },
    });
    const client = new AdLensClient({
      baseUrl: t.url,
      apiKey: key,
      ...h,
      cache: false,
      limits: { reads: 20, writes: 10 },
    });
    for (let i = 0; i < 20; i++) await client.listAccounts();
    // After 19 reads 1 is left (< 2 = 10%): the 20th request waits 60 s / 20 first.
    expect(h.sleeps).toEqual([3000]);
  });

  it('polls a diagnostic to completion every 2-3 seconds', async () => {
    const sleeps: number[] = [];
    const { key } = await seedKey(t.core.db, t.clock, { workspaceId: s.a.workspaceId });
    const client = new AdLensClient({
      baseUrl: t.url,
      apiKey: key,
      sleep: (ms) => {
        sleeps.push(ms);
        return new Promise((r) => setTimeout(r, 20));
      },
    });
    const { data } = await client.createDiagnostic({ account_id: s.a1.id, campaign_id: s.c1 });
    const done = await client.pollDiagnostic(data.id);
    expect(done.status).toBe('completed');
    expect(sleeps.every((ms) => ms === 2500)).toBe(true);
  });
});
