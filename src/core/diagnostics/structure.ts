// What a recommendation may ask for, given how the campaign is built in Ads Manager. A campaign
// budget (Advantage campaign budget, "CBO") leaves its ad sets without budgets; a bid cap can only be
// raised where one is set; Advantage+ shopping and app campaigns own their targeting; nothing is
// tuned while a delivery blocker stops the campaign; and a budget moves at most ±30% a step (larger
// jumps reset learning). Pure and plain data, so the engine (on the diagnosis worker) and the tests
// check every recommendation the same way before it is offered.
import type { CampaignData } from './types';

/** Bid strategies that carry an amount an analyst can raise or lower (a cap or a cost target). */
const CAPPED = new Set(['LOWEST_COST_WITH_BID_CAP', 'COST_CAP', 'TARGET_COST', 'LOWEST_COST_WITH_MIN_ROAS']);

/** smart_promotion_type of campaigns whose audience Meta builds itself (no targeting to broaden). */
const ADVANTAGE_PLUS_TYPES: Record<string, 'SHOPPING' | 'APP'> = {
  AUTOMATED_SHOPPING_ADS: 'SHOPPING',
  SMART_APP_PROMOTION: 'APP',
};

/** Meta's guidance: change a budget by about 20%, at most 30%, per step, or learning restarts. */
export const MAX_BUDGET_STEP = 0.3;
export const BUDGET_STEP = 0.2;

export interface AdSetStructure {
  id: string;
  name: string;
  campaignId: string;
  dailyBudget: number | null;
  lifetimeBudget: number | null;
  /** The ad set's own strategy, else its campaign's (a CBO campaign sets it for all its ad sets). */
  bidStrategy: string | null;
  bidAmount: number | null;
  advantageAudience: boolean;
}

export interface CampaignStructure {
  id: string;
  name: string;
  /** True when the budget is the campaign's (Advantage campaign budget): ad sets have none. */
  campaignBudget: boolean;
  dailyBudget: number | null;
  bidStrategy: string | null;
  advantagePlus: 'SHOPPING' | 'APP' | null;
  /** A delivery blocker (disapproved ad, disabled account, spend cap) stops the campaign. */
  deliveryBlocked: boolean;
  adSets: AdSetStructure[];
}

/** The structure of the campaigns a diagnostic looked at, by campaign and by ad set. */
export interface Structure {
  campaigns: Map<string, CampaignStructure>;
  adSets: Map<string, AdSetStructure>;
}

export type ChangeLevel = 'account' | 'campaign' | 'adSet' | 'ad';

/** The Ads Manager field a change edits. */
export type ChangeField =
  | 'daily_budget'
  | 'daily_spend_cap'
  | 'bid_amount'
  | 'targeting'
  | 'advantage_audience'
  | 'excluded_audiences'
  | 'status'
  | 'creative'
  | 'optimization_goal'
  | 'spend_cap'
  | 'review'
  | 'tracking'
  | 'none';

/** One edit in Ads Manager: where (level, object), which field, from what to what. */
export interface Change {
  level: ChangeLevel;
  id: string;
  name: string;
  field: ChangeField;
  from: number | string | null;
  to: number | string | null;
}

export interface Checkable {
  /** Fixing a delivery blocker is the one thing allowed on a blocked campaign. */
  fixesDelivery?: boolean;
  changes: readonly Change[];
}

export type Possible = { ok: true } | { ok: false; reason: string };

const no = (reason: string): Possible => ({ ok: false, reason });

export function advantagePlusOf(smartPromotionType: string | null | undefined): 'SHOPPING' | 'APP' | null {
  return ADVANTAGE_PLUS_TYPES[(smartPromotionType ?? '').toUpperCase()] ?? null;
}

export function isCapped(bidStrategy: string | null | undefined): boolean {
  return CAPPED.has((bidStrategy ?? '').toUpperCase());
}

/** The structure of loaded campaigns; `blocked`: IDs of campaigns with a DELIVERY_BLOCKED finding. */
export function structureOf(campaigns: readonly CampaignData[], blocked: ReadonlySet<string>): Structure {
  const out: Structure = { campaigns: new Map(), adSets: new Map() };
  for (const c of campaigns) {
    const campaignBudget = c.dailyBudget !== null || c.lifetimeBudget !== null;
    const adSets = c.adSets.map((s): AdSetStructure => ({
      id: s.id,
      name: s.name,
      campaignId: c.id,
      dailyBudget: campaignBudget ? null : s.dailyBudget,
      lifetimeBudget: campaignBudget ? null : s.lifetimeBudget,
      bidStrategy: s.bidStrategy ?? c.bidStrategy,
      bidAmount: s.bidAmount,
      advantageAudience: s.targeting.advantageAudience === true,
    }));
    out.campaigns.set(c.id, {
      id: c.id,
      name: c.name,
      campaignBudget,
      dailyBudget: c.dailyBudget,
      bidStrategy: c.bidStrategy,
      advantagePlus: advantagePlusOf(c.smartPromotionType),
      deliveryBlocked: blocked.has(c.id),
      adSets,
    });
    for (const s of adSets) out.adSets.set(s.id, s);
  }
  return out;
}

function campaignOf(change: Change, structure: Structure): CampaignStructure | undefined {
  if (change.level === 'campaign') return structure.campaigns.get(change.id);
  if (change.level === 'adSet') {
    const adSet = structure.adSets.get(change.id);
    return adSet ? structure.campaigns.get(adSet.campaignId) : undefined;
  }
  return undefined;
}

function checkBudget(change: Change, structure: Structure): Possible {
  const campaign = campaignOf(change, structure);
  if (change.level === 'adSet') {
    const adSet = structure.adSets.get(change.id);
    if (!adSet || !campaign) return no(`ad set ${change.name} is not part of the diagnosed campaigns`);
    if (campaign.campaignBudget)
      return no(
        `ad set ${change.name} has no budget of its own: campaign ${campaign.name} uses a campaign budget (Advantage campaign budget)`,
      );
    if (adSet.dailyBudget === null) return no(`ad set ${change.name} has no daily budget`);
  } else if (change.level === 'campaign') {
    if (!campaign) return no(`campaign ${change.name} is not part of the diagnosed campaigns`);
    if (!campaign.campaignBudget || campaign.dailyBudget === null)
      return no(`campaign ${change.name} has no daily campaign budget: its ad sets hold the budgets`);
  } else return no('a daily budget belongs to a campaign or an ad set');
  if (typeof change.from === 'number' && typeof change.to === 'number' && change.from > 0) {
    const step = change.to / change.from - 1;
    if (Math.abs(step) > MAX_BUDGET_STEP + 1e-9)
      return no(
        `a budget change of ${Math.round(step * 100)}% in one step restarts learning (at most ±${MAX_BUDGET_STEP * 100}%)`,
      );
  }
  return { ok: true };
}

function checkChange(change: Change, structure: Structure): Possible {
  const campaign = campaignOf(change, structure);
  switch (change.field) {
    case 'daily_budget':
      return checkBudget(change, structure);
    case 'daily_spend_cap':
      // Ad set spending limits exist only under a campaign budget; an ad set budget is its own limit.
      if (change.level !== 'adSet' || !campaign?.campaignBudget)
        return no(`ad set spending limits need a campaign budget; ${change.name} has its own budget`);
      return { ok: true };
    case 'bid_amount': {
      const adSet = change.level === 'adSet' ? structure.adSets.get(change.id) : undefined;
      const strategy = adSet ? adSet.bidStrategy : (campaign?.bidStrategy ?? null);
      if (!isCapped(strategy))
        return no(
          `${change.name} bids with ${strategy ?? 'lowest cost'} and has no bid or cost cap to raise`,
        );
      return { ok: true };
    }
    case 'targeting':
    case 'advantage_audience':
    case 'excluded_audiences': {
      if (campaign?.advantagePlus)
        return no(
          `campaign ${campaign.name} is an Advantage+ ${campaign.advantagePlus === 'SHOPPING' ? 'shopping' : 'app'} campaign: Meta builds its audience, there is no targeting to change`,
        );
      const adSet = change.level === 'adSet' ? structure.adSets.get(change.id) : undefined;
      if (adSet?.advantageAudience && change.field !== 'excluded_audiences')
        return no(
          `ad set ${change.name} already uses Advantage+ audience: Meta already looks beyond its audience`,
        );
      return { ok: true };
    }
    default:
      return { ok: true };
  }
}

/**
 * Whether a recommendation can be done as written on this structure. Every change must be possible,
 * and a campaign that cannot deliver is not tuned: its delivery blocker comes first.
 */
export function isPossible(recommendation: Checkable, structure: Structure): Possible {
  for (const change of recommendation.changes) {
    const campaign = campaignOf(change, structure);
    if (campaign?.deliveryBlocked && !recommendation.fixesDelivery)
      return no(`campaign ${campaign.name} cannot deliver: its delivery blocker must be fixed first`);
    const verdict = checkChange(change, structure);
    if (!verdict.ok) return verdict;
  }
  return { ok: true };
}

/**
 * Budget steps from `from` toward `target` of at most +20% each: the first step's amount and how many
 * steps it takes (rounded up to whole currency units).
 */
export function budgetSteps(from: number, target: number): { firstStep: number; steps: number } {
  if (from <= 0 || target <= from) return { firstStep: from, steps: 0 };
  const steps = Math.ceil(Math.log(target / from) / Math.log(1 + BUDGET_STEP) - 1e-9);
  const firstStep = Math.min(target, from * (1 + BUDGET_STEP));
  return { firstStep, steps };
}
