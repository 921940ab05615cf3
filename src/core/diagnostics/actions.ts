// One finding → the Ads Manager actions that would address it, best first, each with the edits it
// makes (level, object, field, from → to). The recommendation builder offers the first whose edits
// the campaign's structure allows (structure.ts): a campaign budget is changed on the campaign, a
// missing bid cap is never raised, an Advantage+ audience is never "broadened", budgets move ±20%.
import type { RiskLevel } from '../../shared/api/diagnostics';
import type { ActionKind } from './andromeda';
import { money, percent, quote } from './format';
import { cprOf, sumRange, type Windows } from './series';
import { BUDGET_STEP, budgetSteps, isCapped, isPossible, type Change, type Structure } from './structure';
import type { Thresholds } from './thresholds';
import type { AdSetData, CampaignData, Finding } from './types';

export interface NumberedFinding extends Finding {
  issueId: string;
}

export interface CampaignScope {
  data: CampaignData;
  windows: Windows;
  th: Thresholds;
  rangeSpend: number;
  /** Never offered for scaling: below its goal or break-even, or not enough data to tell (goal-judgement.ts). */
  holdScaling?: boolean;
}

export interface Candidate {
  kind: ActionKind;
  key: string;
  action: string;
  rationale: string;
  expectedImpact: string;
  riskLevel: RiskLevel;
  relatedIssues: string[];
  /** Before profile and feedback: severity × share of spend × how far past the threshold. */
  base: number;
  /** The Ads Manager edits the action makes (checked against the structure before it is offered). */
  changes: Change[];
  fixesDelivery?: boolean;
  /** The weekly change in spend and results the action makes, for its effect on the goal. */
  projection?: { spend: number; results: number };
}

export const SEVERITY_WEIGHT: Record<RiskLevel, number> = { LOW: 1, MEDIUM: 2, HIGH: 4, CRITICAL: 6 };
/** Learning: more budget steps than this and the budget is not the way out (merge or change event). */
const MAX_LEARNING_STEPS = 4;

export const num = (value: unknown): number => (typeof value === 'number' ? value : 0);
export const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Ad sets with enough results in the cost-per-result window, cheapest first. */
export function adSetsByCpr(
  scope: CampaignScope,
): { adSet: AdSetData; cpr: number; spend: number; conversions: number }[] {
  const out: { adSet: AdSetData; cpr: number; spend: number; conversions: number }[] = [];
  for (const adSet of scope.data.adSets) {
    if (adSet.status !== 'ACTIVE') continue;
    const t = sumRange(adSet.daily, scope.windows.recentCpr.from, scope.windows.recentCpr.to);
    const cpr = t.conversions >= Math.ceil(scope.th.minConversions / 2) ? cprOf(t) : null;
    if (cpr !== null) out.push({ adSet, cpr, spend: t.spend, conversions: t.conversions });
  }
  return out.sort((a, b) => a.cpr - b.cpr || a.adSet.id.localeCompare(b.adSet.id));
}

export function budgetChange(
  level: 'campaign' | 'adSet',
  id: string,
  name: string,
  from: number,
  to: number,
): Change {
  return { level, id, name, field: 'daily_budget', from, to };
}

/** Where the budget lives: the campaign's (CBO) or each ad set's. */
export const campaignBudgeted = (data: CampaignData): boolean =>
  data.dailyBudget !== null || data.lifetimeBudget !== null;

export function fatigue(f: NumberedFinding, scope: CampaignScope, base: number): Candidate[] {
  const c = scope.data.currency;
  const cprNow = f.facts.cprNow;
  const cprBefore = f.facts.cprBefore;
  const saving =
    typeof cprNow === 'number' && typeof cprBefore === 'number' && cprNow > cprBefore
      ? ` and bring the cost per result of ${quote(str(f.facts.adName))} from ${money(cprNow, c)} back toward ${money(cprBefore, c)}`
      : '';
  const many = num(f.facts.adCount) > 1;
  const where = `in campaign ${quote(scope.data.name)}`;
  return [
    {
      kind: 'REFRESH_CREATIVE',
      key: `REFRESH_CREATIVE:${str(f.facts.adSetId)}`,
      action: many
        ? `Add new creative variations to ad set ${quote(str(f.facts.adSetName))} ${where} (new images or videos and hooks) and pause the worn-out ads ${str(f.facts.adNames)} once the new ones deliver.`
        : `Replace the creative of ad ${quote(str(f.facts.adName))} in ad set ${quote(str(f.facts.adSetName))} with a new variation (duplicate the ad with a new image or video and hook), then pause the old ad once the new one delivers.`,
      rationale: `CTR of ${quote(str(f.facts.adName))} fell ${percent(num(f.facts.ctrDrop))} (${(num(f.facts.ctrBefore) * 100).toFixed(2)}% → ${(num(f.facts.ctrNow) * 100).toFixed(2)}%) ${str(f.facts.since)}: the audience has seen ${many ? 'these ads' : 'it'} too often.`,
      expectedImpact: `Restoring the earlier CTR would recover about ${Math.round(num(f.facts.clicksLost)).toLocaleString('en-US')} clicks a week${saving}.`,
      riskLevel: 'LOW',
      relatedIssues: [f.issueId],
      base,
      changes: [
        {
          level: 'adSet',
          id: str(f.facts.adSetId),
          name: str(f.facts.adSetName),
          field: 'creative',
          from: null,
          to: 'new ad',
        },
        {
          level: 'ad',
          id: str(f.facts.adId),
          name: str(f.facts.adName),
          field: 'status',
          from: 'ACTIVE',
          to: 'PAUSED',
        },
      ],
    },
  ];
}

export function learning(
  f: NumberedFinding,
  scope: CampaignScope,
  base: number,
  structure: Structure,
): Candidate[] {
  const c = scope.data.currency;
  const where = `in campaign ${quote(scope.data.name)}`;
  const adSetId = str(f.facts.adSetId);
  const adSetName = str(f.facts.adSetName);
  const event = str(f.facts.resultName) || 'results';
  const required = num(f.facts.required);
  const perWeek = num(f.facts.conversionsPerWeek);
  const cpr = typeof f.facts.cpr === 'number' ? f.facts.cpr : null;
  const needed = cpr !== null ? (cpr * required) / 7 : null;
  const key = `RAISE_LEARNING_BUDGET:${adSetId}`;
  const out: Candidate[] = [];
  const common = { key, riskLevel: 'MEDIUM' as const, relatedIssues: [f.issueId], base };
  const adSet = structure.adSets.get(adSetId);
  const campaign = structure.campaigns.get(scope.data.id);
  const budget = campaign?.campaignBudget ? campaign.dailyBudget : (adSet?.dailyBudget ?? null);
  const level = campaign?.campaignBudget ? 'campaign' : 'adSet';
  const owner = level === 'campaign' ? `campaign ${quote(scope.data.name)}` : `ad set ${quote(adSetName)}`;
  if (needed !== null && budget !== null && needed > budget) {
    // Meta's guidance: about +20% a step, or learning restarts; a gap of many steps is not a budget fix.
    const { firstStep, steps } = budgetSteps(budget, needed);
    const stepNote = `step 1 of ${steps}: +${BUDGET_STEP * 100}% every 3-4 days toward ${money(needed, c)} a day, what ${required} ${event.toLowerCase()} a week cost at ${money(cpr ?? 0, c)} each`;
    if (steps <= MAX_LEARNING_STEPS && level === 'adSet') {
      out.push({
        ...common,
        kind: 'RAISE_LEARNING_BUDGET',
        action: `Raise the daily budget of ${owner} ${where} from ${money(budget, c)} to ${money(firstStep, c)} (${stepNote}).`,
        rationale: `At ${money(cpr ?? 0, c)} per result it gets about ${perWeek} ${event.toLowerCase()} a week; Meta needs ${required} to end learning.`,
        expectedImpact: `About ${Math.max(1, Math.round(((firstStep - budget) * 7) / (cpr ?? 1)))} more ${event.toLowerCase()} a week from this step at the current cost per result; ${required} a week after the last step.`,
        changes: [budgetChange('adSet', adSetId, adSetName, budget, firstStep)],
        projection: { spend: (firstStep - budget) * 7, results: ((firstStep - budget) * 7) / (cpr ?? 1) },
      });
    }
    out.push({
      ...common,
      kind: 'RAISE_LEARNING_BUDGET',
      action: `Merge ad set ${quote(adSetName)} ${where} with a sibling ad set optimising for the same event, or optimise it for a more frequent event (for example add to cart instead of purchase), and avoid further significant edits for 7 days.`,
      rationale: `It gets about ${perWeek} ${event.toLowerCase()} a week against the ${required} Meta needs; budget alone would take ${steps} steps of +${BUDGET_STEP * 100}% (${money(budget, c)} → ${money(needed, c)} a day).`,
      expectedImpact: `One ad set with the pooled results (or a more frequent event) reaches the ${required} weekly events Meta needs, typically ending learning in 7-10 days.`,
      changes: [
        {
          level: 'adSet',
          id: adSetId,
          name: adSetName,
          field: 'optimization_goal',
          from: event,
          to: 'a more frequent event, or merged',
        },
      ],
    });
    return out;
  }
  // The budget could buy enough results: a bid or cost cap may be what limits it.
  if (adSet && isCapped(adSet.bidStrategy) && adSet.bidAmount !== null) {
    const to = adSet.bidAmount * (1 + BUDGET_STEP);
    out.push({
      ...common,
      kind: 'RAISE_LEARNING_BUDGET',
      action: `Raise the ${adSet.bidStrategy === 'COST_CAP' ? 'cost cap' : 'bid cap'} of ad set ${quote(adSetName)} ${where} from ${money(adSet.bidAmount, c)} to ${money(to, c)}.`,
      rationale: `Its budget could buy ${required} ${event.toLowerCase()} a week, yet it gets ${perWeek}: the cap keeps it out of auctions.`,
      expectedImpact: `More auctions won with the same budget, toward the ${required} weekly events Meta needs to end learning.`,
      changes: [
        { level: 'adSet', id: adSetId, name: adSetName, field: 'bid_amount', from: adSet.bidAmount, to },
      ],
    });
  }
  out.push({
    ...common,
    kind: 'RAISE_LEARNING_BUDGET',
    action: `Optimise ad set ${quote(adSetName)} ${where} for a more frequent event (for example add to cart instead of purchase) or merge it with a sibling ad set, and avoid further significant edits for 7 days.`,
    rationale: `It has ${perWeek} ${event.toLowerCase()} in the last week against the ${required} Meta needs to finish learning${f.facts.burning === 1 ? ', and it has spent ' + money(num(f.facts.spendSinceEdit), c) + ' without a single result' : ''}.`,
    expectedImpact:
      f.facts.burning === 1
        ? `Stops ${money(num(f.facts.spendSinceEdit) / 2, c)} or more a week of spend that produces no results.`
        : `A more frequent event gives Meta the ${required} weekly events it needs, typically ending learning in 7-10 days.`,
    changes: [
      {
        level: 'adSet',
        id: adSetId,
        name: adSetName,
        field: 'optimization_goal',
        from: event,
        to: 'a more frequent event, or merged',
      },
    ],
  });
  return out;
}

export function overlap(
  f: NumberedFinding,
  scope: CampaignScope,
  base: number,
  structure: Structure,
): Candidate[] {
  const c = scope.data.currency;
  const weakCampaign = str(f.facts.adSetCampaignName) || scope.data.name;
  const weakCampaignId = str(f.facts.adSetCampaignId) || scope.data.id;
  const crossCampaign = str(f.facts.keepCampaignId) !== '' && f.facts.keepCampaignId !== weakCampaignId;
  const weak = `ad set ${quote(str(f.facts.adSetName))}${crossCampaign ? ` (campaign ${quote(weakCampaign)})` : ''}`;
  const keep = `${quote(str(f.facts.keepAdSetName))}${crossCampaign ? ` (campaign ${quote(str(f.facts.keepCampaignName))})` : ''}`;
  const saving =
    num(f.facts.cpmRise) > 0
      ? (f.spendAtRisk / Math.max(1, scope.windows.rangeDays.length)) *
        7 *
        (num(f.facts.cpmRise) / (1 + num(f.facts.cpmRise)))
      : 0;
  const exclusion: Change = {
    level: 'adSet',
    id: str(f.facts.adSetId),
    name: str(f.facts.adSetName),
    field: 'excluded_audiences',
    from: null,
    to: str(f.facts.keepAdSetName),
  };
  const canExclude = isPossible({ changes: [exclusion] }, structure).ok;
  return [
    {
      kind: 'CONSOLIDATE_AD_SETS',
      key: `CONSOLIDATE_AD_SETS:${str(f.facts.adSetId)}`,
      action:
        `Combine ${weak} into ${keep}: duplicate its best ads into ${quote(str(f.facts.keepAdSetName))}, then turn ${quote(str(f.facts.adSetName))} off` +
        (canExclude ? ', or exclude one audience from the other.' : '.'),
      rationale: `They target overlapping audiences for the same event, so Meta enters only one of them per auction; CPM rose ${percent(Math.max(0, num(f.facts.cpmRise)))}.`,
      expectedImpact:
        saving > 0
          ? `Bringing CPM back to ${money(num(f.facts.cpmBefore), c)} would save about ${money(saving, c)} a week at current spend.`
          : `Lets the combined budget deliver instead of ${percent(Math.max(0, num(f.facts.underspend)))} of it going unspent.`,
      riskLevel: 'MEDIUM',
      relatedIssues: [f.issueId],
      base,
      changes: [
        {
          level: 'adSet',
          id: str(f.facts.keepAdSetId),
          name: str(f.facts.keepAdSetName),
          field: 'creative',
          from: null,
          to: 'ads moved in',
        },
        {
          level: 'adSet',
          id: str(f.facts.adSetId),
          name: str(f.facts.adSetName),
          field: 'status',
          from: 'ACTIVE',
          to: 'PAUSED',
        },
      ],
    },
  ];
}

export function saturation(
  f: NumberedFinding,
  scope: CampaignScope,
  base: number,
  structure: Structure,
): Candidate[] {
  const where = `in campaign ${quote(scope.data.name)}`;
  const adSetId = str(f.facts.adSetId);
  const adSetName = str(f.facts.adSetName);
  const rationale = `It now reaches ${percent(num(f.facts.reachDrop))} fewer people a day while each sees its ads ${percent(num(f.facts.frequencyRise))} more often.`;
  const impact = `Restoring daily reach from ${Math.round(num(f.facts.reachPerDayNow)).toLocaleString('en-US')} to about ${Math.round(num(f.facts.reachPerDayBefore)).toLocaleString('en-US')} people would bring frequency back from ${num(f.facts.freqNow).toFixed(2)} toward its earlier level.`;
  const adSet = structure.adSets.get(adSetId);
  const campaign = structure.campaigns.get(scope.data.id);
  // Lowering spend on a shrinking audience: on the campaign budget (CBO) or the ad set's, by 20%.
  const budget = campaign?.campaignBudget ? campaign.dailyBudget : (adSet?.dailyBudget ?? null);
  const lower: Change[] =
    budget !== null
      ? [
          budgetChange(
            campaign?.campaignBudget ? 'campaign' : 'adSet',
            campaign?.campaignBudget ? scope.data.id : adSetId,
            campaign?.campaignBudget ? scope.data.name : adSetName,
            budget,
            budget * (1 - BUDGET_STEP),
          ),
        ]
      : [];
  const c = scope.data.currency;
  const lowerText =
    budget !== null
      ? `, and lower the daily budget of ${campaign?.campaignBudget ? `campaign ${quote(scope.data.name)}` : `ad set ${quote(adSetName)}`} from ${money(budget, c)} to ${money(budget * (1 - BUDGET_STEP), c)} until daily reach recovers`
      : '';
  return [
    {
      kind: 'EXPAND_AUDIENCE',
      key: `EXPAND_AUDIENCE:${adSetId}`,
      action: `Broaden the audience of ad set ${quote(adSetName)} ${where}: widen age or location, add a 1-3% lookalike or turn on Advantage+ audience.`,
      rationale,
      expectedImpact: impact,
      riskLevel: 'LOW',
      relatedIssues: [f.issueId],
      base,
      changes: [
        {
          level: 'adSet',
          id: adSetId,
          name: adSetName,
          field: 'targeting',
          from: 'current audience',
          to: 'broader audience',
        },
      ],
    },
    {
      // Advantage+ audience or an Advantage+ shopping/app campaign: Meta already picks the people; new
      // creative concepts are what reach new ones, and less spend stops paying for repeats.
      kind: 'EXPAND_AUDIENCE',
      key: `EXPAND_AUDIENCE:${adSetId}`,
      action: `Add new creative concepts (new angles, formats and hooks, not variations) to ad set ${quote(adSetName)} ${where} so Meta's automated audience finds new people${lowerText}.`,
      rationale: `${rationale} Its audience is Meta's own (Advantage+), so there is no targeting to widen.`,
      expectedImpact: impact,
      riskLevel: 'LOW',
      relatedIssues: [f.issueId],
      base,
      changes: [
        { level: 'adSet', id: adSetId, name: adSetName, field: 'creative', from: null, to: 'new concepts' },
        ...lower,
      ],
    },
  ];
}

export function deliveryBlocker(f: NumberedFinding, scope: CampaignScope, base: number): Candidate {
  const name = quote(scope.data.name);
  const budget = f.facts.dailyBudget;
  const lost =
    typeof budget === 'number'
      ? `Restores delivery of the campaign's ${money(budget, scope.data.currency)} daily budget; every day blocked is a day without results.`
      : 'Restores delivery; every day blocked is a day without results.';
  let action: string;
  let change: Change;
  switch (f.facts.blocker) {
    case 'AD_DISAPPROVED':
      action = `Fix ad ${quote(str(f.facts.adName))} in campaign ${name} first: ${str(f.facts.reason)}. Edit the ad to follow Meta's policy (or its destination) and request another review in Account Quality, or duplicate the campaign's working ads with a compliant creative. Tune nothing else until it delivers again.`;
      change = {
        level: 'ad',
        id: str(f.facts.adId),
        name: str(f.facts.adName),
        field: 'review',
        from: 'DISAPPROVED',
        to: 'review requested',
      };
      break;
    case 'ACCOUNT_DISABLED':
      action = `Get the ad account re-enabled before anything else (${str(f.facts.reason)}): resolve it in Account Quality or Billing (payment method, policy appeal). No campaign of the account delivers until then.`;
      change = {
        level: 'account',
        id: scope.data.accountId,
        name: 'ad account',
        field: 'status',
        from: 'disabled',
        to: 'active',
      };
      break;
    default:
      action = `Raise or remove the account's spend cap (Billing & payments → Account spending limit) so campaign ${name} can deliver again; tune nothing else until it does.`;
      change = {
        level: 'account',
        id: scope.data.accountId,
        name: 'ad account',
        field: 'spend_cap',
        from: 'reached',
        to: 'raised or removed',
      };
  }
  return {
    kind: 'FIX_DELIVERY_BLOCKER',
    key: `FIX_DELIVERY_BLOCKER:${str(f.facts.blocker)}:${str(f.facts.adId ?? scope.data.id)}`,
    action,
    rationale: `Meta is not delivering the campaign: ${str(f.facts.message)}`,
    expectedImpact: lost,
    riskLevel: 'LOW',
    relatedIssues: [f.issueId],
    base: base * 10,
    changes: [change],
    fixesDelivery: true,
  };
}
