// Insights read models: the summary (summary.ts), per-campaign totals over windows, one campaign's days.
import { dateRange } from '../clock';
import type { Sql } from '../store/sql';
import { deriveMetrics, ratio4, round2, ZERO_TOTALS, type DerivedMetrics, type RawTotals } from './metrics';
import { accountsOf, sumDaily, sumPerCampaign, sumPerCampaignInWindows, type AccountWindow } from './queries';

export { firstInsightDates, type AccountWindow } from './queries';
export { deriveMetrics, percentChange, type DerivedMetrics, type RawTotals } from './metrics';
export {
  insightsSummary,
  NO_CURRENCY,
  previousPeriod,
  type BreakdownLevel,
  type CurrencyTotals,
  type InsightsQuery,
  type InsightsSummary,
} from './summary';
export { AccountFigures, type Revisions } from './account-figures';
export { accountResults } from './account-results';

export interface CampaignInsights extends DerivedMetrics {
  frequency: number | null;
  reach: number;
  linkClicks: number;
}

// Written out field by field: one per campaign of a page, and on Node 20's V8 a spread followed by
// more properties costs microseconds and kilobytes an object (accounts/store.ts, accountViewOf).
const withReach = (raw: RawTotals): CampaignInsights => {
  const m = deriveMetrics(raw);
  return {
    spend: m.spend,
    impressions: m.impressions,
    clicks: m.clicks,
    conversions: m.conversions,
    revenue: m.revenue,
    cpa: m.cpa,
    roas: m.roas,
    ctr: m.ctr,
    cpm: m.cpm,
    frequency: ratio4(raw.impressions, raw.reach),
    reach: raw.reach,
    linkClicks: raw.linkClicks,
  };
};

/**
 * Per-campaign totals of every campaign with delivery in the accounts' windows (one window per
 * account, one query); campaigns without rows are absent (the caller shows zeros).
 */
export async function campaignInsightsInWindows(
  sql: Sql,
  windows: readonly AccountWindow[],
): Promise<Map<string, CampaignInsights>> {
  return new Map(
    (await sumPerCampaignInWindows(sql, windows)).map((row) => [row.campaignId, withReach(row)]),
  );
}

/**
 * Per-campaign totals over a window; campaigns without rows get zeros (and null ratios). The
 * campaigns' accounts are read here unless the caller read them with the campaigns (`ownAccountIds`).
 */
export async function campaignInsights(
  sql: Sql,
  campaignIds: readonly string[],
  from: string,
  to: string,
  ownAccountIds?: readonly string[],
): Promise<Map<string, CampaignInsights>> {
  const out = new Map<string, CampaignInsights>();
  if (campaignIds.length === 0) return out;
  const accountIds = ownAccountIds ?? (await accountsOf(sql, campaignIds));
  const rows = new Map(
    (await sumPerCampaign(sql, { accountIds, campaignIds }, { from, to })).map((row) => [
      row.campaignId,
      row,
    ]),
  );
  for (const id of campaignIds) {
    const raw = rows.get(id) ?? ZERO_TOTALS;
    out.set(id, withReach(raw));
  }
  return out;
}

export interface CampaignDay {
  date: string;
  spend: number;
  conversions: number;
  cpa: number | null;
  roas: number | null;
  revenue: number;
  impressions: number;
  clicks: number;
}

/** One campaign's days from `from` to `to`, zero-filled. */
export async function campaignDaily(
  sql: Sql,
  campaignId: string,
  from: string,
  to: string,
): Promise<CampaignDay[]> {
  const accountIds = await accountsOf(sql, [campaignId]);
  const byDate = new Map(
    (await sumDaily(sql, { accountIds, campaignIds: [campaignId] }, { from, to })).map((r) => [r.date, r]),
  );
  return dateRange(from, to).map((date) => {
    const m = deriveMetrics(byDate.get(date) ?? ZERO_TOTALS);
    return {
      date,
      spend: m.spend,
      conversions: m.conversions,
      cpa: m.cpa,
      roas: m.roas,
      revenue: m.revenue,
      impressions: m.impressions,
      clicks: m.clicks,
    };
  });
}

export { round2 };
