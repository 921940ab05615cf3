import { afterEach, describe, expect, it } from 'vitest';
import { GraphError } from './errors';
import {
  startFakeGraph,
  graphError,
  type FakeAnswer,
  type FakeRequest,
} from '../../test-support/fake-graph-server';
import { GraphClient } from './graph-client';
import { paceDelayMs } from './pacing';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function setup(handler: (request: FakeRequest, index: number) => FakeAnswer, random = 0.5) {
  const server = await startFakeGraph(handler);
  servers.push(server);
  const sleeps: number[] = [];
  const client = new GraphClient({
    baseUrl: server.url,
    token: 'tok',
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => random,
    maxRetries: 3,
    backoffBaseMs: 100,
    maxThrottleWaitMs: 10 * 60_000,
  });
  return { server, client, sleeps };
}

const campaign = (id: string) => ({ id, name: `C${id}`, created_time: '2026-01-04T17:12:03-0800' });

async function collect<T>(pages: AsyncGenerator<T[]>): Promise<T[]> {
  const out: T[] = [];
  for await (const page of pages) out.push(...page);
  return out;
}

describe('GraphClient', () => {
  it('pages until next is absent, through short and empty pages, with the token and version', async () => {
    const { server, client } = await setup((request) => {
      const after = request.query.get('after');
      const next = (cursor: string) => `${server.url}/v25.0/act_1/campaigns?after=${cursor}`;
      if (!after) return { body: { data: [campaign('1'), campaign('2')], paging: { next: next('a') } } };
      if (after === 'a') return { body: { data: [], paging: { next: next('b') } } };
      return { body: { data: [campaign('3')], paging: { cursors: { before: 'x', after: 'y' } } } };
    });
    const campaigns = await collect(client.listCampaigns('act_1'));
    expect(campaigns.map((c) => c.id)).toEqual(['1', '2', '3']);
    expect(server.requests).toHaveLength(3);
    expect(server.requests[0]?.path).toBe('/v25.0/act_1/campaigns');
    expect(server.requests.every((r) => r.query.get('access_token') === 'tok')).toBe(true);
    expect(server.requests.every((r) => r.query.get('limit') === '1000')).toBe(true);
  });

  it('retries transient errors with exponential backoff and jitter, then succeeds', async () => {
    const { client, sleeps, server } = await setup((_request, index) =>
      index < 2
        ? { status: 500, body: graphError(2, 'Service temporarily unavailable', { is_transient: true }) }
        : { body: { data: [campaign('1')] } },
    );
    expect(await collect(client.listCampaigns('act_1'))).toHaveLength(1);
    // base 100 ms doubled per attempt, plus random (0.5) × the step as jitter.
    expect(sleeps).toEqual([150, 300]);
    expect(server.requests).toHaveLength(3);
    expect(client.stats.retries).toBe(2);
  });

  it('retries bare 5xx answers and gives up after maxRetries', async () => {
    const { client, sleeps } = await setup(() => ({ status: 503, text: 'upstream down' }));
    await expect(collect(client.listCampaigns('act_1'))).rejects.toMatchObject({ kind: 'transient' });
    expect(sleeps).toHaveLength(3);
  });

  it('waits out throttling for the time the usage header names, then retries', async () => {
    const usage = JSON.stringify({
      '1': [{ type: 'ads_management', call_count: 100, estimated_time_to_regain_access: 2 }],
    });
    const { client, sleeps } = await setup((_request, index) =>
      index === 0
        ? {
            status: 400,
            body: graphError(80004, 'There have been too many calls to this ad-account.', {
              is_transient: true,
            }),
            headers: { 'x-business-use-case-usage': usage },
          }
        : { body: { data: [campaign('1')] } },
    );
    expect(await collect(client.listCampaigns('act_1'))).toHaveLength(1);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(119_000); // the pacer's remaining wait (a few ms went by)
    expect(client.stats.throttleWaits).toBe(1);
  });

  it.each([4, 17, 613, 80000])('treats code %i as throttling', async (code) => {
    const { client, sleeps } = await setup((_r, index) =>
      index === 0 ? { status: 400, body: graphError(code, 'limit reached') } : { body: { data: [] } },
    );
    await collect(client.listCampaigns('act_1'));
    expect(sleeps).toHaveLength(1);
    expect(client.stats.throttleWaits).toBe(1);
  });

  it('slows down progressively as usage climbs (96% here)', async () => {
    const usage = JSON.stringify({
      '1': [{ type: 'ads_insights', call_count: 96, estimated_time_to_regain_access: 0 }],
    });
    const { server, client, sleeps } = await setup((request) =>
      request.query.get('after')
        ? { body: { data: [campaign('2')] } }
        : {
            body: { data: [campaign('1')], paging: { next: `${server.url}/v25.0/act_1/campaigns?after=z` } },
            headers: { 'x-business-use-case-usage': usage },
          },
    );
    await collect(client.listCampaigns('act_1'));
    expect(sleeps).toEqual([paceDelayMs(96)]);
    expect(paceDelayMs(96)).toBeGreaterThan(paceDelayMs(80));
    expect(paceDelayMs(50)).toBe(0);
  });

  it('fails instead of waiting longer than the throttle cap', async () => {
    const usage = JSON.stringify({ '1': [{ estimated_time_to_regain_access: 60 }] });
    const { client } = await setup(() => ({
      status: 400,
      body: graphError(17, 'User request limit reached'),
      headers: { 'x-business-use-case-usage': usage },
    }));
    await expect(collect(client.listCampaigns('act_1'))).rejects.toMatchObject({ kind: 'throttled' });
  });

  it('halves limit on "reduce the amount of data" and keeps the smaller size for later pages', async () => {
    const { server, client } = await setup((request, index) => {
      if (index === 0) {
        return {
          status: 500,
          body: graphError(1, "Please reduce the amount of data you're asking for, then retry your request"),
        };
      }
      return request.query.get('after')
        ? { body: { data: [] } }
        : { body: { data: [], paging: { next: `${server.url}/v25.0/act_1/ads?after=p2&limit=500` } } };
    });
    await collect(client.listAds('act_1'));
    expect(server.requests.map((r) => r.query.get('limit'))).toEqual(['1000', '500', '500']);
    expect(client.stats.limitHalvings).toBe(1);
  });

  it('reads daily insights 5,000 rows a page and leaves a reduce-data answer to the caller', async () => {
    const { server, client } = await setup(() => ({
      status: 500,
      body: graphError(1, "Please reduce the amount of data you're asking for, then retry your request"),
    }));
    const error = await collect(
      client.insights('act_1', { level: 'ad', since: '2026-01-01', until: '2026-01-31', campaignIds: ['7'] }),
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'reduce_data' });
    expect(server.requests).toHaveLength(1);
    const first = server.requests[0]!.query;
    expect(first.get('limit')).toBe('5000');
    expect(first.get('time_increment')).toBe('1');
    expect(first.get('level')).toBe('ad');
    expect(JSON.parse(first.get('time_range') ?? '{}')).toEqual({ since: '2026-01-01', until: '2026-01-31' });
    expect(JSON.parse(first.get('filtering') ?? '[]')).toEqual([
      { field: 'campaign.id', operator: 'IN', value: ['7'] },
    ]);
  });

  it('maps 190 to token_expired at once, without retrying', async () => {
    const { client, server } = await setup(() => ({
      status: 400,
      body: graphError(190, 'Error validating access token: Session has expired', { error_subcode: 463 }),
    }));
    const error = await client.getAdAccount('act_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphError);
    expect(error).toMatchObject({ kind: 'token_expired', info: { code: 190, subcode: 463 } });
    expect(server.requests).toHaveLength(1);
  });

  it('maps an unknown object to not_found and permission codes to permission', async () => {
    const { client } = await setup((request) =>
      request.path.endsWith('act_404')
        ? {
            status: 400,
            body: graphError(100, "Object with ID 'act_404' does not exist", { error_subcode: 33 }),
          }
        : { status: 400, body: graphError(200, 'Requires ads_read permission') },
    );
    await expect(client.getAdAccount('act_404')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(client.getAdAccount('act_5')).rejects.toMatchObject({ kind: 'permission' });
  });

  it("reads Meta's recommendations grouped or flat, with the opportunity score; null where unavailable", async () => {
    const item = (type: string, ids: string[]) => ({
      type,
      recommendation_content: { body: `Do ${type}`, lift_estimate: 'Up to 5%', opportunity_score_lift: '4' },
      object_ids: ids,
    });
    const { client } = await setup((request) => {
      if (request.path.endsWith('act_1/recommendations'))
        return {
          body: { data: [{ recommendations: [item('FRAGMENTATION', ['11', '12'])] }, item('CAPI', [])] },
        };
      if (request.path.endsWith('act_1')) return { body: { id: 'act_1', opportunity_score: 72 } };
      return { status: 400, body: graphError(100, 'Tried accessing nonexisting field (recommendations)') };
    });
    const read = await client.getPlatformRecommendations('act_1');
    expect(read?.opportunityScore).toBe(72);
    expect(
      read?.items.map((r) => [r.type, r.object_ids, r.recommendation_content?.opportunity_score_lift]),
    ).toEqual([
      ['FRAGMENTATION', ['11', '12'], 4],
      ['CAPI', [], 4],
    ]);
    expect(await client.getPlatformRecommendations('act_2')).toBeNull();
  });

  it('retries when the server cannot be reached', async () => {
    const { server, client, sleeps } = await setup(() => ({ body: {} }));
    await server.close();
    await expect(client.getAdAccount('act_1')).rejects.toMatchObject({ kind: 'transient' });
    expect(sleeps).toHaveLength(3);
  });
});
