import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../store/open';
import { sqliteSql } from '../store/sql';
import { KeptLines } from '../kept-lines';
import { campaignDaily, campaignInsights, deriveMetrics, insightsSummary, previousPeriod } from './index';
import type { BreakdownLine } from './summary';

let store: Store;

function seed(db: Store['db']): void {
  db.exec(`
    INSERT INTO workspaces (id, name, plan, created_at) VALUES ('ws_A', 'A', 'agency', 'x'), ('ws_B', 'B', 'agency', 'x');
    INSERT INTO platform_connections (id, workspace_id, base_url, api_version, mode, token_encrypted, created_at, updated_at)
      VALUES ('conn_A', 'ws_A', 'demo:', 'v25.0', 'test', x'00', 'x', 'x'), ('conn_B', 'ws_B', 'demo:', 'v25.0', 'test', x'00', 'x', 'x');
    INSERT INTO ad_accounts (id, workspace_id, connection_id, platform_account_id, mode, name, currency, timezone, status, connected_at)
      VALUES ('act_A', 'ws_A', 'conn_A', 'act_1', 'test', 'Acme', 'USD', 'UTC', 'active', 'x'),
             ('act_B', 'ws_B', 'conn_B', 'act_2', 'test', 'Other', 'USD', 'UTC', 'active', 'x');
  `);
  const campaign =
    db.prepare(`INSERT INTO campaigns (id, account_id, platform_campaign_id, name, status, effective_status,
    objective, buying_type, created_time, updated_time) VALUES (?, ?, ?, ?, 'ACTIVE', 'ACTIVE', 'OUTCOME_SALES', 'AUCTION', 'x', 'x')`);
  campaign.run('camp_1', 'act_A', '11', 'Spring');
  campaign.run('camp_2', 'act_A', '12', 'Summer');
  campaign.run('camp_3', 'act_B', '13', 'Foreign');
  const day =
    // Link clicks = clicks here, so link CTR reads as the fixture's CTR.
    db.prepare(`INSERT INTO insights_campaign_daily (campaign_id, date, account_id, spend_micros, impressions,
    clicks, conversions, revenue_micros, reach, link_clicks)
    SELECT c, d, a, s, i, k, v, r, h, k FROM (SELECT ? AS c, ? AS d, ? AS a, ? AS s, ? AS i, ? AS k, ? AS v,
      ? AS r, ? AS h)`);
  // Current window 2026-03-08..2026-03-14, previous 2026-03-01..2026-03-07.
  day.run('camp_1', '2026-03-10', 'act_A', 100_000_000, 10_000, 200, 4, 400_000_000, 8_000);
  day.run('camp_1', '2026-03-11', 'act_A', 50_500_000, 5_000, 50, 0, 0, 4_000);
  day.run('camp_2', '2026-03-10', 'act_A', 10_000_000, 0, 0, 0, 0, 0);
  day.run('camp_1', '2026-03-03', 'act_A', 75_000_000, 7_000, 100, 5, 150_000_000, 6_000);
  day.run('camp_3', '2026-03-10', 'act_B', 999_000_000, 1, 1, 1, 1, 1);
}

beforeEach(() => {
  store = openStore(mkdtempSync(join(tmpdir(), 'adlens-insights-')));
  seed(store.db);
});
afterEach(() => store.close());

describe('insightsSummary', () => {
  const query = { accountIds: ['act_A'], from: '2026-03-08', to: '2026-03-14', currency: 'USD' };

  it('computes totals exactly as the spec defines the metrics', async () => {
    const s = await insightsSummary(sqliteSql(store.db), query);
    expect(s.totals).toEqual({
      spend: 160.5,
      impressions: 15_000,
      clicks: 250,
      conversions: 4,
      cpa: 40.13, // 160.5 / 4 = 40.125 → 2 decimals
      roas: 2.4922, // 400 / 160.5
      ctr: 1.6667, // 250 / 15000 * 100
      cpm: 10.7, // 160.5 / 15000 * 1000
      frequency: 1.25, // 15000 / 12000
      reach: 12_000,
    });
    expect(s.granularity).toBe('daily');
    expect(s.dateRange).toEqual({ from: '2026-03-08', to: '2026-03-14' });
  });

  it('compares with the previous equal period (positive cpaChange = worse)', async () => {
    const s = await insightsSummary(sqliteSql(store.db), query);
    // previous: spend 75, conversions 5, cpa 15, roas 2
    expect(s.trends.spendChange).toBe(114);
    expect(s.trends.conversionsChange).toBe(-20);
    expect(s.trends.cpaChange).toBe(167.53); // 40.13 vs 15
    expect(s.trends.roasChange).toBe(24.61); // 2.4922 vs 2
  });

  it('fills every day of the range, with null ratios on days without conversions or spend', async () => {
    const s = await insightsSummary(sqliteSql(store.db), query);
    expect(s.timeSeries.map((d) => d.date)).toEqual([
      '2026-03-08',
      '2026-03-09',
      '2026-03-10',
      '2026-03-11',
      '2026-03-12',
      '2026-03-13',
      '2026-03-14',
    ]);
    expect(s.timeSeries[0]).toEqual({ date: '2026-03-08', spend: 0, conversions: 0, cpa: null, roas: null });
    expect(s.timeSeries[3]).toEqual({ date: '2026-03-11', spend: 50.5, conversions: 0, cpa: null, roas: 0 });
  });

  it('breaks down by campaign, biggest spender first, never leaking another workspace', async () => {
    const s = await insightsSummary(sqliteSql(store.db), query);
    expect(s.breakdown.map((b) => b.entity)).toEqual([
      { type: 'campaign', id: 'camp_1', name: 'Spring' },
      { type: 'campaign', id: 'camp_2', name: 'Summer' },
    ]);
    const leaked = await insightsSummary(sqliteSql(store.db), { ...query, campaignIds: ['camp_3'] });
    expect(leaked.totals.spend).toBe(0);
    expect(leaked.breakdown).toEqual([]);
  });

  it('hands back the breakdown lines of an earlier answer where they read the same, and new ones where not', async () => {
    const sql = sqliteSql(store.db);
    const kept = new KeptLines<BreakdownLine>();
    const first = await insightsSummary(sql, query, undefined, kept);
    const again = await insightsSummary(sql, query, undefined, kept);
    expect(again.breakdown).toBe(first.breakdown);
    expect(Object.isFrozen(first.breakdown[0])).toBe(true);
    // Another window keeps its own lines.
    const week = await insightsSummary(sql, { ...query, to: '2026-03-13' }, undefined, kept);
    expect(week.breakdown).not.toBe(first.breakdown);
    store.db
      .prepare(`UPDATE insights_campaign_daily SET conversions = 6 WHERE campaign_id = 'camp_1' AND date = ?`)
      .run('2026-03-10');
    const moved = await insightsSummary(sql, query, undefined, kept);
    expect(moved.breakdown).not.toBe(first.breakdown);
    expect(moved.breakdown[0]).not.toBe(first.breakdown[0]);
    expect(moved.breakdown[0]?.conversions).toBe(6);
    expect(moved.breakdown[1]).toBe(first.breakdown[1]);
  });

  it('gives null trends when the previous period is empty, and zeros with nulls on no data', async () => {
    const s = await insightsSummary(sqliteSql(store.db), { ...query, from: '2026-01-01', to: '2026-01-07' });
    expect(s.totals).toMatchObject({
      spend: 0,
      cpa: null,
      roas: null,
      ctr: null,
      cpm: null,
      frequency: null,
    });
    expect(s.trends).toEqual({
      spendChange: null,
      conversionsChange: null,
      cpaChange: null,
      roasChange: null,
    });
  });

  it('uses the (account, date) and (campaign, date) keys', () => {
    const plan = (sql: string) =>
      store.db
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(JSON.stringify(['act_A']), '2026-03-08', '2026-03-14')
        .map((r) => (r as { detail: string }).detail)
        .join('\n');
    expect(
      plan(`SELECT sum(spend_micros) FROM insights_campaign_daily
        WHERE account_id IN (SELECT value FROM json_each(?)) AND date BETWEEN ? AND ?`),
    ).toMatch(/USING (COVERING )?INDEX insights_campaign_daily_account_date/);
    expect(
      plan(`SELECT sum(spend_micros) FROM insights_campaign_daily
        WHERE campaign_id IN (SELECT value FROM json_each(?)) AND date BETWEEN ? AND ?`),
    ).toMatch(/USING PRIMARY KEY \(campaign_id=\? AND date>\? AND date<\?\)/);
  });

  it('gives results per result type, never adding a lead to a purchase, ROAS only with purchase value', async () => {
    store.db
      .exec(`UPDATE campaigns SET result_type = 'PURCHASE', result_name = 'Purchases' WHERE id = 'camp_1';
      UPDATE campaigns SET result_type = 'LEAD_FORM', result_name = 'Leads (form)' WHERE id = 'camp_2';
      UPDATE insights_campaign_daily SET conversions = 2 WHERE campaign_id = 'camp_2'`);
    const s = await insightsSummary(sqliteSql(store.db), query);
    expect(s.resultsByType).toEqual([
      {
        resultType: 'PURCHASE',
        resultName: 'Purchases',
        campaigns: 1,
        results: 4,
        spend: 150.5,
        costPerResult: 37.63, // 150.5 / 4
        revenue: 400,
        roas: 2.6578,
        previous: { results: 5, costPerResult: 15, roas: 2 },
      },
      {
        resultType: 'LEAD_FORM',
        resultName: 'Leads (form)',
        campaigns: 1,
        results: 2,
        spend: 10,
        costPerResult: 5,
        revenue: 0,
        roas: null,
        previous: { results: 0, costPerResult: null, roas: null },
      },
    ]);
    // The spec's fields stay as they are (the contract).
    expect(s.totals.conversions).toBe(6);
    expect(s.breakdown.map((b) => [b.entity.id, b.resultName, b.revenue])).toEqual([
      ['camp_1', 'Purchases', 400],
      ['camp_2', 'Leads (form)', 0],
    ]);
    expect(
      (await insightsSummary(sqliteSql(store.db), { ...query, comparison: null })).resultsByType[1]?.previous,
    ).toBeNull();
  });
});

describe('campaignInsights and campaignDaily', () => {
  it('returns zeros for a campaign without rows and exact figures for the rest', async () => {
    const m = await campaignInsights(
      sqliteSql(store.db),
      ['camp_1', 'camp_2', 'camp_missing'],
      '2026-03-08',
      '2026-03-14',
    );
    expect(m.get('camp_1')).toMatchObject({ spend: 150.5, conversions: 4, cpa: 37.63, roas: 2.6578 });
    expect(m.get('camp_2')).toMatchObject({
      spend: 10,
      impressions: 0,
      ctr: null,
      cpm: null,
      cpa: null,
      roas: 0,
    });
    expect(m.get('camp_missing')).toMatchObject({ spend: 0, cpa: null, roas: null });
  });

  it('lists every day of a campaign', async () => {
    const days = await campaignDaily(sqliteSql(store.db), 'camp_1', '2026-03-10', '2026-03-12');
    expect(days.map((d) => [d.date, d.spend, d.cpa])).toEqual([
      ['2026-03-10', 100, 25],
      ['2026-03-11', 50.5, null],
      ['2026-03-12', 0, null],
    ]);
  });

  it('previous period has the same length and ends the day before', () => {
    expect(previousPeriod('2026-03-08', '2026-03-14')).toEqual({ from: '2026-03-01', to: '2026-03-07' });
    expect(previousPeriod('2026-03-01', '2026-03-01')).toEqual({ from: '2026-02-28', to: '2026-02-28' });
  });
});

describe('rounding', () => {
  it('rounds money ratios once, straight to cents', () => {
    // 8.06496 per thousand: rounding to 4 decimals first (8.065) and then to 2 would give 8.07.
    expect(
      deriveMetrics({
        spendMicros: 806_496_000,
        impressions: 100_000,
        clicks: 0,
        conversions: 0,
        revenueMicros: 0,
        reach: 0,
        linkClicks: 0,
      }).cpm,
    ).toBe(8.06);
    expect(
      deriveMetrics({
        spendMicros: 10_049_600,
        impressions: 0,
        clicks: 0,
        conversions: 1,
        revenueMicros: 0,
        reach: 0,
        linkClicks: 0,
      }).cpa,
    ).toBe(10.05);
    expect(
      deriveMetrics({
        spendMicros: 100_049_600,
        impressions: 0,
        clicks: 0,
        conversions: 10,
        revenueMicros: 0,
        reach: 0,
        linkClicks: 0,
      }).cpa,
    ).toBe(10);
  });
});
