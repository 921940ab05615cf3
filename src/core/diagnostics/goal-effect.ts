// The projected effect of a recommendation on the campaign's goal (target CPA or ROAS, goals core):
// the campaign's last 7 complete-conversion days as they are, and as they would be with the action's
// weekly change in spend and results. Without a goal, nothing is added.
import { money } from './format';
import { sumRange } from './series';
import type { CampaignScope } from './actions';

/** The weekly change an action makes: spend and results (micros, counts). */
export interface Projection {
  spend: number;
  results: number;
}

const M = 1_000_000;

export function goalEffect(scope: CampaignScope, projection: Projection | undefined): string {
  const goal = scope.data.goal;
  if (!goal) return '';
  const c = scope.data.currency;
  const now = sumRange(scope.data.daily, scope.windows.recentCpr.from, scope.windows.recentCpr.to);
  const whose = goal.source === 'campaign' ? 'campaign goal' : 'account goal';
  if (now.conversions <= 0 || now.spend <= 0) return '';
  if (goal.kind === 'CPA') {
    const target = goal.target * M;
    const cpa = now.spend / now.conversions;
    const gap = cpa / target - 1;
    const state =
      Math.abs(gap) < 0.005
        ? 'at'
        : gap > 0
          ? `${Math.round(gap * 100)}% above`
          : `${Math.round(-gap * 100)}% below`;
    let line = ` Goal: cost per result ≤ ${money(target, c)} (${whose}); now ${money(cpa, c)}, ${state} it.`;
    if (projection && now.conversions + projection.results > 0) {
      const after = (now.spend + projection.spend) / (now.conversions + projection.results);
      line += ` Projected after this step: about ${money(after, c)} per result.`;
    }
    return line;
  }
  const roas = now.revenue / now.spend;
  let line = ` Goal: ROAS ≥ ${goal.target.toFixed(2)} (${whose}); now ${roas.toFixed(2)}.`;
  if (projection && now.spend + projection.spend > 0) {
    const perResult = now.revenue / now.conversions;
    const after = (now.revenue + projection.results * perResult) / (now.spend + projection.spend);
    line += ` Projected after this step: about ${after.toFixed(2)}.`;
  }
  return line;
}
