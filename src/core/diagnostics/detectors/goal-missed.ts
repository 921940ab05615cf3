// GOAL_MISSED: a campaign below its goal (target CPA or ROAS, its own or its account's; without one, a
// sales campaign clearly below break-even). Whatever else the detectors find, below target is never
// "healthy". Its severity follows how far short it is; its money at risk (range spend × shortfall)
// ranks it against the account's other findings. Also the recommendation it leads to.
import { addDays } from '../../clock';
import { day, dayRange, fixed, money, percent, quote } from '../format';
import type { GoalJudgement } from '../goal-judgement';
import type { Candidate, CampaignScope, NumberedFinding } from '../actions';
import { budgetCuts } from '../budget-actions';
import { BUDGET_STEP, type Structure } from '../structure';
import type { CampaignData, Finding } from '../types';
import { campaignEntity } from './context';

/** The goal in words: "ROAS goal 2.00", "the break-even ROAS 1.00", "target CPA $25.00". */
export function goalWords(
  goal: { kind: 'CPA' | 'ROAS'; target: number; source: string },
  currency: string,
): string {
  if (goal.kind === 'CPA') return `target CPA ${money(goal.target * 1_000_000, currency)}`;
  return goal.source === 'break_even' || goal.target === 1
    ? `break-even (ROAS ${fixed(goal.target)})`
    : `ROAS goal ${fixed(goal.target)}`;
}

export function actualWords(kind: 'CPA' | 'ROAS', actual: number | null, currency: string): string {
  if (kind === 'ROAS') return `ROAS ${fixed(actual ?? 0)}`;
  return actual === null ? 'no result' : `a cost per result of ${money(actual * 1_000_000, currency)}`;
}

const SOURCE: Record<string, string> = {
  campaign: "the campaign's own goal",
  account: "the account's goal",
  break_even: 'no goal is set, and a sales campaign below break-even loses money on ad spend alone',
};

export function detectGoalMissed(data: CampaignData, judgement: GoalJudgement): Finding[] {
  const { check } = judgement;
  const goal = check.goal;
  if (check.status !== 'MISSED' || !goal || check.gap === null) return [];
  const gap = check.gap;
  const breakEven = goal.kind === 'ROAS' && goal.target <= 1;
  const severity =
    gap >= 0.5 || (goal.kind === 'CPA' && check.actual === null)
      ? 'HIGH'
      : gap >= 0.2 || breakEven
        ? breakEven && gap >= 0.2
          ? 'HIGH'
          : 'MEDIUM'
        : 'LOW';
  const c = data.currency;
  const range = dayRange(check.dateRange.from, check.dateRange.to);
  const context: string[] = [];
  if (check.baseline !== null)
    context.push(
      `its own baseline ${goal.kind === 'CPA' ? money(check.baseline * 1_000_000, c) : fixed(check.baseline)}`,
    );
  if (check.accountMedian !== null)
    context.push(
      `the account median ${goal.kind === 'CPA' ? money(check.accountMedian * 1_000_000, c) : fixed(check.accountMedian)}`,
    );
  return [
    {
      type: 'GOAL_MISSED',
      severity,
      title: `${goal.kind === 'CPA' ? 'Cost per result above' : 'ROAS below'} ${goalWords(goal, c)} on ${quote(data.name)}`,
      description:
        `${quote(data.name)} had ${actualWords(goal.kind, check.actual, c)} over ${range} (${check.results} results), ` +
        `${percent(gap)} short of the ${goalWords(goal, c)} (${SOURCE[goal.source]}): about ${money(judgement.moneyAtRisk, c)} ` +
        `of its spend in the range did not earn the goal.` +
        (context.length > 0 ? ` For comparison: ${context.join(', ')}.` : ''),
      affectedEntity: campaignEntity(data),
      evidence: {
        goal,
        actual: check.actual,
        gap: check.gap,
        moneyAtRisk: check.moneyAtRisk,
        baseline: check.baseline,
        accountMedian: check.accountMedian,
        results: check.results,
        dateRange: check.dateRange,
      },
      spendAtRisk: judgement.rangeSpend,
      magnitude: gap,
      facts: {
        moneyAtRisk: judgement.moneyAtRisk,
        gap,
        kind: goal.kind,
        target: goal.target,
        source: goal.source,
      },
      campaignId: data.id,
      campaignName: data.name,
    },
  ];
}

/**
 * A campaign below its goal: lower its budget one step where the budget lives (budget-actions.ts) and
 * shift spend toward what meets the goal, then re-judge.
 */
export function goalMissedCandidates(
  f: NumberedFinding,
  scope: CampaignScope,
  base: number,
  structure: Structure,
): Candidate[] {
  const { data } = scope;
  const c = data.currency;
  const kind = f.facts.kind === 'CPA' ? 'CPA' : 'ROAS';
  const goal = { kind, target: Number(f.facts.target), source: String(f.facts.source) } as const;
  const lost = Number(f.facts.moneyAtRisk);
  const tail =
    `, and shift spend toward its ad sets and ads that meet the ${goalWords(goal, c)}; ` +
    `re-run this diagnostic after ${day(addDays(scope.windows.range.to, 7))}.`;
  return budgetCuts(
    data,
    structure.campaigns.get(data.id),
    {
      kind: 'CUT_BUDGET',
      key: `CUT_BUDGET:${data.id}`,
      rationale: f.description,
      expectedImpact: `Cuts the spend that misses the goal: about ${money(lost * BUDGET_STEP, c)} less of it over a period like this one (${percent(Number(f.facts.gap))} short of the goal on ${money(scope.rangeSpend, c)} spent).`,
      riskLevel: 'LOW',
      relatedIssues: [f.issueId],
      base,
    },
    tail,
  );
}
