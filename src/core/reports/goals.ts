// Goals against actuals: the account's goal over the report's campaigns, then each campaign judged by
// its effective goal (its own, else the account's) — cost per result against a CPA target, ROAS
// against a ROAS target. No actual (no results, mixed result types, no purchase value) is "no data".
import type { Goal } from '../../shared/api/goals';
import type { GoalActual, ReportCampaign } from '../../shared/api/reports';
import { effectiveGoal, goalsOf } from '../goals/store';
import { round2 } from '../insights/metrics';
import type { Sql } from '../store/sql';

function judge(goal: Goal, actual: number | null): boolean | null {
  if (actual === null) return null;
  return goal.kind === 'CPA' ? actual <= goal.target : actual >= goal.target;
}

/** The whole report's actual for an account goal: one result type only for CPA (never across types). */
function accountActual(goal: Goal, campaigns: readonly ReportCampaign[]): number | null {
  const spend = campaigns.reduce((sum, c) => sum + c.spend, 0);
  if (goal.kind === 'ROAS') {
    const withValue = campaigns.filter((c) => c.roas !== null);
    if (withValue.length === 0 || spend === 0) return null;
    const revenue = withValue.reduce((sum, c) => sum + (c.roas ?? 0) * c.spend, 0);
    return round2(revenue / spend);
  }
  const types = new Set(campaigns.map((c) => `${c.resultType ?? ''}\u0000${c.resultName ?? ''}`));
  const results = campaigns.reduce((sum, c) => sum + c.conversions, 0);
  if (types.size !== 1 || campaigns.some((c) => c.resultType === 'MIXED') || results === 0) return null;
  return round2(spend / results);
}

export async function goalsAgainstActuals(
  sql: Sql,
  accountId: string,
  campaigns: readonly ReportCampaign[],
): Promise<GoalActual[]> {
  const goals = await goalsOf(sql, accountId);
  const out: GoalActual[] = [];
  if (goals.account) {
    const actual = accountActual(goals.account, campaigns);
    out.push({
      campaignId: null,
      campaignName: null,
      kind: goals.account.kind,
      target: goals.account.target,
      actual,
      met: judge(goals.account, actual),
      source: 'account',
    });
  }
  for (const c of campaigns) {
    const goal = effectiveGoal(goals, c.id);
    if (!goal) continue;
    const actual = goal.kind === 'CPA' ? c.cpa : c.roas;
    out.push({
      campaignId: c.id,
      campaignName: c.name,
      kind: goal.kind,
      target: goal.target,
      actual,
      met: judge(goal, actual),
      source: goal.source,
    });
  }
  return out;
}
