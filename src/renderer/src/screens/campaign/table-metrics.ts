// The numbers of the campaigns table beyond one row: totals of what is shown and changes against
// the comparison period. Results are totalled per result type (leads and purchases never add up),
// money only within one currency, and every ratio is recomputed from the totals, never averaged.
import type { CampaignMetrics, CampaignRow } from '../../../../shared/ipc';

/** The values a metric column reads; null where a figure has no meaning (no denominator, mixed units). */
export interface MetricValues {
  spend: number | null;
  revenue: number | null;
  impressions: number;
  reach: number;
  clicks: number;
  linkClicks: number;
  results: number | null;
  costPerResult: number | null;
  roas: number | null;
  ctr: number | null;
  cpm: number | null;
  cpc: number | null;
  frequency: number | null;
}

const round = (value: number, decimals: number): number => {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
};
const div = (a: number | null, b: number | null, decimals: number, scale = 1): number | null =>
  a === null || b === null || b === 0 ? null : round((a / b) * scale, decimals);

/**
 * One campaign's values (its results are of its own result type). ROAS is only read where there is
 * purchase value or the results are purchases: a lead campaign has no "0.00×" ROAS.
 */
export function rowValues(m: CampaignMetrics, resultType?: string | null): MetricValues {
  const noValue = m.revenue === 0 && resultType !== undefined && resultType !== 'PURCHASE';
  return {
    spend: m.spend,
    revenue: m.revenue,
    impressions: m.impressions,
    reach: m.reach,
    clicks: m.clicks,
    linkClicks: m.linkClicks,
    results: m.conversions,
    costPerResult: m.cpa,
    roas: noValue ? null : m.roas,
    ctr: m.ctr,
    cpm: m.cpm,
    cpc: div(m.spend, m.linkClicks, 2),
    frequency: m.frequency,
  };
}

export interface ResultTotal {
  /** Ads Manager's name of the result ("Purchases", "Leads (form)"), or "No result type". */
  name: string;
  results: number;
  /** Spend of the campaigns of this result type over their results (one currency only). */
  costPerResult: number | null;
}

export interface Totals {
  values: MetricValues;
  /** The one currency of the rows, or null when they mix currencies (money is then not totalled). */
  currency: string | null;
  /** Results per result type, largest first. */
  byResultType: ResultTotal[];
  campaigns: number;
}

/**
 * Totals of `rows` over the metrics `pick` gives (the range's, or the comparison period's). Results and
 * cost per result are single figures only when every row has the same result type.
 */
export function totalsOf(
  rows: readonly CampaignRow[],
  pick: (row: CampaignRow) => CampaignMetrics | null,
): Totals {
  const currencies = new Set(rows.map((r) => r.currency));
  const currency = currencies.size === 1 ? ([...currencies][0] as string) : null;
  let spend = 0;
  let revenue = 0;
  let impressions = 0;
  let reach = 0;
  let clicks = 0;
  let linkClicks = 0;
  const types = new Map<string, { results: number; spend: number }>();
  for (const row of rows) {
    const m = pick(row);
    if (!m) continue;
    spend += m.spend;
    revenue += m.revenue;
    impressions += m.impressions;
    reach += m.reach;
    clicks += m.clicks;
    linkClicks += m.linkClicks;
    const name = row.resultName ?? 'No result type';
    const t = types.get(name) ?? { results: 0, spend: 0 };
    t.results += m.conversions;
    t.spend += m.spend;
    types.set(name, t);
  }
  const money = (value: number): number | null => (currency === null ? null : round(value, 2));
  const byResultType = [...types.entries()]
    .map(([name, t]) => ({
      name,
      results: t.results,
      costPerResult: currency === null ? null : div(t.spend, t.results, 2),
    }))
    .sort((a, b) => b.results - a.results || a.name.localeCompare(b.name));
  const single = byResultType.length === 1 ? byResultType[0] : undefined;
  return {
    currency,
    campaigns: rows.length,
    byResultType,
    values: {
      spend: money(spend),
      revenue: money(revenue),
      impressions,
      reach,
      clicks,
      linkClicks,
      results: single ? single.results : null,
      costPerResult: single ? single.costPerResult : null,
      roas: div(revenue, spend, 4),
      ctr: div(linkClicks, impressions, 4, 100),
      cpm: currency === null ? null : div(spend, impressions, 2, 1000),
      cpc: currency === null ? null : div(spend, linkClicks, 2),
      frequency: div(impressions, reach, 4),
    },
  };
}

/** Whether a rise of the metric is good news (CPA down is good; spend is neither). */
export type GoodWhen = 'up' | 'down' | 'neutral';

export interface Delta {
  absolute: number;
  /** Percent change; null when the comparison value is 0. */
  percent: number | null;
  tone: 'good' | 'bad' | 'neutral';
}

export function deltaOf(current: number | null, previous: number | null, goodWhen: GoodWhen): Delta | null {
  if (current === null || previous === null) return null;
  const absolute = round(current - previous, 4);
  const percent =
    previous === 0 ? (current === 0 ? 0 : null) : round(((current - previous) / Math.abs(previous)) * 100, 1);
  const tone =
    goodWhen === 'neutral' || absolute === 0
      ? 'neutral'
      : absolute > 0 === (goodWhen === 'up')
        ? 'good'
        : 'bad';
  return { absolute, percent, tone };
}
