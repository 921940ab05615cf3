// Wire compatibility: Meta's own Node SDK, pointed at the demo platform on loopback, reads
// accounts, campaigns across pages and daily insights without knowing it is not graph.facebook.com.

import {
  AdAccount,
  FacebookAdsApi,
  User,
  type AbstractCrudObject,
  type Cursor,
} from 'facebook-nodejs-business-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groundTruth, startDemoPlatform, type DemoPlatform } from './index';

const today = '2026-11-22';
let p: DemoPlatform;
let graphDescriptor: PropertyDescriptor | undefined;

/** SDK objects expose fields as properties (exportData only returns local changes for some classes). */
function field(o: AbstractCrudObject, name: string): unknown {
  return (o as unknown as Record<string, unknown>)[name];
}

async function drain<T extends AbstractCrudObject>(first: Cursor<T>): Promise<T[]> {
  const out: T[] = [...first];
  let cursor = first;
  while (cursor.hasNext()) {
    cursor = await cursor.next();
    out.push(...cursor);
  }
  return out;
}

beforeAll(async () => {
  p = await startDemoPlatform({ seed: 5, today });
  // The SDK builds every URL from the static FacebookAdsApi.GRAPH getter; swap it for loopback.
  graphDescriptor = Object.getOwnPropertyDescriptor(FacebookAdsApi, 'GRAPH');
  Object.defineProperty(FacebookAdsApi, 'GRAPH', { get: () => p.url, configurable: true });
  FacebookAdsApi.init('demo-token', 'en_US', false);
});

afterAll(async () => {
  if (graphDescriptor) Object.defineProperty(FacebookAdsApi, 'GRAPH', graphDescriptor);
  await p.close();
});

describe('facebook-nodejs-business-sdk against the demo platform', () => {
  it('reads ad accounts, campaigns across pages, and daily insights', async () => {
    const accounts = await drain(
      await new User('me').getAdAccounts(['id', 'name', 'currency', 'user_tasks'], { limit: 2 }),
    );
    expect(accounts.length).toBeGreaterThanOrEqual(4);
    const largest = accounts[0] as AdAccount;
    expect(field(largest, 'currency')).toBe('USD');

    const account = new AdAccount(largest.id);
    const campaigns = await drain(
      await account.getCampaigns(['id', 'name', 'effective_status'], { limit: 25 }),
    );
    expect(campaigns.length).toBeGreaterThan(90);
    expect(new Set(campaigns.map((c) => c.id)).size).toBe(campaigns.length);
    expect(p.controls.requestLog().filter((l) => l.includes('/campaigns')).length).toBeGreaterThanOrEqual(4);

    const truth = groundTruth({ seed: 5, today }).find((e) => e.platformAccountId === largest.id);
    const insights = await drain(
      await account.getInsights(
        ['campaign_id', 'spend', 'impressions', 'actions', 'date_start', 'date_stop'],
        {
          level: 'campaign',
          time_increment: 1,
          time_range: { since: '2026-11-01', until: '2026-11-14' },
          filtering: [{ field: 'campaign.id', operator: 'IN', value: [truth?.platformCampaignId] }],
          limit: 5,
        },
      ),
    );
    expect(insights).toHaveLength(14);
    for (const row of insights) {
      expect(field(row, 'date_start')).toBe(field(row, 'date_stop'));
      expect(field(row, 'campaign_id')).toBe(truth?.platformCampaignId);
      expect(typeof field(row, 'spend')).toBe('string');
    }
  });

  it('runs an async insights job through the SDK', async () => {
    const accounts = await new User('me').getAdAccounts(['id'], { limit: 1 });
    const account = new AdAccount((accounts[0] as AdAccount).id);
    let run = await account.getInsightsAsync(['campaign_id', 'spend'], {
      level: 'campaign',
      time_increment: 1,
      date_preset: 'last_7d',
    });
    expect(run.id).toMatch(/^\d+$/);
    for (let i = 0; i < 10 && field(run, 'async_status') !== 'Job Completed'; i++) {
      run = await run.get(['async_status', 'async_percent_completion']);
    }
    expect(field(run, 'async_percent_completion')).toBe(100);
    const rows = await drain(await run.getInsights(['campaign_id', 'spend'], { limit: 100 }));
    expect(rows.length).toBeGreaterThan(100);
  });
});
