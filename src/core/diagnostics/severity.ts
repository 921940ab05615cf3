// Issue severities adjusted by the share of spend they touch, and the diagnostic's risk level.
// CRITICAL needs a HIGH issue on most of the spend, or a stall that burns budget with no results.
import type { RiskLevel } from '../../shared/api/diagnostics';
import type { Finding } from './types';

export const SEVERITY_RANK: Record<RiskLevel, number> = { LOW: 0, MEDIUM: 1, HIGH: 2, CRITICAL: 3 };
const BY_RANK: RiskLevel[] = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'];

export const RISK_RULES = {
  /** An issue on less than this share of spend is one level less severe. */
  smallShare: 0.1,
  /** "Most of the spend". */
  majorityShare: 0.5,
  /** A burning stall (spend without any result) on at least this share makes the diagnostic CRITICAL. */
  burningShare: 0.2,
} as const;

export function shareOf(finding: Finding, rangeSpend: number): number {
  return rangeSpend > 0 ? Math.min(1, finding.spendAtRisk / rangeSpend) : 0;
}

/** The detector's severity, one level lower when the affected entity is a small part of the spend. */
export function adjustedSeverity(finding: Finding, rangeSpend: number): RiskLevel {
  const rank = SEVERITY_RANK[finding.severity];
  const share = shareOf(finding, rangeSpend);
  return BY_RANK[share < RISK_RULES.smallShare ? Math.max(0, rank - 1) : rank] ?? 'LOW';
}

export function riskLevelOf(findings: readonly Finding[], rangeSpend: number): RiskLevel {
  if (findings.length === 0) return 'LOW';
  let level = 0;
  for (const f of findings) {
    const rank = SEVERITY_RANK[f.severity];
    const share = shareOf(f, rangeSpend);
    const burning =
      f.type === 'LEARNING_PHASE_STALL' && f.facts.burning === 1 && share >= RISK_RULES.burningShare;
    // A campaign that cannot deliver at all (a blocker and no spend) is critical whatever its spend.
    const stopped = f.type === 'DELIVERY_BLOCKED' && f.facts.stopped === 1;
    if ((rank >= 2 && share >= RISK_RULES.majorityShare) || burning || stopped) level = Math.max(level, 3);
    else if (rank >= 2 || (rank === 1 && share >= RISK_RULES.majorityShare)) level = Math.max(level, 2);
    else level = Math.max(level, rank >= 1 || share >= RISK_RULES.majorityShare ? 1 : 0);
  }
  return BY_RANK[level] ?? 'LOW';
}

export function maxRisk(levels: readonly RiskLevel[]): RiskLevel {
  return BY_RANK[Math.max(0, ...levels.map((l) => SEVERITY_RANK[l]))] ?? 'LOW';
}

export const GOAL_RULES = {
  /** A campaign beating its goal by this much (ROAS × 1.25, or CPA under target ÷ 1.25) is doing well. */
  comfortableHeadroom: 1.25,
  /** Without a goal: ROAS at least this (twice break-even) is doing well. */
  comfortableRoasWithoutGoal: 2,
} as const;

/** How far a campaign beats its goal (null: it does not, or no goal can tell), as goal-judgement.ts reads it. */
export interface GoalStanding {
  headroom: number | null;
  /** Spend of the range that did not earn the goal (micros). */
  moneyAtRisk: number;
  /** Whether the goal was set (false: break-even implied). */
  explicit: boolean;
}

/**
 * A finding on a campaign that comfortably beats its goal is tuning, not risk: at most MEDIUM, and
 * overspending it (more results at a good price) LOW. So a ROAS 9 campaign running a little over
 * budget never outranks one burning money below its target.
 */
export function goalAwareSeverity(finding: Finding, standing: GoalStanding | undefined): RiskLevel {
  if (!standing || standing.headroom === null) return finding.severity;
  if (finding.type === 'DELIVERY_BLOCKED' || finding.type === 'GOAL_MISSED') return finding.severity;
  if (finding.affectedEntity.type === 'account') return finding.severity;
  const comfortable = standing.explicit
    ? standing.headroom >= GOAL_RULES.comfortableHeadroom
    : standing.headroom >= GOAL_RULES.comfortableRoasWithoutGoal;
  if (!comfortable) return finding.severity;
  const over =
    finding.type === 'PACING_ISSUE' &&
    'direction' in finding.evidence &&
    finding.evidence.direction === 'OVER';
  const cap = over ? 0 : 1;
  return BY_RANK[Math.min(SEVERITY_RANK[finding.severity], cap)] ?? 'LOW';
}

/** Money lost against the goal that a finding stands for (micros): the campaign's shortfall. */
export function moneyAtRiskOf(finding: Finding, standings: ReadonlyMap<string, GoalStanding>): number {
  if (finding.type === 'GOAL_MISSED') return Number(finding.facts.moneyAtRisk) || 0;
  return standings.get(finding.campaignId)?.moneyAtRisk ?? 0;
}
