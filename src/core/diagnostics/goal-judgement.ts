// Each campaign judged against its goal: the target CPA or ROAS set for it or its account, else
// break-even for a campaign that tracks revenue. The cost per result is judged on the range's days
// whose conversions are in (the last days are still arriving); when they hold fewer results than the
// minimum, the last 28 days are pooled, and when even those are too few the campaign is "not enough
// data" with what is missing, rather than silent. Pure: plain data in, plain data out.
import type { GoalCheck } from '../../shared/api/diagnostics';
import { addDays, dateRange } from '../clock';
import { money } from './format';
import { cprOf, round, sumRange, type Totals } from './series';
import type { Thresholds } from './thresholds';
import type { CampaignData, Window } from './types';
import { isJudgeable } from './detectors/context';

/** A campaign's sums over the pooled days, for the account's median (micros). */
export interface PeerTotals {
  campaignId: string;
  resultType: string | null;
  spend: number;
  conversions: number;
  revenue: number;
}

export interface GoalJudgement {
  check: GoalCheck;
  /** Spend of the range that did not earn the goal (micros): range spend × shortfall. */
  moneyAtRisk: number;
  /** How comfortably the goal is beaten (2 = twice the target ROAS, or half the target CPA); null: not met or unknown. */
  headroom: number | null;
  /** Judged days' totals. */
  judged: Totals;
  rangeSpend: number;
}

/** An implied break-even is only called missed this far below it (a sales campaign at ROAS < 0.8). */
export const IMPLIED_BREAK_EVEN_GAP = 0.2;

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const cpaOf = (t: Totals): number | null => {
  const cpr = cprOf(t);
  return cpr === null ? null : cpr / 1_000_000;
};
const roasOf = (t: { spend: number; revenue: number }): number | null =>
  t.spend > 0 ? t.revenue / t.spend : null;

/** The pooled window every campaign's median and "not enough data" use: the baseline's length. */
export function pooledWindow(window: Window, th: Thresholds): { from: string; to: string } {
  const to =
    addDays(window.to, -th.conversionLagDays) < window.from
      ? window.to
      : addDays(window.to, -th.conversionLagDays);
  const from = addDays(to, -(th.baselineDays - 1));
  return { from: from < window.loadFrom ? window.loadFrom : from, to };
}

/** The account's median cost per result (same result type) and ROAS (campaigns with revenue). */
export function accountMedians(
  peers: readonly PeerTotals[],
  resultType: string | null | undefined,
  th: Thresholds,
): { cpa: number | null; roas: number | null } {
  const enough = peers.filter((p) => p.conversions >= th.minConversions && p.spend > 0);
  return {
    cpa: median(
      enough
        .filter((p) => (p.resultType ?? null) === (resultType ?? null) && isJudgeable(p.resultType))
        .map((p) => p.spend / p.conversions / 1_000_000),
    ),
    roas: median(enough.filter((p) => p.revenue > 0).map((p) => p.revenue / p.spend)),
  };
}

/** The account's medians for a campaign's result type. */
export type AccountMedians = (resultType: string | null | undefined) => {
  cpa: number | null;
  roas: number | null;
};

/**
 * `accountMedians` computed once per result type for a whole diagnosis: every campaign is shown beside
 * the same account, and sorting the account's peers again for each of a thousand campaigns was a
 * quadratic share of an account-level diagnostic.
 */
export function accountMediansOf(peers: readonly PeerTotals[], th: Thresholds): AccountMedians {
  const byType = new Map<string | null, { cpa: number | null; roas: number | null }>();
  return (resultType) => {
    const key = resultType ?? null;
    let medians = byType.get(key);
    if (!medians) {
      medians = accountMedians(peers, key, th);
      byType.set(key, medians);
    }
    return medians;
  };
}

function missingLabel(results: number, need: number, days: number): string {
  if (results === 0) return `0 of ${need} results needed; none in the last ${days} days`;
  const perDay = results / days;
  const more = Math.ceil((need - results) / perDay);
  return `${results} of ${need} results needed; about ${more} more day${more === 1 ? '' : 's'} at this rate`;
}

export function judgeGoal(
  data: CampaignData,
  window: Window,
  th: Thresholds,
  medians: AccountMedians,
): GoalJudgement {
  const lagTo = addDays(window.to, -th.conversionLagDays);
  const rangeCpr = { from: window.from, to: lagTo < window.from ? window.to : lagTo };
  const pooled = pooledWindow(window, th);
  const need = th.minConversions;
  const minSpend = th.minSpendPerUnit * 1_000_000;
  const rangeTotals = sumRange(data.daily, window.from, window.to);
  let judgedWindow = rangeCpr;
  let judged = sumRange(data.daily, rangeCpr.from, rangeCpr.to);
  // Too few results in the range: judge the pooled days instead of staying silent.
  if (judged.conversions < need) {
    judgedWindow = pooled;
    judged = sumRange(data.daily, pooled.from, pooled.to);
  }
  const reference = sumRange(data.daily, addDays(window.from, -th.baselineDays), addDays(window.from, -1));

  const tracksRevenue = sumRange(data.daily, pooled.from, window.to).revenue > 0;
  // A goal is above zero (the store refuses others); a snapshot built elsewhere may carry none.
  const own = data.goal && data.goal.target > 0 ? data.goal : null;
  const metric: 'CPA' | 'ROAS' = own ? own.kind : tracksRevenue ? 'ROAS' : 'CPA';
  const goal =
    own ?? (metric === 'ROAS' ? { kind: 'ROAS' as const, target: 1, source: 'break_even' as const } : null);
  const implied = goal?.source === 'break_even';

  const actual = metric === 'CPA' ? cpaOf(judged) : roasOf(judged);
  const enoughReference = reference.conversions >= need && reference.spend >= minSpend;
  const baseline = enoughReference ? (metric === 'CPA' ? cpaOf(reference) : roasOf(reference)) : null;
  const ofType = medians(data.resultType);
  const accountMedian = metric === 'CPA' ? ofType.cpa : ofType.roas;
  const days = dateRange(judgedWindow.from, judgedWindow.to).length;

  let notEnoughData: string | null = null;
  if (metric === 'CPA' && !isJudgeable(data.resultType)) {
    notEnoughData =
      'no single result type to count (its ad sets optimise for different results, or none Meta reports)';
  } else if (judged.spend < minSpend) {
    notEnoughData = `${money(judged.spend, data.currency)} of ${money(minSpend, data.currency)} spend needed in the last ${days} days`;
  } else if (judged.conversions < need) {
    // Spending what the minimum results cost at the target CPA, yet fewer results: a miss, however few.
    const decided = metric === 'CPA' && goal !== null && judged.spend >= need * goal.target * 1_000_000;
    if (!decided) notEnoughData = missingLabel(judged.conversions, need, days);
  }

  let status: GoalCheck['status'];
  let gap: number | null = null;
  let headroom: number | null = null;
  if (notEnoughData !== null) status = 'NOT_ENOUGH_DATA';
  else if (!goal) status = 'NO_GOAL';
  else {
    if (goal.kind === 'CPA') {
      gap = actual === null ? 1 : Math.max(0, 1 - goal.target / actual);
      headroom = actual !== null && actual <= goal.target ? goal.target / Math.max(actual, 1e-9) : null;
    } else {
      gap = Math.max(0, 1 - (actual ?? 0) / goal.target);
      headroom = actual !== null && actual >= goal.target ? actual / goal.target : null;
    }
    if (gap > 0 && (!implied || gap >= IMPLIED_BREAK_EVEN_GAP)) status = 'MISSED';
    else if (!implied) status = 'MET';
    else {
      // Near or above break-even without a goal set: shown against baseline and median, not judged.
      status = 'NO_GOAL';
      gap = null;
    }
  }
  const moneyAtRisk = status === 'MISSED' && gap !== null ? rangeTotals.spend * gap : 0;
  const check: GoalCheck = {
    campaignId: data.id,
    campaignName: data.name,
    metric,
    goal: goal && (!implied || status === 'MISSED') ? goal : null,
    status,
    actual: actual === null ? null : round(actual, 2),
    baseline: baseline === null ? null : round(baseline, 2),
    accountMedian: accountMedian === null ? null : round(accountMedian, 2),
    gap: gap === null ? null : round(gap, 4),
    moneyAtRisk: Math.round(moneyAtRisk / 10_000) / 100,
    results: judged.conversions,
    resultsNeeded: need,
    dateRange: judgedWindow,
    notEnoughData,
  };
  return { check, moneyAtRisk, headroom, judged, rangeSpend: rangeTotals.spend };
}
