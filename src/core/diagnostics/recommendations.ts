// Turns findings into 1-3 concrete Ads Manager actions, each with a quantified expected impact taken
// from the data, ranked by expected effect on the user's focus metric, their risk appetite, and their
// feedback on earlier recommendations of the same kind.
import type { Recommendation, RiskLevel } from '../../shared/api/diagnostics';
import { addDays } from '../clock';
import {
  APPETITE_WEIGHTS,
  DEFAULT_PROFILE,
  FOCUS_WEIGHTS,
  feedbackWeight,
  type ActionKind,
  type Learned,
} from './andromeda';
import { day, money, percent, quote } from './format';
import { SEVERITY_RANK, shareOf } from './severity';
import { cprOf, sumRange, type Windows } from './series';
import type { Thresholds } from './thresholds';
import type { AdSetData, CampaignData, Finding } from './types';
import { goalMissedCandidate } from './detectors/goal-missed';

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
  /** Under-delivering entities of one campaign share one recommendation. */
  underdelivery?: {
    entities: string[];
    weeklyGap: number;
    moveTo: { name: string; cpr: number } | null;
    cpr: number | null;
    currency: string;
  };
}

/** The action and impact of an under-delivery recommendation, from its (possibly merged) entities. */
function withUnderdeliveryText(candidate: Candidate): Candidate {
  const u = candidate.underdelivery;
  if (!u) return candidate;
  const c = u.currency;
  const list =
    u.entities.length === 1
      ? (u.entities[0] ?? '')
      : `${u.entities.slice(0, -1).join(', ')} and ${u.entities.at(-1)}`;
  candidate.action =
    `Broaden the audience or raise the bid/cost cap of ${list} so ${u.entities.length === 1 ? 'it can spend its budget' : 'they can spend their budgets'}` +
    (u.moveTo ? `, or move the unspent budget to ad set ${quote(u.moveTo.name)}.` : '.');
  candidate.expectedImpact = u.cpr
    ? `Delivering the ${money(u.weeklyGap, c)} a week left unspent at ${money(u.cpr, c)} per result would add about ${Math.round(u.weeklyGap / u.cpr)} results a week.`
    : `Delivers the ${money(u.weeklyGap, c)} a week currently left unspent.`;
  return candidate;
}

export interface RankedRecommendations {
  recommendations: Recommendation[];
  actionKinds: Record<string, ActionKind>;
  /** Kinds in order, and the order the default profile without feedback would have given. */
  order: ActionKind[];
  defaultOrder: ActionKind[];
}

const SEVERITY_WEIGHT: Record<RiskLevel, number> = { LOW: 1, MEDIUM: 2, HIGH: 4, CRITICAL: 6 };

/** Ad sets with enough results in the cost-per-result window, cheapest first. */
function adSetsByCpr(
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

const num = (value: unknown): number => (typeof value === 'number' ? value : 0);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** `troubled`: ad sets with an issue of their own, never proposed as the place to move budget to. */
function deliveryBlockerCandidate(f: NumberedFinding, scope: CampaignScope, base: number): Candidate {
  const name = quote(scope.data.name);
  const budget = f.facts.dailyBudget;
  const lost =
    typeof budget === 'number'
      ? `Restores delivery of the campaign's ${money(budget, scope.data.currency)} daily budget; every day blocked is a day without results.`
      : 'Restores delivery; every day blocked is a day without results.';
  let action: string;
  switch (f.facts.blocker) {
    case 'AD_DISAPPROVED':
      action = `Fix ad ${quote(str(f.facts.adName))} in campaign ${name} first: ${str(f.facts.reason)}. Edit the ad to follow Meta's policy (or its destination) and request another review in Account Quality, or duplicate the campaign's working ads with a compliant creative. Tune nothing else until it delivers again.`;
      break;
    case 'ACCOUNT_DISABLED':
      action = `Get the ad account re-enabled before anything else (${str(f.facts.reason)}): resolve it in Account Quality or Billing (payment method, policy appeal). No campaign of the account delivers until then.`;
      break;
    default:
      action = `Raise or remove the account's spend cap (Billing & payments → Account spending limit) so campaign ${name} can deliver again; tune nothing else until it does.`;
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
  };
}

/** Account context: advice about the account (tracking, the auction), never a campaign budget move. */
function accountCandidate(f: NumberedFinding): Candidate {
  const c = str(f.facts.currency);
  const base = SEVERITY_WEIGHT[f.severity] * 1.5 * Math.min(2, Math.max(1, f.magnitude));
  if (f.type === 'TRACKING_BREAK') {
    const since = day(str(f.facts.startDate));
    const lost = num(f.facts.resultsPerDayBefore) - num(f.facts.resultsPerDayAfter);
    return {
      kind: 'CHECK_TRACKING',
      key: 'CHECK_TRACKING',
      action:
        `Check tracking before touching any campaign: in Events Manager open the pixel/dataset and look at the optimised event's activity since ${since}, ` +
        `the Conversions API (server events and event match quality) and any site, checkout or tag-manager change made that day; confirm with Test Events that a conversion fires again. ` +
        `Leave budgets and bids as they are until results are counted again.`,
      rationale: `Results per link click fell ${percent(num(f.facts.drop))} from ${since} on ${num(f.facts.affectedCampaigns)} campaigns at once while clicks and impressions held: conversions are no longer reported, people still click.`,
      expectedImpact: `Restores the reporting of about ${Math.round(lost)} results a day, and keeps ${money(num(f.facts.spendSince), c)} of spend since ${since} from being judged on broken counts (cutting campaigns that still convert).`,
      riskLevel: 'LOW',
      relatedIssues: [f.issueId],
      base: base * 5,
    };
  }
  const up = num(f.facts.change) > 0;
  return {
    kind: 'HOLD_FOR_MARKET',
    key: 'HOLD_FOR_MARKET',
    action: up
      ? `Hold budgets and bids across the account instead of cutting the campaigns whose cost per result rose: CPM is up ${percent(num(f.facts.change))} everywhere. Judge campaigns on CTR and conversion rate until CPM settles, and if the account's cost per result is now above what you can afford, lower the total budget evenly (or set cost caps) rather than pausing single campaigns.`
      : `CPM is down ${percent(Math.abs(num(f.facts.change)))} across the account: keep bids and consider raising the budget of the campaigns with the best conversion rate while impressions are cheaper.`,
    rationale: `CPM moved from ${money(num(f.facts.cpmBefore), c)} to ${money(num(f.facts.cpmNow), c)} on most of the account's spend by a similar share while CTR and conversion rate held: the auction moved, not the campaigns.`,
    expectedImpact: up
      ? `Avoids restarting learning on campaigns that still perform; cost per result should follow CPM back when the market eases (about ${money(num(f.facts.weeklySpend) * (num(f.facts.change) / (1 + num(f.facts.change))), c)} a week of the current spend is the price rise).`
      : `About ${percent(Math.abs(num(f.facts.change)))} more impressions per unit of spend while the market stays cheaper.`,
    riskLevel: 'LOW',
    relatedIssues: [f.issueId],
    base: base * 2,
  };
}

function candidateFor(f: NumberedFinding, scope: CampaignScope, troubled: ReadonlySet<string>): Candidate {
  const { data, windows } = scope;
  const c = data.currency;
  const share = shareOf(f, scope.rangeSpend);
  const base = SEVERITY_WEIGHT[f.severity] * (0.5 + share) * Math.min(2, Math.max(1, f.magnitude));
  const where = `in campaign ${quote(data.name)}`;
  const related = [f.issueId];
  switch (f.type) {
    case 'TRACKING_BREAK':
    case 'MARKET_SHIFT':
      return accountCandidate(f);
    case 'DELIVERY_BLOCKED':
      return deliveryBlockerCandidate(f, scope, base);
    case 'GOAL_MISSED':
      return goalMissedCandidate(f, scope, base);
    case 'CREATIVE_FATIGUE': {
      const cprNow = f.facts.cprNow;
      const cprBefore = f.facts.cprBefore;
      const saving =
        typeof cprNow === 'number' && typeof cprBefore === 'number' && cprNow > cprBefore
          ? ` and bring the cost per result of ${quote(str(f.facts.adName))} from ${money(cprNow, c)} back toward ${money(cprBefore, c)}`
          : '';
      const many = num(f.facts.adCount) > 1;
      return {
        kind: 'REFRESH_CREATIVE',
        key: `REFRESH_CREATIVE:${str(f.facts.adSetId)}`,
        action: many
          ? `Add new creative variations to ad set ${quote(str(f.facts.adSetName))} ${where} (new images or videos and hooks) and pause the worn-out ads ${str(f.facts.adNames)} once the new ones deliver.`
          : `Replace the creative of ad ${quote(str(f.facts.adName))} in ad set ${quote(str(f.facts.adSetName))} with a new variation (duplicate the ad with a new image or video and hook), then pause the old ad once the new one delivers.`,
        rationale: `CTR of ${quote(str(f.facts.adName))} fell ${percent(num(f.facts.ctrDrop))} (${(num(f.facts.ctrBefore) * 100).toFixed(2)}% → ${(num(f.facts.ctrNow) * 100).toFixed(2)}%) as frequency rose: the audience has seen ${many ? 'these ads' : 'it'} too often.`,
        expectedImpact: `Restoring the earlier CTR would recover about ${Math.round(num(f.facts.clicksLost)).toLocaleString('en-US')} clicks a week${saving}.`,
        riskLevel: 'LOW',
        relatedIssues: related,
        base,
      };
    }
    case 'LEARNING_PHASE_STALL': {
      const cpr = f.facts.cpr;
      const budget = f.facts.dailyBudget;
      const required = num(f.facts.required);
      const needed = typeof cpr === 'number' ? (cpr * required) / 7 : null;
      if (needed !== null && typeof budget === 'number' && needed > budget) {
        const target = Math.ceil(needed / 1_000_000) * 1_000_000;
        return {
          kind: 'RAISE_LEARNING_BUDGET',
          key: `RAISE_LEARNING_BUDGET:${str(f.facts.adSetId)}`,
          action: `Raise the daily budget of ad set ${quote(str(f.facts.adSetName))} ${where} from ${money(budget, c)} to ${money(target, c)}, or merge it into a sibling ad set with the same optimization event.`,
          rationale: `At ${money(needed === null ? 0 : num(cpr), c)} per result it gets about ${num(f.facts.conversionsPerWeek)} results a week; exiting learning needs ${required}.`,
          expectedImpact: `About ${Math.max(0, Math.round(required - num(f.facts.conversionsPerWeek)))} more results a week at the current cost per result, enough to exit learning within about 7 days.`,
          riskLevel: 'MEDIUM',
          relatedIssues: related,
          base,
        };
      }
      return {
        kind: 'RAISE_LEARNING_BUDGET',
        key: `RAISE_LEARNING_BUDGET:${str(f.facts.adSetId)}`,
        action: `Switch ad set ${quote(str(f.facts.adSetName))} ${where} to a more frequent optimization event (for example add to cart instead of purchase) or broaden its audience, and avoid further significant edits for 7 days.`,
        rationale: `It has ${num(f.facts.conversionsPerWeek)} results in the last week against the ${required} Meta needs to finish learning${f.facts.burning === 1 ? ', and it has spent ' + money(num(f.facts.spendSinceEdit), c) + ' without a single result' : ''}.`,
        expectedImpact:
          f.facts.burning === 1
            ? `Stops ${money(num(f.facts.spendSinceEdit) / 2, c)} or more a week of spend that produces no results.`
            : `A more frequent event gives Meta the ${required} weekly events it needs, typically ending learning in 7-10 days.`,
        riskLevel: 'MEDIUM',
        relatedIssues: related,
        base,
      };
    }
    case 'AUCTION_OVERLAP': {
      const saving =
        num(f.facts.cpmRise) > 0
          ? (f.spendAtRisk / Math.max(1, windows.rangeDays.length)) *
            7 *
            (num(f.facts.cpmRise) / (1 + num(f.facts.cpmRise)))
          : 0;
      return {
        kind: 'CONSOLIDATE_AD_SETS',
        key: `CONSOLIDATE_AD_SETS:${str(f.facts.adSetId)}`,
        action: `Combine ad set ${quote(str(f.facts.adSetName))} into ${quote(str(f.facts.keepAdSetName))} ${where} (move its ads, then turn it off), or exclude one audience from the other.`,
        rationale: `They target overlapping audiences for the same event, so Meta enters only one of them per auction; CPM rose ${percent(Math.max(0, num(f.facts.cpmRise)))}.`,
        expectedImpact:
          saving > 0
            ? `Bringing CPM back to ${money(num(f.facts.cpmBefore), c)} would save about ${money(saving, c)} a week at current spend.`
            : `Lets the combined budget deliver instead of ${percent(Math.max(0, num(f.facts.underspend)))} of it going unspent.`,
        riskLevel: 'MEDIUM',
        relatedIssues: related,
        base,
      };
    }
    case 'PACING_ISSUE': {
      const over = num(f.facts.pacingRate) > 1;
      const name = quote(str(f.facts.entityName));
      const kindOf = f.facts.entityType === 'campaign' ? 'campaign' : 'ad set';
      if (over) {
        return {
          kind: 'CAP_OVERSPEND',
          key: `CAP_OVERSPEND:${str(f.facts.entityId)}`,
          action: `Set a campaign spending limit or lower the daily budget of ${kindOf} ${name}, and check for a recent budget or schedule change that caused it.`,
          rationale: `It averaged ${money(num(f.facts.avgDailySpend), c)} a day against a ${money(num(f.facts.dailyBudget), c)} budget (${percent(num(f.facts.pacingRate))}).`,
          expectedImpact: `Keeps about ${money(num(f.facts.weeklyGap), c)} a week of unplanned spend within budget.`,
          riskLevel: 'LOW',
          relatedIssues: related,
          base,
        };
      }
      const best = adSetsByCpr(scope).filter((r) => !troubled.has(r.adSet.id))[0];
      const own = sumRange(data.daily, windows.recentCpr.from, windows.recentCpr.to);
      const candidate: Candidate = {
        kind: 'FIX_UNDERDELIVERY',
        key: `FIX_UNDERDELIVERY:${data.id}`,
        action: '',
        rationale: `${kindOf === 'campaign' ? 'The campaign' : `Ad set ${name}`} spent only ${percent(num(f.facts.pacingRate))} of its budget (${money(num(f.facts.avgDailySpend), c)} a day) in the last week.`,
        expectedImpact: '',
        riskLevel: 'MEDIUM',
        relatedIssues: related,
        base,
        underdelivery: {
          entities: [`${kindOf} ${name} (${money(num(f.facts.dailyBudget), c)} a day)`],
          weeklyGap: num(f.facts.weeklyGap),
          moveTo: best ? { name: best.adSet.name, cpr: best.cpr } : null,
          cpr: best?.cpr ?? cprOf(own),
          currency: c,
        },
      };
      return withUnderdeliveryText(candidate);
    }
    case 'CPA_DEGRADATION': {
      const ranked = adSetsByCpr(scope);
      const best = ranked.filter((r) => !troubled.has(r.adSet.id))[0];
      const worst = ranked.at(-1);
      if (best && worst && worst.adSet.id !== best.adSet.id && worst.cpr > best.cpr * 1.15) {
        const moved = worst.spend * 0.2;
        const gained = moved / best.cpr - moved / worst.cpr;
        return {
          kind: 'SHIFT_BUDGET',
          key: `SHIFT_BUDGET:${data.id}`,
          action: `Move 20% of the budget of ad set ${quote(worst.adSet.name)} (${money(worst.cpr, c)} per result) to ad set ${quote(best.adSet.name)} (${money(best.cpr, c)} per result) ${where}.`,
          rationale: `The campaign's cost per result rose ${percent(num(f.facts.rise))} to ${money(num(f.facts.actual), c)}; ${quote(best.adSet.name)} still converts at ${money(best.cpr, c)}.`,
          expectedImpact: `About ${money(moved, c)} a week moved to the best ad set buys roughly ${Math.max(1, Math.round(gained))} more results a week at the same spend (CPA ${money(best.cpr, c)} vs ${money(worst.cpr, c)}).`,
          riskLevel: 'MEDIUM',
          relatedIssues: related,
          base,
        };
      }
      const weekly = num(f.facts.recentSpend) * 0.2;
      return {
        kind: 'CUT_BUDGET',
        key: `CUT_BUDGET:${data.id}`,
        action: `Lower the daily budget of campaign ${quote(data.name)} by 20% and review its last edits, tracking and landing page until the cost per result is back near ${money(num(f.facts.target), c)}.`,
        rationale: `Its cost per result rose ${percent(num(f.facts.rise))} to ${money(num(f.facts.actual), c)} on ${num(f.facts.recentConversions)} results, and no ad set converts clearly cheaper.`,
        expectedImpact: `Limits spend at the inflated cost by about ${money(weekly, c)} a week while the cause is fixed.`,
        riskLevel: 'LOW',
        relatedIssues: related,
        base,
      };
    }
    case 'AUDIENCE_SATURATION':
      return {
        kind: 'EXPAND_AUDIENCE',
        key: `EXPAND_AUDIENCE:${str(f.facts.adSetId)}`,
        action: `Broaden the audience of ad set ${quote(str(f.facts.adSetName))} ${where}: widen age or location, add a 1-3% lookalike or turn on Advantage+ audience.`,
        rationale: `It now reaches ${percent(num(f.facts.reachDrop))} fewer people a day while each sees its ads ${percent(num(f.facts.frequencyRise))} more often.`,
        expectedImpact: `Restoring daily reach from ${Math.round(num(f.facts.reachPerDayNow)).toLocaleString('en-US')} to about ${Math.round(num(f.facts.reachPerDayBefore)).toLocaleString('en-US')} people would bring frequency back from ${num(f.facts.freqNow).toFixed(2)} toward its earlier level.`,
        riskLevel: 'LOW',
        relatedIssues: related,
        base,
      };
  }
}

const DEFAULT_LEARNED: Learned = { profile: DEFAULT_PROFILE, customized: false, feedback: new Map() };

function score(candidate: Candidate, learned: Learned): number {
  return (
    candidate.base *
    FOCUS_WEIGHTS[candidate.kind][learned.profile.focusMetric] *
    APPETITE_WEIGHTS[learned.profile.riskAppetite][candidate.riskLevel] *
    feedbackWeight(learned.feedback.get(candidate.kind))
  );
}

/** Fixing a delivery blocker outranks any tuning: no other advice works while the campaign cannot deliver. */
function blockersFirst(ranked: readonly Candidate[]): Candidate[] {
  // Then the tracking check: campaign advice read through broken conversion counts would be wrong.
  const first = (c: Candidate) =>
    c.kind === 'FIX_DELIVERY_BLOCKER' ? 2 : c.kind === 'CHECK_TRACKING' ? 1 : 0;
  return [...ranked].sort((a, b) => first(b) - first(a));
}

function rank(candidates: Candidate[], learned: Learned): Candidate[] {
  return [...candidates].sort((a, b) => score(b, learned) - score(a, learned) || a.key.localeCompare(b.key));
}

/**
 * The top `limit` of a ranking, giving each kind of action a place before any kind gets a second:
 * three budget cuts on sibling ad sets would otherwise crowd out a creative refresh. Rank order kept.
 */
export function topDistinct(ranked: readonly Candidate[], limit = 3): Candidate[] {
  const picked = new Set<Candidate>();
  const kinds = new Set<ActionKind>();
  for (const c of ranked) {
    if (picked.size < limit && !kinds.has(c.kind)) {
      picked.add(c);
      kinds.add(c.kind);
    }
  }
  for (const c of ranked) if (picked.size < limit) picked.add(c);
  return ranked.filter((c) => picked.has(c));
}

/** Actions for a healthy campaign or one with too little data: still one concrete next step. */
function quietCandidates(scopes: readonly CampaignScope[], thin: boolean): Candidate[] {
  const scope = scopes[0];
  if (!scope) {
    // An account with no delivery in the range: nothing to judge yet.
    return [
      {
        kind: 'WAIT_FOR_DATA',
        key: 'WAIT_FOR_DATA',
        action:
          'Check that the account has active campaigns with budget and approved ads, then run this diagnostic again once they have delivered for a few days.',
        rationale: 'No campaign of the account delivered in this range.',
        expectedImpact: 'No change in spend or results until campaigns deliver.',
        riskLevel: 'LOW',
        relatedIssues: [],
        base: 1,
      },
    ];
  }
  const { data, th, window } = { ...scope, window: scope.windows.range };
  if (!thin) {
    const best = scopes
      .filter((s) => !s.holdScaling)
      .flatMap((s) => adSetsByCpr(s).map((r) => ({ ...r, scope: s })))
      .sort((x, y) => x.cpr - y.cpr || x.adSet.id.localeCompare(y.adSet.id))[0];
    if (best && best.adSet.dailyBudget !== null) {
      const budget = best.adSet.dailyBudget;
      const extraWeekly = budget * 0.2 * 7;
      return [
        {
          kind: 'SCALE_WINNER',
          key: `SCALE_WINNER:${best.adSet.id}`,
          action: `Raise the daily budget of ad set ${quote(best.adSet.name)} in campaign ${quote(best.scope.data.name)} by 20% (${money(budget, data.currency)} → ${money(budget * 1.2, data.currency)}), and re-run this diagnostic after ${day(addDays(window.to, 7))}.`,
          rationale: `No issue was found and it is the cheapest converting ad set at ${money(best.cpr, data.currency)} per result over ${best.conversions} results.`,
          expectedImpact: `About ${Math.round(extraWeekly / best.cpr)} more results a week if its cost per result holds at ${money(best.cpr, data.currency)}.`,
          riskLevel: 'MEDIUM',
          relatedIssues: [],
          base: 1,
        },
      ];
    }
  }
  return [
    {
      kind: 'WAIT_FOR_DATA',
      key: 'WAIT_FOR_DATA',
      action: thin
        ? `Leave campaign ${quote(data.name)} unchanged and run this diagnostic again after ${day(addDays(window.to, 7))}, once it has at least ${money(th.minSpendPerUnit * 1_000_000, data.currency)} of spend and ${th.minImpressions.toLocaleString('en-US')} impressions.`
        : `Keep the current settings of campaign ${quote(data.name)} and run this diagnostic again after ${day(addDays(window.to, 7))}.`,
      rationale: thin
        ? 'There is too little delivery in this range to tell a problem from noise.'
        : 'No detector found an issue; changes now would restart learning without a reason.',
      expectedImpact: 'No change in spend or results; avoids resetting learning with an unneeded edit.',
      riskLevel: 'LOW',
      relatedIssues: [],
      base: 1,
    },
  ];
}

export function buildRecommendations(
  findings: readonly NumberedFinding[],
  scopes: ReadonlyMap<string, CampaignScope>,
  learned: Learned,
  thin: boolean,
): RankedRecommendations {
  const troubled = new Set<string>();
  for (const f of findings) {
    if (f.affectedEntity.type === 'adSet') troubled.add(f.affectedEntity.id);
    if ('overlappingAdSets' in f.evidence) for (const s of f.evidence.overlappingAdSets) troubled.add(s.id);
  }
  const byKey = new Map<string, Candidate>();
  for (const f of findings) {
    const scope = scopes.get(f.campaignId);
    if (!scope && f.affectedEntity.type !== 'account') continue;
    const c = scope ? candidateFor(f, scope, troubled) : accountCandidate(f);
    const existing = byKey.get(c.key);
    if (existing) {
      existing.relatedIssues.push(...c.relatedIssues);
      existing.base += c.base;
      if (existing.underdelivery && c.underdelivery) {
        existing.underdelivery.entities.push(...c.underdelivery.entities);
        existing.underdelivery.weeklyGap += c.underdelivery.weeklyGap;
        existing.rationale = `${existing.rationale} ${c.rationale}`;
        withUnderdeliveryText(existing);
      }
      if (SEVERITY_RANK[c.riskLevel] > SEVERITY_RANK[existing.riskLevel]) existing.riskLevel = c.riskLevel;
    } else byKey.set(c.key, c);
  }
  let candidates = [...byKey.values()];
  if (candidates.length === 0) candidates = quietCandidates([...scopes.values()], thin);
  const ranked = topDistinct(blockersFirst(rank(candidates, learned)));
  const defaultOrder = topDistinct(blockersFirst(rank(candidates, DEFAULT_LEARNED))).map((c) => c.kind);
  const actionKinds: Record<string, ActionKind> = {};
  const recommendations = ranked.map((c, i) => {
    const id = `rec_${i + 1}`;
    actionKinds[id] = c.kind;
    return {
      id,
      priority: i + 1,
      action: c.action,
      rationale: c.rationale,
      expectedImpact: c.expectedImpact,
      riskLevel: c.riskLevel,
      relatedIssues: c.relatedIssues,
    };
  });
  return { recommendations, actionKinds, order: ranked.map((c) => c.kind), defaultOrder };
}
