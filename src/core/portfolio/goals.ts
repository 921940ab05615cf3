// The account's goal against what it achieved this month. Results are never added across types: a CPA
// goal is judged on the cost per result of the result type with the most spend (the account's main
// result), a ROAS goal on the revenue over the spend of the campaigns that report purchase value.
import type { GoalStatus, ResultGroup } from '../../shared/api/portfolio';

export interface GoalTarget {
  kind: 'CPA' | 'ROAS';
  target: number;
}

export function goalStatus(goal: GoalTarget | null, results: readonly ResultGroup[]): GoalStatus | null {
  if (!goal) return null;
  if (goal.kind === 'CPA') {
    const main = results.find((g) => g.costPerResult !== null) ?? null;
    const actual = main?.costPerResult ?? null;
    return {
      kind: 'CPA',
      target: goal.target,
      actual,
      resultName: main?.resultName ?? null,
      status: actual === null ? 'no_data' : actual <= goal.target ? 'met' : 'missed',
    };
  }
  const valued = results.filter((g) => g.revenue > 0);
  const spend = valued.reduce((s, g) => s + g.spend, 0);
  const revenue = valued.reduce((s, g) => s + g.revenue, 0);
  const actual = spend > 0 ? Math.round((revenue / spend) * 10_000) / 10_000 : null;
  return {
    kind: 'ROAS',
    target: goal.target,
    actual,
    resultName: null,
    status: actual === null ? 'no_data' : actual >= goal.target ? 'met' : 'missed',
  };
}
