// The diagnostic's plain-language summary, written from the findings themselves: names, numbers and
// dates, so two different diagnostics never read the same.
import type { DiagnosticMetrics, Recommendation, RiskLevel } from '../../shared/api/diagnostics';
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
};

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
}): string {
  const head = `${quote(input.name)}, ${dayRange(input.from, input.to)}: ${performance(input.metrics)}.`;
  if (input.thin) {
    return (
      `${head} Too little data to judge: a diagnosis needs at least ${money(input.th.minSpendPerUnit * 1_000_000, input.metrics.currency)} ` +
      `of spend and ${integer(input.th.minImpressions)} impressions in the range (it had ${integer(input.totals.impressions)} impressions), so no issue was flagged.`
    );
  }
  if (input.findings.length === 0) {
    return `${head} The campaign looks healthy: none of the six checks (creative fatigue, learning, auction overlap, pacing, cost per result, audience saturation) found a problem.`;
  }
  return `${head} ${findingsSentence(input.findings, input.riskLevel, input.recommendations[0])}`;
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
}): string {
  const head =
    `Account ${quote(input.accountName)}, ${dayRange(input.from, input.to)}: ${input.campaignsAnalyzed} campaign${input.campaignsAnalyzed === 1 ? '' : 's'} ` +
    `with delivery, ${performance(input.metrics)}.`;
  const thin = input.campaignsThin > 0 ? ` ${input.campaignsThin} had too little data to judge.` : '';
  if (input.campaignsAnalyzed === 0)
    return `${head} No campaign delivered in this range, so there is nothing to diagnose.`;
  if (input.findings.length === 0) return `${head} No campaign shows a problem.${thin}`;
  const affected = new Set(input.findings.map((f) => f.campaignId)).size;
  const top = input.findings[0];
  const lead = top ? ` Most at risk: ${quote(top.campaignName)}, ${top.description}` : '';
  const next = input.recommendations[0] ? ` First step: ${input.recommendations[0].action}` : '';
  return `${head} ${input.findings.length} issue${input.findings.length === 1 ? '' : 's'} in ${affected} campaign${affected === 1 ? '' : 's'}, risk ${input.riskLevel}.${lead}${next}${thin}`;
}
