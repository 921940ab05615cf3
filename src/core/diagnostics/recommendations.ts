// Turns findings into 1-3 concrete Ads Manager actions, each with a quantified expected impact taken
// from the data, ranked by expected effect on the user's focus metric, their risk appetite, and their
// feedback on earlier recommendations of the same kind.
import type { AdsManagerChange, Recommendation } from '../../shared/api/diagnostics';
import { addDays } from '../clock';
import {
  adSetsByCpr,
  budgetChange,
  deliveryBlocker,
  fatigue,
  learning,
  num,
  overlap,
  saturation,
  SEVERITY_WEIGHT,
  str,
  type Candidate,
  type CampaignScope,
  type NumberedFinding,
} from './actions';
import {
  APPETITE_WEIGHTS,
  DEFAULT_PROFILE,
  FOCUS_WEIGHTS,
  feedbackWeight,
  type ActionKind,
  type Learned,
} from './andromeda';
import { cpa, pacing } from './budget-actions';
import { goalEffect } from './goal-effect';
import { day, money, percent, quote } from './format';
import { SEVERITY_RANK, shareOf } from './severity';
import { BUDGET_STEP, isPossible, type Change, type Structure } from './structure';
import { goalMissedCandidates } from './detectors/goal-missed';

export type { Candidate, CampaignScope, NumberedFinding } from './actions';

export interface RankedRecommendations {
  recommendations: Recommendation[];
  actionKinds: Record<string, ActionKind>;
  /** Kinds in order, and the order the default profile without feedback would have given. */
  order: ActionKind[];
  defaultOrder: ActionKind[];
  /** Actions left out because the structure does not allow them (kind and reason), for tests and docs. */
  refused: { kind: ActionKind; reason: string }[];
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
      changes: [
        {
          level: 'account',
          id: '',
          name: 'Events Manager',
          field: 'tracking',
          from: null,
          to: 'events verified',
        },
      ],
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
    changes: [],
  };
}

/** The actions for a finding, best first; the builder offers the first the structure allows. */
function alternativesFor(
  f: NumberedFinding,
  scope: CampaignScope,
  structure: Structure,
  troubled: ReadonlySet<string>,
): Candidate[] {
  const share = shareOf(f, scope.rangeSpend);
  const base = SEVERITY_WEIGHT[f.severity] * (0.5 + share) * Math.min(2, Math.max(1, f.magnitude));
  switch (f.type) {
    case 'TRACKING_BREAK':
    case 'MARKET_SHIFT':
      return [accountCandidate(f)];
    case 'DELIVERY_BLOCKED':
      return [deliveryBlocker(f, scope, base)];
    case 'GOAL_MISSED':
      return goalMissedCandidates(f, scope, base, structure);
    case 'CREATIVE_FATIGUE':
      return fatigue(f, scope, base);
    case 'LEARNING_PHASE_STALL':
      return learning(f, scope, base, structure);
    case 'AUCTION_OVERLAP':
      return overlap(f, scope, base, structure);
    case 'PACING_ISSUE':
      return pacing(f, scope, base, structure, troubled);
    case 'CPA_DEGRADATION':
      return cpa(f, scope, base, structure, troubled);
    case 'AUDIENCE_SATURATION':
      return saturation(f, scope, base, structure);
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
function quietCandidates(
  scopes: readonly CampaignScope[],
  thin: boolean,
): (Candidate & { scope?: CampaignScope })[] {
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
        changes: [],
      },
    ];
  }
  const { data, th, window } = { ...scope, window: scope.windows.range };
  const out: (Candidate & { scope?: CampaignScope })[] = [];
  if (!thin) {
    const best = scopes
      .filter((s) => !s.holdScaling)
      .flatMap((s) => adSetsByCpr(s).map((r) => ({ ...r, scope: s })))
      .sort((x, y) => x.cpr - y.cpr || x.adSet.id.localeCompare(y.adSet.id))[0];
    // Scale the cheapest converter one step: its own budget, or its campaign's (campaign budget).
    const owner = best
      ? best.adSet.dailyBudget !== null && best.scope.data.dailyBudget === null
        ? {
            level: 'adSet' as const,
            id: best.adSet.id,
            name: best.adSet.name,
            budget: best.adSet.dailyBudget,
          }
        : best.scope.data.dailyBudget !== null
          ? {
              level: 'campaign' as const,
              id: best.scope.data.id,
              name: best.scope.data.name,
              budget: best.scope.data.dailyBudget,
            }
          : null
      : null;
    if (best && owner) {
      const c = best.scope.data.currency;
      const to = owner.budget * (1 + BUDGET_STEP);
      const label =
        owner.level === 'adSet'
          ? `ad set ${quote(owner.name)} in campaign ${quote(best.scope.data.name)}`
          : `campaign ${quote(owner.name)} (its best ad set ${quote(best.adSet.name)})`;
      out.push({
        kind: 'SCALE_WINNER',
        key: `SCALE_WINNER:${owner.id}`,
        action: `Raise the daily budget of ${label} by ${BUDGET_STEP * 100}% (${money(owner.budget, c)} → ${money(to, c)}), and re-run this diagnostic after ${day(addDays(window.to, 7))}.`,
        rationale: `No issue was found and ${quote(best.adSet.name)} is the cheapest converting ad set at ${money(best.cpr, c)} per result over ${best.conversions} results.`,
        expectedImpact: `About ${Math.round((owner.budget * BUDGET_STEP * 7) / best.cpr)} more results a week if the cost per result holds at ${money(best.cpr, c)}.`,
        riskLevel: 'MEDIUM',
        relatedIssues: [],
        base: 1,
        changes: [budgetChange(owner.level, owner.id, owner.name, owner.budget, to)],
        projection: {
          spend: owner.budget * BUDGET_STEP * 7,
          results: (owner.budget * BUDGET_STEP * 7) / best.cpr,
        },
        scope: best.scope,
      });
    }
  }
  out.push({
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
    changes: [],
  });
  return out;
}

/** Money fields leave the engine in major units, like every amount of the API. */
const MONEY_FIELDS = new Set<Change['field']>(['daily_budget', 'daily_spend_cap', 'bid_amount']);
const toWire = (c: Change): AdsManagerChange => {
  const value = (v: number | string | null): number | string | null =>
    typeof v === 'number' && MONEY_FIELDS.has(c.field) ? Math.round(v / 10_000) / 100 : v;
  return { level: c.level, id: c.id, name: c.name, field: c.field, from: value(c.from), to: value(c.to) };
};

/** The first action of a finding that its campaign's structure allows; the reasons of the others. */
function firstPossible<T extends Candidate>(
  alternatives: readonly T[],
  structure: Structure,
  refused: RankedRecommendations['refused'],
): T | null {
  for (const c of alternatives) {
    const verdict = isPossible(c, structure);
    if (verdict.ok) return c;
    refused.push({ kind: c.kind, reason: verdict.reason });
  }
  return null;
}

export function buildRecommendations(
  findings: readonly NumberedFinding[],
  scopes: ReadonlyMap<string, CampaignScope>,
  learned: Learned,
  thin: boolean,
  structure: Structure,
): RankedRecommendations {
  const troubled = new Set<string>();
  for (const f of findings) {
    if (f.affectedEntity.type === 'adSet') troubled.add(f.affectedEntity.id);
    if ('overlappingAdSets' in f.evidence) for (const s of f.evidence.overlappingAdSets) troubled.add(s.id);
  }
  const refused: RankedRecommendations['refused'] = [];
  const byKey = new Map<string, Candidate>();
  for (const f of findings) {
    const scope = scopes.get(f.campaignId);
    if (!scope && f.affectedEntity.type !== 'account') continue;
    const alternatives = scope ? alternativesFor(f, scope, structure, troubled) : [accountCandidate(f)];
    const chosen = firstPossible(alternatives, structure, refused);
    if (!chosen) continue;
    // Where the campaign has a goal, the action's projected effect on it (goals core).
    const c = scope
      ? { ...chosen, expectedImpact: chosen.expectedImpact + goalEffect(scope, chosen.projection) }
      : chosen;
    const existing = byKey.get(c.key);
    if (existing) {
      existing.relatedIssues.push(...c.relatedIssues);
      existing.base += c.base;
      if (SEVERITY_RANK[c.riskLevel] > SEVERITY_RANK[existing.riskLevel]) existing.riskLevel = c.riskLevel;
    } else byKey.set(c.key, { ...c, relatedIssues: [...c.relatedIssues] });
  }
  let candidates = [...byKey.values()];
  if (candidates.length === 0) {
    const quiet = quietCandidates([...scopes.values()], thin);
    const c = firstPossible(quiet, structure, refused);
    const scope = c?.scope;
    candidates = c
      ? [scope ? { ...c, expectedImpact: c.expectedImpact + goalEffect(scope, c.projection) } : c]
      : quiet.slice(-1);
  }
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
      changes: c.changes.map(toWire),
    };
  });
  return { recommendations, actionKinds, order: ranked.map((c) => c.kind), defaultOrder, refused };
}
