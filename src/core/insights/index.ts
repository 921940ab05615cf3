import { addDays, dateRange, daysBetween } from '../clock';
import type { Sql } from '../store/sql';
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
import type { ReportingCurrency } from '../../shared/api/reporting-currency';
import { convertersFor, convertTotals, type MicrosConverter } from './currencies';
import {
  accountsOf,
  campaignLabels,
  type CampaignLabel,
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
  /**
   * Each selected account's currency. When they differ, money is never added as it is: the summary
   * gives one total per currency (`currencies`) and, with the agency's reporting currency and rates
   * (`reporting`), the spec's fields converted into it; without them the spec's money fields are
   * empty under the ISO 4217 code for "no currency", XXX.
   */
  accountCurrencies?: ReadonlyMap<string, string> | undefined;
  reporting?: ReportingCurrency | null | undefined;
}

/** ISO 4217's code for "no currency": the currency of a summary across currencies without rates. */
export const NO_CURRENCY = 'XXX';

export interface CurrencyTotals {
  currency: string;
  accounts: number;
  totals: InsightsSummary['totals'];
  trends: InsightsSummary['trends'];
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
    /** Addition, across currencies without rates only: the campaign's own currency. */
    currency?: string;
  }>;
  /**
   * Addition: results and cost per result per result type (the largest spend first), ROAS only where
   * there is purchase value, each with the same over the comparison period (null without one).
   */
  resultsByType: Array<
    ResultGroup & { previous: { results: number; costPerResult: number | null; roas: number | null } | null }
  >;
  /** Addition, when the selected accounts use several currencies: one total per currency. */
  currencies?: CurrencyTotals[];
  /** Addition, across currencies: the reporting currency and rates the spec's fields were converted at. */
  conversion?: ReportingCurrency | null;
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
export async function insightsSummary(sql: Sql, q: InsightsQuery): Promise<InsightsSummary> {
  const scope: Scope = { accountIds: q.accountIds, campaignIds: q.campaignIds };
  const compared = q.comparison === undefined ? previousPeriod(q.from, q.to) : q.comparison;
  const byCurrency = currencyGroups(q);
  if (byCurrency.size <= 1) {
    const days = await sumDaily(sql, scope, q);
    const perCampaign = await sumPerCampaign(sql, scope, q);
    const earlierRows = compared ? await sumPerCampaign(sql, scope, compared) : null;
    return buildSummary(q, q.currency, {
      days,
      previous: compared ? await sumTotals(sql, scope, compared) : null,
      perCampaign,
      earlierRows,
      labels: await labelsOf(sql, perCampaign, earlierRows),
    });
  }
  return acrossCurrencies(sql, q, scope, compared, byCurrency);
}

interface RawSummary {
  days: Array<RawTotals & { date: string }>;
  previous: RawTotals | null;
  perCampaign: Array<RawTotals & { campaignId: string }>;
  earlierRows: Array<RawTotals & { campaignId: string }> | null;
  labels: Map<string, CampaignLabel>;
}

function labelsOf(
  sql: Sql,
  perCampaign: Array<{ campaignId: string }>,
  earlierRows: Array<{ campaignId: string }> | null,
): Promise<Map<string, CampaignLabel>> {
  return campaignLabels(sql, [
    ...new Set([...perCampaign, ...(earlierRows ?? [])].map((row) => row.campaignId)),
  ]);
}

/** The selected accounts by currency (one group when the query names no currencies). */
function currencyGroups(q: InsightsQuery): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const id of q.accountIds) {
    const currency = q.accountCurrencies?.get(id) ?? q.currency;
    groups.set(currency, [...(groups.get(currency) ?? []), id]);
  }
  return new Map([...groups].sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * Several currencies: account-day totals per currency (the rollup), the campaigns once (each in its
 * account's currency); converted into the reporting currency when the agency has rates for all of
 * them, else the spec's money fields stay empty under XXX and each campaign keeps its own currency.
 */
async function acrossCurrencies(
  sql: Sql,
  q: InsightsQuery,
  scope: Scope,
  compared: { from: string; to: string } | null,
  groups: Map<string, string[]>,
): Promise<InsightsSummary> {
  const perGroup: Array<{
    currency: string;
    accountIds: string[];
    days: Array<RawTotals & { date: string }>;
    previous: RawTotals | null;
  }> = [];
  for (const [currency, accountIds] of groups) {
    const groupScope: Scope = { accountIds, campaignIds: q.campaignIds };
    perGroup.push({
      currency,
      accountIds,
      days: await sumDaily(sql, groupScope, q),
      previous: compared ? await sumTotals(sql, groupScope, compared) : null,
    });
  }
  const perCampaign = await sumPerCampaign(sql, scope, q);
  const earlierRows = compared ? await sumPerCampaign(sql, scope, compared) : null;
  const labels = await labelsOf(sql, perCampaign, earlierRows);
  const currencyOfAccount = new Map(perGroup.flatMap((g) => g.accountIds.map((id) => [id, g.currency])));
  const currencyOf = (campaignId: string): string =>
    currencyOfAccount.get(labels.get(campaignId)?.accountId ?? '') ?? q.currency;
  const currencies: CurrencyTotals[] = perGroup.map((g) => {
    const current = g.days.reduce<RawTotals>(addTotals, ZERO_TOTALS);
    return {
      currency: g.currency,
      accounts: g.accountIds.length,
      totals: totalsOf(current),
      trends: trendsOf(current, g.previous),
    };
  });
  const converters = convertersFor(q.reporting ?? null, [...groups.keys()]);
  if (converters && q.reporting) {
    const converterOf = (currency: string): MicrosConverter => converters.get(currency) ?? ((m) => m);
    const days = new Map<string, RawTotals & { date: string }>();
    let previous: RawTotals | null = compared ? ZERO_TOTALS : null;
    for (const g of perGroup) {
      const convert = converterOf(g.currency);
      for (const day of g.days) {
        const converted = convertTotals(day, convert);
        const sum = days.get(day.date);
        days.set(day.date, sum ? { ...addTotals(sum, converted), date: day.date } : converted);
      }
      if (previous && g.previous) previous = addTotals(previous, convertTotals(g.previous, convert));
    }
    const convertRow = <T extends RawTotals & { campaignId: string }>(row: T): T =>
      convertTotals(row, converterOf(currencyOf(row.campaignId)));
    const summary = buildSummary(q, q.reporting.currency, {
      days: [...days.values()].sort((a, b) => a.date.localeCompare(b.date)),
      previous,
      perCampaign: perCampaign.map(convertRow),
      earlierRows: earlierRows ? earlierRows.map(convertRow) : null,
      labels,
    });
    return { ...summary, currencies, conversion: q.reporting };
  }
  // No rates: counts are added across currencies, money is not.
  const days = new Map<string, RawTotals & { date: string }>();
  for (const g of perGroup) {
    for (const day of g.days) {
      const sum = days.get(day.date);
      days.set(day.date, sum ? { ...addTotals(sum, day), date: day.date } : day);
    }
  }
  const previous = compared
    ? perGroup.reduce<RawTotals>((sum, g) => (g.previous ? addTotals(sum, g.previous) : sum), ZERO_TOTALS)
    : null;
  const summary = buildSummary(q, NO_CURRENCY, {
    days: [...days.values()].sort((a, b) => a.date.localeCompare(b.date)),
    previous,
    perCampaign,
    earlierRows,
    labels,
  });
  return {
    ...summary,
    totals: { ...summary.totals, spend: 0, cpa: null, roas: null, cpm: null },
    trends: { ...summary.trends, spendChange: null, cpaChange: null, roasChange: null },
    timeSeries: summary.timeSeries.map((day) => ({ ...day, spend: 0, cpa: null, roas: null })),
    breakdown: summary.breakdown.map((entry) => ({ ...entry, currency: currencyOf(entry.entity.id) })),
    resultsByType: [],
    currencies,
    conversion: null,
  };
}

function totalsOf(current: RawTotals): InsightsSummary['totals'] {
  const now = deriveMetrics(current);
  return {
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
  };
}

function trendsOf(current: RawTotals, previous: RawTotals | null): InsightsSummary['trends'] {
  const now = deriveMetrics(current);
  const before = previous ? deriveMetrics(previous) : null;
  return {
    spendChange: percentChange(current.spendMicros, previous?.spendMicros ?? null),
    conversionsChange: percentChange(current.conversions, previous?.conversions ?? null),
    cpaChange: percentChange(now.cpa, before?.cpa ?? null),
    roasChange: percentChange(now.roas, before?.roas ?? null),
  };
}

/** The spec's summary (and its additions) from the window's raw sums, all in `currency`. */
function buildSummary(q: InsightsQuery, currency: string, raw: RawSummary): InsightsSummary {
  const { days, previous, perCampaign, earlierRows, labels } = raw;
  const current = days.reduce<RawTotals>(addTotals, ZERO_TOTALS);

  const byDate = new Map(days.map((row) => [row.date, row]));
  const timeSeries = dateRange(q.from, q.to).map((date) => {
    const m = deriveMetrics(byDate.get(date) ?? ZERO_TOTALS);
    return { date, spend: m.spend, conversions: m.conversions, cpa: m.cpa, roas: m.roas };
  });

  const earlier = earlierRows
    ? new Map(earlierRows.map((row) => [row.campaignId, deriveMetrics(row)]))
    : null;
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
    currency,
    totals: totalsOf(current),
    trends: trendsOf(current, previous),
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
export async function campaignInsightsInWindows(
  sql: Sql,
  windows: readonly AccountWindow[],
): Promise<Map<string, CampaignInsights>> {
  return new Map(
    (await sumPerCampaignInWindows(sql, windows)).map((row) => [row.campaignId, withReach(row)]),
  );
}

/** Per-campaign totals over a window; campaigns without rows get zeros (and null ratios). */
export async function campaignInsights(
  sql: Sql,
  campaignIds: readonly string[],
  from: string,
  to: string,
): Promise<Map<string, CampaignInsights>> {
  const out = new Map<string, CampaignInsights>();
  if (campaignIds.length === 0) return out;
  const accountIds = await accountsOf(sql, campaignIds);
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
