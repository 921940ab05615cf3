// The whole-workspace insights summary across currencies, over real SQLite and real HTTP: one total
// per currency, the spec's money fields empty (XXX) without rates, and converted exactly (integer
// micros) into the agency's reporting currency once it has set rates for every currency.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { converterOf } from './currencies';
import {
  seedAccount,
  seedCampaign,
  seedDailyInsights,
  seedKey,
  seedWorkspace,
} from '../../test-support/api-fixtures';
import { call, startTestApi, type TestApi } from '../../test-support/api-server';
import type { RequestContext } from '../identity/access';

interface Summary {
  currency: string;
  totals: { spend: number; impressions: number; conversions: number; cpa: number | null };
  trends: { spendChange: number | null; conversionsChange: number | null };
  timeSeries: Array<{ date: string; spend: number; conversions: number }>;
  breakdown: Array<{ entity: { type: string; id: string }; spend: number; currency?: string }>;
  resultsByType: Array<{ resultType: string | null; results: number; spend: number }>;
  currencies?: Array<{ currency: string; accounts: number; totals: { spend: number; impressions: number } }>;
  conversion?: { currency: string; rates: Record<string, string> } | null;
}

let t: TestApi;
let key: string;
let ctx: RequestContext;
let usd: { id: string; platformAccountId: string };
const accountIds: string[] = [];
const campaignIds: string[] = [];
const WINDOW = 'date_start=2026-03-01&date_end=2026-03-03';

beforeAll(async () => {
  t = await startTestApi({ now: '2026-03-10T12:00:00.000Z' });
  const db = t.core.db;
  const ws = seedWorkspace(db, { plan: 'agency' });
  ctx = { workspaceId: ws.workspaceId, plan: 'agency', userId: ws.ownerId, keyId: null, mode: 'all' };
  key = (await seedKey(db, t.clock, { workspaceId: ws.workspaceId, mode: 'live' })).key;
  usd = seedAccount(db, { workspaceId: ws.workspaceId, mode: 'live', currency: 'USD' });
  const eur = seedAccount(db, { workspaceId: ws.workspaceId, mode: 'live', currency: 'EUR' });
  const jpy = seedAccount(db, { workspaceId: ws.workspaceId, mode: 'live', currency: 'JPY' });
  // Per day: USD 10.00, EUR 20.00, JPY 1,500 (micros), 1,000 impressions and 2 conversions each.
  for (const [account, spendMicros] of [
    [usd, 10_000_000],
    [eur, 20_000_000],
    [jpy, 1_500_000_000],
  ] as const) {
    const campaignId = seedCampaign(db, { accountId: account.id });
    accountIds.push(account.id);
    campaignIds.push(campaignId);
    seedDailyInsights(db, {
      accountId: account.id,
      campaignId,
      from: '2026-02-26',
      days: 6,
      row: () => ({ spendMicros, impressions: 1000, clicks: 10, conversions: 2, revenueMicros: 0 }),
    });
  }
});

afterAll(async () => {
  await t.close();
});

async function summary(query: string): Promise<Summary> {
  const res = await call(t.url, `/v1/insights/summary?${query}`, { key });
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: Summary }).data;
}

describe('insights summary across currencies', () => {
  it('keeps the spec fields of a one-currency selection unchanged (no additions)', async () => {
    const one = await summary(`account_id=${usd.platformAccountId}&${WINDOW}`);
    expect(one.currency).toBe('USD');
    expect(one.totals.spend).toBe(30);
    expect(one.currencies).toBeUndefined();
    expect(one.conversion).toBeUndefined();
  });

  it('without rates: one total per currency, counts added, money never added (XXX)', async () => {
    const all = await summary(WINDOW);
    expect(all.currency).toBe('XXX');
    expect(all.currencies).toEqual([
      expect.objectContaining({
        currency: 'EUR',
        accounts: 1,
        totals: expect.objectContaining({ spend: 60 }),
      }),
      expect.objectContaining({
        currency: 'JPY',
        accounts: 1,
        totals: expect.objectContaining({ spend: 4500 }),
      }),
      expect.objectContaining({
        currency: 'USD',
        accounts: 1,
        totals: expect.objectContaining({ spend: 30 }),
      }),
    ]);
    expect(all.totals).toMatchObject({ spend: 0, impressions: 9000, conversions: 18, cpa: null });
    expect(all.trends.spendChange).toBeNull();
    expect(all.trends.conversionsChange).toBe(0);
    expect(all.timeSeries.map((d) => d.conversions)).toEqual([6, 6, 6]);
    // The workspace is broken down per account, each line in its own currency.
    expect(all.breakdown.map((b) => [b.entity.type, b.currency, b.spend]).sort()).toEqual([
      ['account', 'EUR', 60],
      ['account', 'JPY', 4500],
      ['account', 'USD', 30],
    ]);
    expect(all.breakdown.map((b) => b.entity.id).sort()).toEqual([...accountIds].sort());
    expect(all.conversion).toBeNull();
    const perCampaign = await summary(`${WINDOW}&breakdown=campaign`);
    expect(perCampaign.breakdown.map((b) => [b.entity.type, b.currency, b.spend]).sort()).toEqual([
      ['campaign', 'EUR', 60],
      ['campaign', 'JPY', 4500],
      ['campaign', 'USD', 30],
    ]);
    expect(perCampaign.breakdown.map((b) => b.entity.id).sort()).toEqual([...campaignIds].sort());
  });

  it('with the reporting currency and a rate for every currency: the spec fields converted exactly', async () => {
    const rates = { EUR: '1.0842', JPY: '0.006711' };
    const view = await t.app.use.settings.update(ctx, 'web', {
      reportingCurrency: { currency: 'USD', rates },
    });
    expect(view.reportingCurrency).toEqual({ currency: 'USD', rates });
    const all = await summary(WINDOW);
    expect(all.currency).toBe('USD');
    expect(all.conversion).toEqual({ currency: 'USD', rates });
    // A day: 10.00 + 20.00 × 1.0842 + 1,500 × 0.006711 = 10 + 21.684 + 10.0665 = 41.7505 USD.
    expect(all.timeSeries.map((d) => d.spend)).toEqual([41.75, 41.75, 41.75]);
    expect(all.totals.spend).toBe(125.25); // 3 × 41,750,500 micros = 125.2515
    expect(all.totals.cpa).toBe(6.96); // 125.2515 / 18
    expect(all.currencies?.map((c) => c.totals.spend)).toEqual([60, 4500, 30]);
    expect(all.breakdown.map((b) => b.spend).sort((a, b) => a - b)).toEqual([30, 30.2, 65.05]);
    expect(all.breakdown.every((b) => b.currency === undefined && b.entity.type === 'account')).toBe(true);
    // Per campaign: the same converted amounts, and the same results per type, summed the other way.
    const perCampaign = await summary(`${WINDOW}&breakdown=campaign`);
    expect(perCampaign.breakdown.map((b) => b.spend).sort((a, b) => a - b)).toEqual([30, 30.2, 65.05]);
    expect(perCampaign.resultsByType).toEqual(all.resultsByType);
    expect(all.resultsByType.map((g) => [g.results, g.spend])).toEqual([[18, 125.25]]);
  });

  it('breaks one account down per campaign, and refuses a per-account breakdown of chosen campaigns', async () => {
    const one = await summary(`account_id=${usd.platformAccountId}&${WINDOW}`);
    expect(one.breakdown.map((b) => b.entity.type)).toEqual(['campaign']);
    const oneByAccount = await summary(`account_id=${usd.platformAccountId}&${WINDOW}&breakdown=account`);
    expect(oneByAccount.breakdown.map((b) => [b.entity.type, b.entity.id, b.spend])).toEqual([
      ['account', usd.id, 30],
    ]);
    const refused = await call(
      t.url,
      `/v1/insights/summary?${WINDOW}&breakdown=account&campaign_ids=${campaignIds.join(',')}`,
      { key },
    );
    expect(refused.status).toBe(400);
    expect((refused.body as { error: { type: string; message: string } }).error).toMatchObject({
      type: 'invalid_request',
      message: expect.stringContaining('campaign_ids'),
    });
    const unknown = await call(t.url, `/v1/insights/summary?${WINDOW}&breakdown=ad`, { key });
    expect(unknown.status).toBe(400);
  });

  it('falls back to XXX when a currency has no rate, and refuses a malformed rate', async () => {
    await t.app.use.settings.update(ctx, 'web', {
      reportingCurrency: { currency: 'USD', rates: { EUR: '1.1' } },
    });
    expect((await summary(WINDOW)).currency).toBe('XXX');
    await expect(
      t.app.use.settings.update(ctx, 'web', { reportingCurrency: { currency: 'USD', rates: { EUR: '-1' } } }),
    ).rejects.toMatchObject({ type: 'invalid_request' });
    await expect(
      t.app.use.settings.update(ctx, 'web', { reportingCurrency: { currency: 'USD', rates: { USD: '1' } } }),
    ).rejects.toMatchObject({ type: 'invalid_request' });
    await t.app.use.settings.update(ctx, 'web', { reportingCurrency: null });
    expect((await t.app.use.settings.get(ctx, 'web')).reportingCurrency).toBeNull();
  });
});

describe('kept answers', () => {
  it('hands back the same frozen answer while nothing it is made of moved, and a new one when it did', async () => {
    const input = { dateStart: '2026-03-01', dateEnd: '2026-03-03' };
    const first = await t.app.use.insights.summary(ctx, input);
    expect(Object.isFrozen(first) && Object.isFrozen(first.breakdown)).toBe(true);
    expect(await t.app.use.insights.summary(ctx, { ...input })).toBe(first);
    // A day of one account's campaign moves (its rollup, and with it the account's revision, follow).
    const [campaignId] = campaignIds;
    const conversionsOn = (delta: number) =>
      t.core.db
        .prepare(
          `UPDATE insights_campaign_daily SET conversions = conversions + ? WHERE campaign_id = ? AND date = '2026-03-02'`,
        )
        .run(delta, campaignId);
    conversionsOn(1);
    const moved = await t.app.use.insights.summary(ctx, input);
    expect(moved).not.toBe(first);
    expect(moved.totals.conversions).toBe(first.totals.conversions + 1);
    expect(await t.app.use.insights.summary(ctx, input)).toBe(moved);
    // A renamed account, another window, another reader's mode: each its own answer.
    t.core.db.prepare(`UPDATE ad_accounts SET name = 'Renamed' WHERE id = ?`).run(usd.id);
    const renamed = await t.app.use.insights.summary(ctx, input);
    expect(renamed).not.toBe(moved);
    expect(renamed.breakdown.find((b) => b.entity.id === usd.id)?.entity.name).toBe('Renamed');
    const other = await t.app.use.insights.summary(ctx, { dateStart: '2026-03-01', dateEnd: '2026-03-02' });
    expect(other.timeSeries).toHaveLength(2);
    expect(await t.app.use.insights.summary(ctx, input)).toBe(renamed);
    const live = await t.app.use.insights.summary({ ...ctx, mode: 'live' }, input);
    expect(live).not.toBe(renamed);
    expect(live).toEqual(renamed);
    // The agency's rates are among what an answer is made of.
    await t.app.use.settings.update(ctx, 'web', {
      reportingCurrency: { currency: 'USD', rates: { EUR: '1', JPY: '0.01' } },
    });
    const converted = await t.app.use.insights.summary(ctx, input);
    expect(converted.currency).toBe('USD');
    await t.app.use.settings.update(ctx, 'web', { reportingCurrency: null });
    expect((await t.app.use.insights.summary(ctx, input)).currency).toBe('XXX');
    conversionsOn(-1);
  });
});

describe('converting micros', () => {
  it('is exact integer arithmetic, rounded half away from zero', () => {
    expect(converterOf('0.5')(1)).toBe(1);
    expect(converterOf('0.5')(-1)).toBe(-1);
    expect(converterOf('0.5')(3)).toBe(2);
    expect(converterOf('1.0842')(20_000_000)).toBe(21_684_000);
    expect(converterOf('0.006711')(1_500_000_000)).toBe(10_066_500);
    // Beyond float precision: 9,007,199,254 × 1.000000001 in micros.
    expect(converterOf('1.000000001')(9_007_199_254_000)).toBe(9_007_199_263_007);
  });

  it('agrees with rational arithmetic for any amount and rate', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e12, max: 1e12 }),
        fc.integer({ min: 1, max: 10 ** 9 }),
        (micros, rateMillionths) => {
          const rate = `${Math.floor(rateMillionths / 1e6)}.${String(rateMillionths % 1e6).padStart(6, '0')}`;
          const exact = (BigInt(Math.abs(micros)) * BigInt(rateMillionths) * 2n + 1_000_000n) / 2_000_000n;
          expect(converterOf(rate)(micros)).toBe(Number(micros < 0 ? -exact : exact));
        },
      ),
    );
  });
});
