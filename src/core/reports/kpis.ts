// KPI tiles with period-over-period deltas: spend, then results and cost per result per result type
// (a lead and a purchase are never one figure), and ROAS where there is purchase value.
import type { Kpi, ReportCampaign, ReportContent } from '../../shared/api/reports';
import { round2 } from '../insights/metrics';
import { changeTone } from './format';

/** Tiles of at most this many result types (the largest spend first); the rest are in "Results by type". */
const MAX_TYPES = 3;

function percentChange(value: number | null, previous: number | null): number | null {
  if (value === null || previous === null || previous === 0) return null;
  return round2(((value - previous) / previous) * 100);
}

export interface PreviousPeriod {
  spend: number;
  revenue: number;
  results: ReportContent['results'];
}

export function kpiTiles(
  current: { spend: number; revenue: number; roas: number | null; results: ReportContent['results'] },
  previous: PreviousPeriod,
): Kpi[] {
  const tiles: Kpi[] = [];
  const spendChange = percentChange(current.spend, previous.spend);
  tiles.push({
    metric: 'spend',
    resultName: null,
    value: current.spend,
    previous: previous.spend,
    change: spendChange,
    tone: changeTone('spend', spendChange),
  });
  const key = (r: ReportContent['results'][number]) => `${r.resultType ?? ''}\u0000${r.resultName ?? ''}`;
  const before = new Map(previous.results.map((r) => [key(r), r]));
  for (const r of current.results.slice(0, MAX_TYPES)) {
    const p = before.get(key(r));
    const resultsChange = percentChange(r.results, p?.results ?? null);
    tiles.push({
      metric: 'results',
      resultName: r.resultName,
      value: r.results,
      previous: p?.results ?? null,
      change: resultsChange,
      tone: changeTone('conversions', resultsChange),
    });
    if (r.resultType !== 'MIXED') {
      const costChange = percentChange(r.costPerResult, p?.costPerResult ?? null);
      tiles.push({
        metric: 'costPerResult',
        resultName: r.resultName,
        value: r.costPerResult,
        previous: p?.costPerResult ?? null,
        change: costChange,
        tone: changeTone('cpa', costChange),
      });
    }
  }
  if (current.revenue > 0) {
    const before =
      previous.spend > 0 && previous.revenue > 0 ? round2(previous.revenue / previous.spend) : null;
    const roasChange = percentChange(current.roas, before);
    tiles.push({
      metric: 'roas',
      resultName: null,
      value: current.roas,
      previous: before,
      change: roasChange,
      tone: changeTone('roas', roasChange),
    });
  }
  return tiles;
}

/** The campaigns' figures in the previous period, for the tiles' deltas. */
export function previousCampaigns(
  campaigns: readonly ReportCampaign[],
  perCampaign: Map<string, { spend: number; conversions: number; revenue: number }>,
): ReportCampaign[] {
  return campaigns.map((c) => {
    const m = perCampaign.get(c.id);
    return { ...c, spend: m?.spend ?? 0, conversions: m?.conversions ?? 0 };
  });
}
