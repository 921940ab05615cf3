// Budget and bid actions for pacing and cost-per-result findings, written for the campaign's
// structure: a campaign budget (CBO) is changed on the campaign and steered between ad sets with ad
// set spending limits; ad-set budgets are moved between ad sets; a bid or cost cap is raised only
// where one is set; every budget step stays within ±20% (structure.ts checks ±30%).
import {
  adSetsByCpr,
  budgetChange,
  num,
  str,
  type Candidate,
  type CampaignScope,
  type NumberedFinding,
} from './actions';
import { money, percent, quote } from './format';
import { cprOf, sumRange } from './series';
import { BUDGET_STEP, isCapped, isPossible, type Change, type Structure } from './structure';

/** `troubled`: ad sets with an issue of their own, never proposed as the place to move budget to. */
export function pacing(
  f: NumberedFinding,
  scope: CampaignScope,
  base: number,
  structure: Structure,
  troubled: ReadonlySet<string>,
): Candidate[] {
  const { data, windows } = scope;
  const c = data.currency;
  const related = [f.issueId];
  const entityId = str(f.facts.entityId);
  const entityName = str(f.facts.entityName);
  const level = f.facts.entityType === 'campaign' ? 'campaign' : 'adSet';
  const label = `${level === 'campaign' ? 'campaign' : 'ad set'} ${quote(entityName)}`;
  const budget = num(f.facts.dailyBudget);
  if (num(f.facts.pacingRate) > 1) {
    return [
      {
        kind: 'CAP_OVERSPEND',
        // One spending limit per campaign, however many of its ad sets overspend.
        key: `CAP_OVERSPEND:${data.id}`,
        action: `Set a campaign spending limit on campaign ${quote(data.name)} (Campaign → Budget & schedule → Campaign spending limit) and check the activity history of ${label} for a recent budget or schedule change that caused it.`,
        rationale: `It averaged ${money(num(f.facts.avgDailySpend), c)} a day against a ${money(budget, c)} budget (${percent(num(f.facts.pacingRate))}).`,
        expectedImpact: `Keeps about ${money(num(f.facts.weeklyGap), c)} a week of unplanned spend within budget.`,
        riskLevel: 'LOW',
        relatedIssues: related,
        base,
        changes: [
          { level: 'campaign', id: data.id, name: data.name, field: 'spend_cap', from: null, to: 'set' },
        ],
      },
    ];
  }
  const own = sumRange(data.daily, windows.recentCpr.from, windows.recentCpr.to);
  const best = adSetsByCpr(scope).filter((r) => !troubled.has(r.adSet.id) && r.adSet.id !== entityId)[0];
  const cpr = best?.cpr ?? cprOf(own);
  const weeklyGap = num(f.facts.weeklyGap);
  const impact = cpr
    ? `Delivering the ${money(weeklyGap, c)} a week left unspent at ${money(cpr, c)} per result would add about ${Math.round(weeklyGap / cpr)} results a week.`
    : `Delivers the ${money(weeklyGap, c)} a week currently left unspent.`;
  const rationale = `${level === 'campaign' ? 'The campaign' : `Ad set ${quote(entityName)}`} spent only ${percent(num(f.facts.pacingRate))} of its ${money(budget, c)} daily budget (${money(num(f.facts.avgDailySpend), c)} a day) in the last week.`;
  const key = `FIX_UNDERDELIVERY:${entityId}`;
  const common = {
    kind: 'FIX_UNDERDELIVERY' as const,
    key,
    rationale,
    riskLevel: 'MEDIUM' as const,
    relatedIssues: related,
    base,
  };
  // The levers the structure offers, each only where it exists.
  const adSets =
    level === 'adSet'
      ? [structure.adSets.get(entityId)].filter((s) => s !== undefined)
      : (structure.campaigns.get(data.id)?.adSets ?? []).filter((s) =>
          data.adSets.some((a) => a.id === s.id && a.status === 'ACTIVE'),
        );
  const capped = adSets.filter((s) => isCapped(s.bidStrategy) && s.bidAmount !== null);
  const broaden: Change[] = adSets.map((s) => ({
    level: 'adSet',
    id: s.id,
    name: s.name,
    field: 'targeting',
    from: 'current audience',
    to: 'broader audience',
  }));
  const out: Candidate[] = [];
  if (capped.length > 0) {
    const first = capped[0];
    if (first && first.bidAmount !== null) {
      const to = first.bidAmount * (1 + BUDGET_STEP);
      out.push({
        ...common,
        action: `Raise the ${first.bidStrategy === 'COST_CAP' ? 'cost cap' : 'bid cap'} of ad set ${quote(first.name)} in campaign ${quote(data.name)} from ${money(first.bidAmount, c)} to ${money(to, c)} so ${label} can spend its budget.`,
        expectedImpact: impact,
        changes: [
          { level: 'adSet', id: first.id, name: first.name, field: 'bid_amount', from: first.bidAmount, to },
        ],
      });
    }
  }
  if (broaden.length > 0 && isPossible({ changes: broaden }, structure).ok) {
    out.push({
      ...common,
      action: `Broaden the audience of ${adSets.length === 1 ? `ad set ${quote(adSets[0]?.name ?? '')}` : `the ad sets of campaign ${quote(data.name)}`} (widen age or location, or turn on Advantage+ audience) so ${label} can spend its budget.`,
      expectedImpact: impact,
      changes: broaden,
    });
  }
  // An ad-set budget that does not deliver: move 20% of it to the best ad set of the campaign.
  if (level === 'adSet' && best && best.adSet.dailyBudget !== null && budget > 0) {
    const moved = Math.min(budget * BUDGET_STEP, best.adSet.dailyBudget * BUDGET_STEP);
    out.push({
      ...common,
      action: `Lower the daily budget of ad set ${quote(entityName)} from ${money(budget, c)} to ${money(budget - moved, c)} and raise ad set ${quote(best.adSet.name)} from ${money(best.adSet.dailyBudget, c)} to ${money(best.adSet.dailyBudget + moved, c)} in campaign ${quote(data.name)}.`,
      expectedImpact: `About ${money(moved * 7, c)} a week goes where it delivers, at ${money(best.cpr, c)} per result: about ${Math.round((moved * 7) / best.cpr)} results a week.`,
      changes: [
        budgetChange('adSet', entityId, entityName, budget, budget - moved),
        budgetChange(
          'adSet',
          best.adSet.id,
          best.adSet.name,
          best.adSet.dailyBudget,
          best.adSet.dailyBudget + moved,
        ),
      ],
      projection: { spend: 0, results: (moved * 7) / best.cpr },
    });
  }
  // Last resort, always possible: hand the unspent money back (lower the budget a step).
  if (budget > 0)
    out.push({
      ...common,
      action: `Lower the daily budget of ${label} from ${money(budget, c)} to ${money(budget * (1 - BUDGET_STEP), c)} (closer to what it delivers) and use the freed ${money(budget * BUDGET_STEP, c)} a day in campaigns that spend their budgets; check Ads Manager's delivery column of its ad sets for "audience too narrow".`,
      expectedImpact: `Frees about ${money(budget * BUDGET_STEP * 7, c)} a week of budget that is not delivering.`,
      changes: [budgetChange(level, entityId, entityName, budget, budget * (1 - BUDGET_STEP))],
    });
  return out;
}

export function cpa(
  f: NumberedFinding,
  scope: CampaignScope,
  base: number,
  structure: Structure,
  troubled: ReadonlySet<string>,
): Candidate[] {
  const { data } = scope;
  const c = data.currency;
  const where = `in campaign ${quote(data.name)}`;
  const related = [f.issueId];
  const out: Candidate[] = [];
  const ranked = adSetsByCpr(scope);
  const best = ranked.filter((r) => !troubled.has(r.adSet.id))[0];
  const worst = ranked.at(-1);
  const campaign = structure.campaigns.get(data.id);
  if (best && worst && worst.adSet.id !== best.adSet.id && worst.cpr > best.cpr * 1.15) {
    const moved = worst.spend * BUDGET_STEP;
    const gained = moved / best.cpr - moved / worst.cpr;
    const rationale = `The campaign's cost per result rose ${percent(num(f.facts.rise))} to ${money(num(f.facts.actual), c)}; ${quote(best.adSet.name)} still converts at ${money(best.cpr, c)}.`;
    const impact = `About ${money(moved, c)} a week moved to the best ad set buys roughly ${Math.max(1, Math.round(gained))} more results a week at the same spend (cost per result ${money(best.cpr, c)} vs ${money(worst.cpr, c)}).`;
    const common = {
      kind: 'SHIFT_BUDGET' as const,
      key: `SHIFT_BUDGET:${data.id}`,
      rationale,
      expectedImpact: impact,
      riskLevel: 'MEDIUM' as const,
      relatedIssues: related,
      base,
      projection: { spend: 0, results: gained },
    };
    const wb = worst.adSet.dailyBudget;
    const bb = best.adSet.dailyBudget;
    if (wb !== null && bb !== null && !campaign?.campaignBudget) {
      const step = Math.min(wb * BUDGET_STEP, bb * BUDGET_STEP);
      out.push({
        ...common,
        action: `Lower the daily budget of ad set ${quote(worst.adSet.name)} (${money(worst.cpr, c)} per result) from ${money(wb, c)} to ${money(wb - step, c)} and raise ad set ${quote(best.adSet.name)} (${money(best.cpr, c)} per result) from ${money(bb, c)} to ${money(bb + step, c)} ${where}.`,
        changes: [
          budgetChange('adSet', worst.adSet.id, worst.adSet.name, wb, wb - step),
          budgetChange('adSet', best.adSet.id, best.adSet.name, bb, bb + step),
        ],
      });
    }
    // Campaign budget: Meta moves the money itself; a spending limit on the expensive ad set steers it.
    const days = Math.max(
      1,
      sumRange(worst.adSet.daily, scope.windows.recentCpr.from, scope.windows.recentCpr.to).days,
    );
    const limit = (worst.spend / days) * (1 - BUDGET_STEP);
    out.push({
      ...common,
      action: `Set a daily maximum spending limit of ${money(limit, c)} on ad set ${quote(worst.adSet.name)} (${money(worst.cpr, c)} per result; Ad set → Budget → Ad set spending limits) ${where}, so the campaign budget flows to ${quote(best.adSet.name)} (${money(best.cpr, c)} per result).`,
      changes: [
        {
          level: 'adSet',
          id: worst.adSet.id,
          name: worst.adSet.name,
          field: 'daily_spend_cap',
          from: null,
          to: limit,
        },
      ],
    });
  }
  const weekly = num(f.facts.recentSpend) * BUDGET_STEP;
  const actual = num(f.facts.actual);
  const cutCommon = {
    kind: 'CUT_BUDGET' as const,
    projection: { spend: -weekly, results: actual > 0 ? -weekly / actual : 0 },
    key: `CUT_BUDGET:${data.id}`,
    rationale: `Its cost per result rose ${percent(num(f.facts.rise))} to ${money(num(f.facts.actual), c)} on ${num(f.facts.recentConversions)} results, and no ad set converts clearly cheaper.`,
    expectedImpact: `Limits spend at the inflated cost by about ${money(weekly, c)} a week while the cause is fixed.`,
    riskLevel: 'LOW' as const,
    relatedIssues: related,
    base,
  };
  const review = ` and review its last edits, tracking and landing page until the cost per result is back near ${money(num(f.facts.target), c)}.`;
  out.push(...budgetCuts(data, campaign, cutCommon, review));
  return out;
}

/** The campaign's Candidate fields other than its action and edits. */
type CutCommon = Omit<Candidate, 'action' | 'changes'>;

/**
 * One budget step down (BUDGET_STEP) where the budget lives: the campaign's daily budget (CBO), else
 * each active ad set's daily budget, and a campaign spending limit as the alternative that always fits.
 * `tail` ends the action's sentence (" and review …" or "; re-run …").
 */
export function budgetCuts(
  data: CampaignScope['data'],
  campaign: ReturnType<Structure['campaigns']['get']>,
  common: CutCommon,
  tail: string,
): Candidate[] {
  const c = data.currency;
  const out: Candidate[] = [];
  if (campaign?.campaignBudget && campaign.dailyBudget !== null) {
    const to = campaign.dailyBudget * (1 - BUDGET_STEP);
    out.push({
      ...common,
      action: `Lower the daily budget of campaign ${quote(data.name)} from ${money(campaign.dailyBudget, c)} to ${money(to, c)}${tail}`,
      changes: [budgetChange('campaign', data.id, data.name, campaign.dailyBudget, to)],
    });
    return out;
  }
  const budgeted = (campaign?.adSets ?? []).filter(
    (s) => s.dailyBudget !== null && data.adSets.some((a) => a.id === s.id && a.status === 'ACTIVE'),
  );
  if (budgeted.length > 0) {
    const changes = budgeted.map((s) =>
      budgetChange('adSet', s.id, s.name, s.dailyBudget ?? 0, (s.dailyBudget ?? 0) * (1 - BUDGET_STEP)),
    );
    const listed = budgeted
      .slice(0, 3)
      .map(
        (s) =>
          `${quote(s.name)} (${money(s.dailyBudget ?? 0, c)} → ${money((s.dailyBudget ?? 0) * (1 - BUDGET_STEP), c)})`,
      );
    const more = budgeted.length > 3 ? ` and ${budgeted.length - 3} more` : '';
    out.push({
      ...common,
      action: `Lower the daily budgets of the ad sets of campaign ${quote(data.name)} by ${BUDGET_STEP * 100}%: ${listed.join(', ')}${more},${tail.replace(/^ and/, '')}`,
      changes,
    });
  }
  out.push({
    ...common,
    action: `Set a campaign spending limit on campaign ${quote(data.name)} at about ${BUDGET_STEP * 100}% below its current weekly pace${tail}`,
    changes: [{ level: 'campaign', id: data.id, name: data.name, field: 'spend_cap', from: null, to: 'set' }],
  });
  return out;
}
