// Results per result type: the one rule (shared by the portfolio, the account overview and insights)
// that never adds a lead to a purchase. MIXED/UNKNOWN get no cost per result; ROAS only with purchase value.
import { microsToAmount, ratio } from '../money';
import type { ResultGroup } from '../../shared/api/portfolio';

/** One result type's sums (the SQL's column names). */
export interface ResultTypeRow {
  result_type: string | null;
  result_name: string | null;
  campaigns: number;
  results: number;
  spend_micros: number;
  revenue_micros: number;
}

const round2 = (v: number): number => Math.round(v * 100) / 100;

export function toResultGroups(rows: readonly ResultTypeRow[]): ResultGroup[] {
  return rows.map((r) => ({
    resultType: r.result_type,
    resultName: r.result_name,
    campaigns: r.campaigns,
    results: r.results,
    spend: microsToAmount(r.spend_micros),
    costPerResult:
      r.result_type === 'MIXED' || r.result_type === 'UNKNOWN' || r.results === 0
        ? null
        : round2(r.spend_micros / 1_000_000 / r.results),
    revenue: microsToAmount(r.revenue_micros),
    roas: r.revenue_micros > 0 ? ratio(r.revenue_micros, r.spend_micros) : null,
  }));
}

/**
 * Per-campaign sums grouped by the campaign's result type and name (the rows the portfolio's SQL
 * groups), the largest spend first: for callers that already hold the per-campaign sums.
 */
export function groupByResultType(
  perCampaign: ReadonlyArray<{
    campaignId: string;
    conversions: number;
    spendMicros: number;
    revenueMicros: number;
  }>,
  typeOf: ReadonlyMap<string, { resultType: string | null; resultName: string | null }>,
): ResultTypeRow[] {
  const groups = new Map<string, ResultTypeRow>();
  for (const row of perCampaign) {
    const t = typeOf.get(row.campaignId) ?? { resultType: null, resultName: null };
    const key = `${t.resultType ?? ''}\u0000${t.resultName ?? ''}`;
    const g = groups.get(key) ?? {
      result_type: t.resultType,
      result_name: t.resultName,
      campaigns: 0,
      results: 0,
      spend_micros: 0,
      revenue_micros: 0,
    };
    g.campaigns += 1;
    g.results += row.conversions;
    g.spend_micros += row.spendMicros;
    g.revenue_micros += row.revenueMicros;
    groups.set(key, g);
  }
  return [...groups.values()].sort(bySpend);
}

/** Groups of several accounts (or windows) added per result type and name, the largest spend first. */
export function mergeResultRows(rows: Iterable<ResultTypeRow>): ResultTypeRow[] {
  const groups = new Map<string, ResultTypeRow>();
  for (const row of rows) {
    const key = `${row.result_type ?? ''}\u0000${row.result_name ?? ''}`;
    const g = groups.get(key);
    groups.set(
      key,
      g
        ? {
            ...g,
            campaigns: g.campaigns + row.campaigns,
            results: g.results + row.results,
            spend_micros: g.spend_micros + row.spend_micros,
            revenue_micros: g.revenue_micros + row.revenue_micros,
          }
        : { ...row },
    );
  }
  return [...groups.values()].sort(bySpend);
}

/** The largest spend first; ties by result type and name, so both engines give one order. */
export function bySpend(a: ResultTypeRow, b: ResultTypeRow): number {
  return (
    b.spend_micros - a.spend_micros ||
    (a.result_type ?? '').localeCompare(b.result_type ?? '') ||
    (a.result_name ?? '').localeCompare(b.result_name ?? '')
  );
}
