// The diagnostic's plain-language summary, written from the findings themselves: names, numbers and
// dates, so two different diagnostics never read the same.
import type { DiagnosticMetrics, GoalCheck, Recommendation, RiskLevel } from '../../shared/api/diagnostics';
import { dayRange, integer, money, quote } from './format';
import type { NumberedFinding } from './recommendations';
import type { Totals } from './series';
import type { Thresholds } from './thresholds';

const LABEL: Record<NumberedFinding['type'], string> = {
  CREATIVE_FATIGUE: 'creative fatigue',
  LEARNING_PHASE_STALL: 'a learning-phase stall',
  AUCTION_OVERLAP: 'auction overlap',
  PACING_ISSUE: 'a pacing problem',
  CPA_DEGRADATION: 'rising cost per result',
  AUDIENCE_SATURATION: 'audience saturation',
  DELIVERY_BLOCKED: 'blocked delivery',
  TRACKING_BREAK: 'a tracking break',
  MARKET_SHIFT: 'a market-wide CPM shift',
  GOAL_MISSED: 'results below the goal',
};

const value = (kind: 'CPA' | 'ROAS', v: number, currency: string): string =>
  kind === 'CPA' ? money(v * 1_000_000, currency) : v.toFixed(2);

/**
 * The campaign against its goal in one sentence: met or missed, or, without a goal, its own baseline
 * and the account's median beside the actual; or what is missing to judge it.
 */
export function goalSentence(check: GoalCheck, currency: string): string {
  const what = check.metric === 'CPA' ? 'cost per result' : 'ROAS';
  if (check.status === 'NOT_ENOUGH_DATA') {
    return `Not enough data to judge its ${what}: ${check.notEnoughData ?? 'too few results'}.`;
  }
  const actual = check.actual === null ? 'none' : value(check.metric, check.actual, currency);
  const context = [
    check.baseline !== null ? `its own baseline ${value(check.metric, check.baseline, currency)}` : null,
    check.accountMedian !== null
      ? `the account median ${value(check.metric, check.accountMedian, currency)}`
      : null,
  ].filter((x): x is string => x !== null);
  const compared = context.length > 0 ? ` (${context.join(', ')})` : '';
  if (check.status === 'NO_GOAL') {
    const loss =
      check.metric === 'ROAS' && check.actual !== null && check.actual < 1 ? ', below break-even' : '';
    return `No goal set: ${what} ${actual}${loss}${compared}; set a target ${check.metric === 'CPA' ? 'CPA' : 'ROAS'} to judge it.`;
  }
  const goal = check.goal;
  if (!goal) return '';
  const target = value(goal.kind, goal.target, currency);
  return check.status === 'MET'
    ? `Meets its ${goal.kind === 'CPA' ? 'target CPA' : 'ROAS goal'} of ${target}: ${what} ${actual}${compared}.`
    : `Below its ${goal.kind === 'CPA' ? 'target CPA' : 'ROAS goal'} of ${target}: ${what} ${actual}${compared}.`;
}

function performance(m: DiagnosticMetrics): string {
  const parts = [`${money(m.spend * 1_000_000, m.currency)} spent`, `${integer(m.conversions)} conversions`];
  if (m.cpa !== null) parts.push(`CPA ${money(m.cpa * 1_000_000, m.currency)}`);
  if (m.roas !== null && m.roas > 0) parts.push(`ROAS ${m.roas.toFixed(2)}`);
  return parts.join(', ');
}

function findingsSentence(
  findings: readonly NumberedFinding[],
  riskLevel: RiskLevel,
  first: Recommendation | undefined,
): string {
  const top = findings[0];
  if (!top) return '';
  const others = findings.slice(1, 4).map((f) => `${LABEL[f.type]} on ${quote(f.affectedEntity.name)}`);
  const more = findings.length > 4 ? ` and ${findings.length - 4} more` : '';
  const also = others.length > 0 ? ` Also found: ${others.join('; ')}${more}.` : '';
  const next = first ? ` First step: ${first.action}` : '';
  return (
    `${findings.length} issue${findings.length === 1 ? '' : 's'} found, risk ${riskLevel}. ` +
    `Most important: ${top.description}${also}${next}`
  );
}

export function campaignSummary(input: {
  name: string;
  from: string;
  to: string;
  metrics: DiagnosticMetrics;
  totals: Totals;
  thin: boolean;
  th: Thresholds;
  findings: readonly NumberedFinding[];
  riskLevel: RiskLevel;
  recommendations: readonly Recommendation[];
  goalCheck?: GoalCheck;
}): string {
  const head = `${quote(input.name)}, ${dayRange(input.from, input.to)}: ${performance(input.metrics)}.`;
  const goal = input.goalCheck ? ` ${goalSentence(input.goalCheck, input.metrics.currency)}` : '';
  if (input.thin) {
    return (
      `${head} Too little data to judge: a diagnosis needs at least ${money(input.th.minSpendPerUnit * 1_000_000, input.metrics.currency)} ` +
      `of spend and ${integer(input.th.minImpressions)} impressions in the range (it had ${integer(input.totals.impressions)} impressions), so no issue was flagged.${goal}`
    );
  }
  if (input.findings.length === 0) {
    // "Healthy" only when it meets its goal, or has none and is at or above break-even.
    const below =
      input.goalCheck?.status === 'NOT_ENOUGH_DATA' ||
      (input.goalCheck?.metric === 'ROAS' && (input.goalCheck.actual ?? 0) < 1);
    return below
      ? `${head} None of the checks found a problem, but it cannot be called healthy yet.${goal}`
      : `${head} The campaign looks healthy: none of the checks (creative fatigue, learning, auction overlap, pacing, cost per result, audience saturation, goal) found a problem.${goal}`;
  }
  return `${head} ${findingsSentence(input.findings, input.riskLevel, input.recommendations[0])}${goal}`;
}

export function accountSummary(input: {
  accountName: string;
  from: string;
  to: string;
  metrics: DiagnosticMetrics;
  campaignsAnalyzed: number;
  campaignsThin: number;
  findings: readonly NumberedFinding[];
  riskLevel: RiskLevel;
  recommendations: readonly Recommendation[];
  goalChecks?: readonly GoalCheck[];
}): string {
  const head =
    `Account ${quote(input.accountName)}, ${dayRange(input.from, input.to)}: ${input.campaignsAnalyzed} campaign${input.campaignsAnalyzed === 1 ? '' : 's'} ` +
    `with delivery, ${performance(input.metrics)}.`;
  const checks = input.goalChecks ?? [];
  const missed = checks.filter((c) => c.status === 'MISSED');
  const lost = missed.reduce((sum, c) => sum + c.moneyAtRisk, 0);
  const missing = checks.filter((c) => c.status === 'NOT_ENOUGH_DATA').length;
  const goals =
    (missed.length > 0
      ? ` ${missed.length} campaign${missed.length === 1 ? '' : 's'} below ${missed.length === 1 ? 'its goal' : 'their goals'}, ${money(lost * 1_000_000, input.metrics.currency)} of spend short of the goal.`
      : '') +
    (missing > 0
      ? ` ${missing} campaign${missing === 1 ? ' has' : 's have'} not enough data to judge cost per result or ROAS.`
      : '');
  const thin =
    (input.campaignsThin > 0 ? ` ${input.campaignsThin} had too little data to judge.` : '') + goals;
  if (input.campaignsAnalyzed === 0)
    return `${head} No campaign delivered in this range, so there is nothing to diagnose.`;
  if (input.findings.length === 0) return `${head} No campaign shows a problem.${thin}`;
  const affected = new Set(input.findings.map((f) => f.campaignId)).size;
  const top = input.findings[0];
  const lead = top ? ` Most at risk: ${quote(top.campaignName)}, ${top.description}` : '';
  const next = input.recommendations[0] ? ` First step: ${input.recommendations[0].action}` : '';
  return `${head} ${input.findings.length} issue${input.findings.length === 1 ? '' : 's'} in ${affected} campaign${affected === 1 ? '' : 's'}, risk ${input.riskLevel}.${lead}${next}${thin}`;
}
