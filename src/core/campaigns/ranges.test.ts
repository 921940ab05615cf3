// Ads Manager ranges with a comparison on a real store: each account resolves a preset in its own
// time zone, every campaign gets its metrics over the range and the comparison period, and the
// /v1 list (date_preset, date_start/date_end, compare) gives the same figures as the app's table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  seedAccount,
  seedCampaign,
  seedDailyInsights,
  seedKey,
  seedWorkspace,
} from '../../test-support/api-fixtures';
import { call, startTestApi, type TestApi } from '../../test-support/api-server';
import type { RequestContext } from '../identity/access';
import type { CampaignListItem } from '../../shared/api/campaigns';

let t: TestApi;
let ctx: RequestContext;
let key: string;
const spendByDate = new Map<string, number>(); // major units, same for both campaigns
let la: { id: string; campaignId: string };
let tokyo: { id: string; campaignId: string };

const FIRST_DAY = '2024-01-01';
const DAYS = 800;

function dayOf(i: number): string {
  return new Date(Date.parse(`${FIRST_DAY}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10);
}

/** The fixture's spend over a window, computed independently of the product's SQL. */
function spendOver(from: string, to: string, factor: number): number {
  let sum = 0;
  for (const [date, spend] of spendByDate) if (date >= from && date <= to) sum += spend * factor;
  return Math.round(sum * 100) / 100;
}

beforeAll(async () => {
  // 03:00 UTC: still the 9th in Los Angeles, already the 10th in Tokyo.
  t = await startTestApi({ now: '2026-03-10T03:00:00.000Z' });
  const db = t.core.db;
  const { workspaceId } = seedWorkspace(db, { plan: 'agency' });
  ctx = { workspaceId, plan: 'agency', userId: null, keyId: null, mode: 'all' };
  const seed = (timezone: string, factor: number) => {
    const account = seedAccount(db, { workspaceId, mode: 'test', timezone, name: timezone });
    const campaignId = seedCampaign(db, { accountId: account.id, name: `Campaign in ${timezone}` });
    seedDailyInsights(db, {
      accountId: account.id,
      campaignId,
      from: FIRST_DAY,
      days: DAYS,
      row: (i) => {
        spendByDate.set(dayOf(i), 1 + (i % 17));
        return {
          spendMicros: (1 + (i % 17)) * factor * 1_000_000,
          impressions: 1000,
          clicks: 10,
          conversions: 1 + (i % 3),
          revenueMicros: 20_000_000,
        };
      },
    });
    return { id: account.id, campaignId };
  };
  la = seed('America/Los_Angeles', 1);
  tokyo = seed('Asia/Tokyo', 2);
  key = (await seedKey(db, t.core.clock, { workspaceId, mode: 'test' })).key;
});

afterAll(async () => {
  await t.close();
});

describe('the campaigns table over an Ads Manager range', () => {
  it("resolves a preset in each account's own time zone, with the previous period", async () => {
    const list = await t.app.use.campaigns.table(ctx, {
      dateRange: { preset: 'last_7d', compare: 'previous_period' },
    });
    // The reference dates are those of the account whose "today" is latest (Tokyo, the 10th).
    expect(list.dateRange).toEqual({ from: '2026-03-03', to: '2026-03-09' });
    expect(list.comparison).toEqual({ from: '2026-02-24', to: '2026-03-02' });
    const row = (id: string) => list.items.find((r) => r.id === id)!;
    // Los Angeles is still on the 9th: its last 7 days end on the 8th.
    expect(row(la.campaignId).spend).toBe(spendOver('2026-03-02', '2026-03-08', 1));
    expect(row(la.campaignId).previous?.spend).toBe(spendOver('2026-02-23', '2026-03-01', 1));
    expect(row(tokyo.campaignId).spend).toBe(spendOver('2026-03-03', '2026-03-09', 2));
    expect(row(tokyo.campaignId).previous?.spend).toBe(spendOver('2026-02-24', '2026-03-02', 2));
    // Ratios are recomputed from the period's own totals.
    const r = row(tokyo.campaignId);
    expect(r.cpa).toBeCloseTo(r.spend / r.conversions, 2);
  });

  it('compares a whole leap-year February with a custom February a year later', async () => {
    const list = await t.app.use.campaigns.table(ctx, {
      accountId: la.id,
      dateRange: { preset: 'custom', from: '2025-02-01', to: '2025-02-28', compare: 'same_period_last_year' },
    });
    expect(list.comparison).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(list.items).toHaveLength(1);
    expect(list.items[0]!.spend).toBe(spendOver('2025-02-01', '2025-02-28', 1));
    expect(list.items[0]!.previous?.spend).toBe(spendOver('2024-02-01', '2024-02-29', 1));
  });

  it('has no comparison when told "none", and "Maximum" starts at the first day with data', async () => {
    const none = await t.app.use.campaigns.table(ctx, {
      dateRange: { preset: 'this_month', compare: 'none' },
    });
    expect(none.comparison).toBeNull();
    expect(none.items.every((r) => r.previous === null)).toBe(true);
    const detail = await t.app.use.campaigns.screen(ctx, la.campaignId, undefined, {
      preset: 'maximum',
      compare: 'none',
    });
    expect(detail.dateRange).toEqual({ from: FIRST_DAY, to: '2026-03-09' });
    expect(detail.campaign.spend).toBe(spendOver(FIRST_DAY, '2026-03-09', 1));
  });

  it('refuses a range longer than 37 months', async () => {
    await expect(
      t.app.use.campaigns.table(ctx, {
        dateRange: { preset: 'custom', from: '2020-01-01', to: '2026-01-01', compare: 'none' },
      }),
    ).rejects.toMatchObject({ type: 'invalid_date_range' });
  });
});

describe('the insights summary over an Ads Manager range', () => {
  it('compares totals and each campaign with the same period last year, or with nothing', async () => {
    const summary = await t.app.use.insights.summary(ctx, {
      accountId: la.id,
      dateRange: { preset: 'last_month', compare: 'same_period_last_year' },
    });
    expect(summary.dateRange).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    const now = spendOver('2026-02-01', '2026-02-28', 1);
    const before = spendOver('2025-02-01', '2025-02-28', 1);
    expect(summary.totals.spend).toBe(now);
    expect(summary.breakdown[0]!.previous?.spend).toBe(before);
    expect(summary.trends.spendChange).toBeCloseTo(((now - before) / before) * 100, 1);
    const none = await t.app.use.insights.summary(ctx, {
      accountId: la.id,
      dateRange: { preset: 'last_month', compare: 'none' },
    });
    expect(none.trends.spendChange).toBeNull();
    expect(none.breakdown[0]!.previous).toBeNull();
  });
});

describe('GET /v1/campaigns with a range and a comparison (additions)', () => {
  it('gives the same figures as the table, with the periods of each account', async () => {
    const res = await call(t.url, '/v1/campaigns?date_preset=last_7d&compare=previous_period', { key });
    expect(res.status).toBe(200);
    const items = (res.body as { data: CampaignListItem[] }).data;
    const item = (id: string) => items.find((c) => c.id === id)!;
    expect(item(la.campaignId).insights).toMatchObject({
      dateRange: 'custom',
      period: { from: '2026-03-02', to: '2026-03-08' },
      spend: spendOver('2026-03-02', '2026-03-08', 1),
    });
    expect(item(la.campaignId).comparisonInsights).toMatchObject({
      period: { from: '2026-02-23', to: '2026-03-01' },
      spend: spendOver('2026-02-23', '2026-03-01', 1),
    });
    expect(item(tokyo.campaignId).insights.period).toEqual({ from: '2026-03-03', to: '2026-03-09' });
  });

  it('keeps the spec default (last_7d with today, no comparison) and checks the new parameters', async () => {
    const plain = await call(t.url, '/v1/campaigns', { key });
    const first = (plain.body as { data: CampaignListItem[] }).data[0]!;
    expect(first.insights.dateRange).toBe('last_7d');
    expect(first.comparisonInsights).toBeUndefined();
    const custom = await call(
      t.url,
      `/v1/campaigns?account_id=${tokyo.id}&date_start=2026-02-01&date_end=2026-02-07&compare=same_period_last_year`,
      { key },
    );
    const item = (custom.body as { data: CampaignListItem[] }).data[0]!;
    expect(item.insights.spend).toBe(spendOver('2026-02-01', '2026-02-07', 2));
    expect(item.comparisonInsights?.spend).toBe(spendOver('2025-02-01', '2025-02-07', 2));
    for (const bad of [
      'date_start=2026-02-01',
      'date_preset=last_7d&date_start=2026-02-01&date_end=2026-02-02',
      'date_preset=last_3d',
      'compare=next_year',
    ]) {
      const res = await call(t.url, `/v1/campaigns?${bad}`, { key });
      expect(res.status, bad).toBe(400);
    }
    const long = await call(t.url, '/v1/campaigns?date_start=2020-01-01&date_end=2026-01-01', { key });
    expect(long.status).toBe(400);
    expect((long.body as { error: { type: string } }).error.type).toBe('invalid_date_range');
  });
});
