import { addDays, dateRange, daysBetween } from '../clock';
import type { Db } from '../store/open';
import {
  addTotals,
  deriveMetrics,
  percentChange,
  ratio4,
  round2,
  ZERO_TOTALS,
  type DerivedMetrics,
  type RawTotals,
} from './metrics';
import { groupByResultType, toResultGroups } from './result-groups';
import type { ResultGroup } from '../../shared/api/portfolio';
import {
  accountsOf,
  campaignLabels,
  sumDaily,
  sumPerCampaign,
  sumPerCampaignInWindows,
  sumTotals,
  type AccountWindow,
  type Scope,
} from './queries';

export { firstInsightDates, type AccountWindow } from './queries';

export { deriveMetrics, percentChange, type DerivedMetrics, type RawTotals } from './metrics';

export interface InsightsQuery {
  /** The accounts the caller may see; every query is confined to them. */
  accountIds: readonly string[];
  /** Optional narrower selection (already checked to belong to accountIds by the caller). */
  campaignIds?: readonly string[] | undefined;
  from: string;
  to: string;
  currency: string;
  /** The period trends compare with: default the previous equal-length period; null for none. */
  comparison?: { from: string; to: string } | null | undefined;
}

export interface InsightsSummary {
  dateRange: { from: string; to: string };
  granularity: 'daily';
  currency: string;
  totals: {
    spend: number;
    impressions: number;
    clicks: number;
    conversions: number;
    cpa: number | null;
    roas: number | null;
    ctr: number | null;
    cpm: number | null;
    frequency: number | null;
    reach: number;
  };
  trends: {
    spendChange: number | null;
    conversionsChange: number | null;
    cpaChange: number | null;
    roasChange: number | null;
  };
  timeSeries: Array<{
    date: string;
    spend: number;
    conversions: number;
    cpa: number | null;
    roas: number | null;
  }>;
  breakdown: Array<{
    entity: { type: 'campaign'; id: string; name: string };
    spend: number;
    conversions: number;
    cpa: number | null;
    roas: number | null;
    /** The same over the comparison period (addition); null without one. */
    previous: { spend: number; conversions: number; cpa: number | null; roas: number | null } | null;
    /** Addition: what the campaign's `conversions` count (never added across types) and its purchase value. */
    resultType: string | null;
    resultName: string | null;
    revenue: number;
  }>;
  /**
   * Addition: results and cost per result per result type (the largest spend first), ROAS only where
   * there is purchase value, each with the same over the comparison period (null without one).
   */
  resultsByType: Array<
    ResultGroup & { previous: { results: number; costPerResult: number | null; roas: number | null } | null }
  >;
}

/** The previous period of equal length that ends the day before `from`. */
export function previousPeriod(from: string, to: string): { from: string; to: string } {
  const length = daysBetween(from, to);
  return { from: addDays(from, -length), to: addDays(from, -1) };
}

/**
 * The spec's insights summary, from campaign-level daily rows. Reach is the sum of daily reach
 * (unique people per day, summed: Meta's de-duplicated reach over a range is not derivable from
 * daily rows), and frequency is impressions / that reach.
 */
export function insightsSummary(db: Db, q: InsightsQuery): InsightsSummary {
  const scope: Scope = { accountIds: q.accountIds, campaignIds: q.campaignIds };
  const days = sumDaily(db, scope, q);
  const current = days.reduce<RawTotals>(addTotals, ZERO_TOTALS);
  const compared = q.comparison === undefined ? previousPeriod(q.from, q.to) : q.comparison;
  const previous = compared ? sumTotals(db, scope, compared) : null;
  const now = deriveMetrics(current);
  const before = previous ? deriveMetrics(previous) : null;

  const byDate = new Map(days.map((row) => [row.date, row]));
  const timeSeries = dateRange(q.from, q.to).map((date) => {
    const m = deriveMetrics(byDate.get(date) ?? ZERO_TOTALS);
    return { date, spend: m.spend, conversions: m.conversions, cpa: m.cpa, roas: m.roas };
  });

  const perCampaign = sumPerCampaign(db, scope, q);
  const earlierRows = compared ? sumPerCampaign(db, scope, compared) : null;
  const earlier = earlierRows
    ? new Map(earlierRows.map((row) => [row.campaignId, deriveMetrics(row)]))
    : null;
  const labels = campaignLabels(db, [
    ...new Set([...perCampaign, ...(earlierRows ?? [])].map((row) => row.campaignId)),
  ]);
  const typeKey = (g: ResultGroup) => `${g.resultType ?? ''}\u0000${g.resultName ?? ''}`;
  const typesBefore = earlierRows
    ? new Map(toResultGroups(groupByResultType(earlierRows, labels)).map((g) => [typeKey(g), g]))
    : null;
  const resultsByType = toResultGroups(groupByResultType(perCampaign, labels)).map((g) => {
    const p = typesBefore?.get(typeKey(g));
    return {
      ...g,
      previous: typesBefore
        ? { results: p?.results ?? 0, costPerResult: p?.costPerResult ?? null, roas: p?.roas ?? null }
        : null,
    };
  });
  const breakdown = perCampaign
    .sort((a, b) => b.spendMicros - a.spendMicros || a.campaignId.localeCompare(b.campaignId))
    .map((row) => {
      const m = deriveMetrics(row);
      const label = labels.get(row.campaignId);
      return {
        entity: { type: 'campaign' as const, id: row.campaignId, name: label?.name ?? '' },
        spend: m.spend,
        conversions: m.conversions,
        cpa: m.cpa,
        roas: m.roas,
        previous: earlier
          ? (({ spend, conversions, cpa, roas }) => ({ spend, conversions, cpa, roas }))(
              earlier.get(row.campaignId) ?? deriveMetrics(ZERO_TOTALS),
            )
          : null,
        resultType: label?.resultType ?? null,
        resultName: label?.resultName ?? null,
        revenue: m.revenue,
      };
    });

  return {
    dateRange: { from: q.from, to: q.to },
    granularity: 'daily',
    currency: q.currency,
    totals: {
      spend: now.spend,
      impressions: now.impressions,
      clicks: now.clicks,
      conversions: now.conversions,
      cpa: now.cpa,
      roas: now.roas,
      ctr: now.ctr,
      cpm: now.cpm,
      frequency: ratio4(current.impressions, current.reach),
      reach: current.reach,
    },
    trends: {
      spendChange: percentChange(current.spendMicros, previous?.spendMicros ?? null),
      conversionsChange: percentChange(current.conversions, previous?.conversions ?? null),
      cpaChange: percentChange(now.cpa, before?.cpa ?? null),
      roasChange: percentChange(now.roas, before?.roas ?? null),
    },
    timeSeries,
    breakdown,
    resultsByType,
  };
}

export interface CampaignInsights extends DerivedMetrics {
  frequency: number | null;
  reach: number;
  linkClicks: number;
}

const withReach = (raw: RawTotals): CampaignInsights => ({
  ...deriveMetrics(raw),
  frequency: ratio4(raw.impressions, raw.reach),
  reach: raw.reach,
  linkClicks: raw.linkClicks,
});

/**
 * Per-campaign totals of every campaign with delivery in the accounts' windows (one window per
 * account, one query); campaigns without rows are absent (the caller shows zeros).
 */
export function campaignInsightsInWindows(
  db: Db,
  windows: readonly AccountWindow[],
): Map<string, CampaignInsights> {
  return new Map(sumPerCampaignInWindows(db, windows).map((row) => [row.campaignId, withReach(row)]));
}

/** Per-campaign totals over a window; campaigns without rows get zeros (and null ratios). */
export function campaignInsights(
  db: Db,
  campaignIds: readonly string[],
  from: string,
  to: string,
): Map<string, CampaignInsights> {
  const out = new Map<string, CampaignInsights>();
  if (campaignIds.length === 0) return out;
  const accountIds = accountsOf(db, campaignIds);
  const rows = new Map(
    sumPerCampaign(db, { accountIds, campaignIds }, { from, to }).map((row) => [row.campaignId, row]),
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
export function campaignDaily(db: Db, campaignId: string, from: string, to: string): CampaignDay[] {
  const accountIds = accountsOf(db, [campaignId]);
  const byDate = new Map(
    sumDaily(db, { accountIds, campaignIds: [campaignId] }, { from, to }).map((r) => [r.date, r]),
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
