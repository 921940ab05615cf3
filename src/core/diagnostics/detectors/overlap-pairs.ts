// The pairs of ad sets the overlap detector judges. An account-level diagnostic of a large account
// holds thousands of active ad sets, so each is reduced once (event, effective targeting, recent spend,
// its CPM rise as an established ad set) and only pairs that can meet are compared: the same
// optimisation event, and a shared country unless one side targets none. Pairs come out in the
// order of a plain double loop over the candidates, which the findings' tie-breaks rely on.
import { addDays, dateRange } from '../../clock';
import { budgetOn } from '../budget-history';
import { atLeast, cpmOf, sumRange, type Windows } from '../series';
import { effectiveOverlap, effectiveTargeting } from '../targeting';
import type { Thresholds } from '../thresholds';
import type { AdSetData, CampaignData, Targeting } from '../types';
import { dayOf, isActive } from './context';

/** An ad set with the campaign it belongs to: overlap is judged across campaigns of an account. */
export interface OverlapMember {
  campaign: CampaignData;
  adSet: AdSetData;
}

export interface OverlapScope {
  windows: Windows;
  th: Thresholds;
  /** Minimum spend per judged window, in micros. */
  minSpend: number;
  window: { from: string; to: string };
}

/** The CPM change of an established ad set since the reference period. */
interface CpmChange {
  cpmRise: number;
  cpmBefore: number;
  cpmNow: number;
}

/** How a pair shows in its auctions: the established ad set's CPM, and its delivery where it fell. */
export interface Symptom extends CpmChange {
  /** Present when the pair shows in delivery: the established ad set's budget went unspent since. */
  delivery?: {
    established: string;
    newer: string;
    launch: string;
    rateBefore: number;
    rateNow: number;
    /** The established ad set's campaign has other ad sets with budgets, and they held. */
    restHeld: boolean;
  };
}

/** An active ad set with enough recent delivery to be judged, reduced once for the pair checks. */
export interface OverlapCandidate extends OverlapMember {
  /** Optimisation goal and promoted event: only ad sets bidding for the same result compete. */
  event: string;
  /** What it can reach (Advantage+ audience widened). */
  reach: Targeting;
  /** Spend in the recent window (micros). */
  recentSpend: number;
  /** Its launch day. */
  since: string;
  /** Its own CPM change, had it been running since before the reference period. */
  cpm: CpmChange | null;
}

/**
 * Pairs of candidates (indices into the candidate list) in double-loop order, as parallel arrays: a
 * large account has hundreds of thousands of them.
 */
export interface OverlapPairs {
  first: number[];
  second: number[];
  overlap: number[];
  /** Launches only: the pair's symptom. */
  symptom?: Symptom[];
}

const eventOf = (s: AdSetData): string => `${s.optimizationGoal ?? ''}/${s.promotedEvent ?? ''}`;

/** Active ad sets (of active campaigns across campaigns) with the recent delivery a judgement needs. */
export function overlapCandidates(
  members: readonly OverlapMember[],
  scope: OverlapScope,
  saturated: ReadonlySet<string>,
  acrossCampaigns: boolean,
): OverlapCandidate[] {
  const { windows, th } = scope;
  const out: OverlapCandidate[] = [];
  for (const { campaign, adSet } of members) {
    if (!isActive(adSet) || (acrossCampaigns && !isActive(campaign)) || saturated.has(adSet.id)) continue;
    const recent = sumRange(adSet.daily, windows.recent.from, windows.recent.to);
    if (recent.impressions < th.minImpressions || recent.spend < scope.minSpend) continue;
    const since = dayOf(adSet.createdTime) ?? '';
    out.push({
      campaign,
      adSet,
      event: eventOf(adSet),
      reach: effectiveTargeting(adSet.targeting),
      recentSpend: recent.spend,
      since,
      cpm: since > windows.reference.from ? null : cpmChange(adSet, scope),
    });
  }
  return out;
}

function cpmChange(adSet: AdSetData, { windows, th }: OverlapScope): CpmChange | null {
  const own = sumRange(adSet.daily, windows.reference.from, windows.reference.to);
  if (own.impressions < th.minImpressions) return null;
  const cpmBefore = cpmOf(own);
  const cpmNow = cpmOf(sumRange(adSet.daily, windows.recent.from, windows.recent.to));
  if (!cpmBefore || cpmNow === null) return null;
  return { cpmRise: cpmNow / cpmBefore - 1, cpmBefore, cpmNow };
}

/**
 * Whether two overlapping ad sets show it in their auctions, as a media buyer reads it: one of them
 * was launched since the reference period, and since then the established one's own CPM rose past the
 * bar (a new ad set bidding into an audience already covered), or its delivery fell (below).
 * Two ad sets that have overlapped all along show no change to date the overlap by: a chain of broad
 * ad sets (Advantage+ audience overlaps every cell of its country) judged as one merged group mostly
 * measured noise. Null: no symptom.
 */
export function pairSymptom(a: OverlapCandidate, b: OverlapCandidate, scope: OverlapScope): Symptom | null {
  const { windows, th } = scope;
  let best: Symptom | null = null;
  for (const [established, newer] of [
    [a, b],
    [b, a],
  ] as const) {
    const cpm = established.cpm;
    if (newer.since <= windows.reference.from || !cpm) continue;
    const risen = atLeast(cpm.cpmRise, th.overlapCpmRise);
    const delivery = risen ? null : deliveryLost(established, newer, cpm.cpmRise, scope);
    if (!risen && !delivery) continue;
    if (!best || cpm.cpmRise > best.cpmRise) best = { ...cpm, ...(delivery ? { delivery } : {}) };
  }
  return best;
}

/** Spend of an ad set with its own budget as a share of the budgets in force over `days` (null: none). */
function deliveryRate(m: OverlapMember, days: readonly string[]): number | null {
  const { adSet, campaign } = m;
  if (adSet.dailyBudget === null || campaign.dailyBudget !== null || days.length === 0) return null;
  let budget = 0;
  for (const date of days)
    budget += budgetOn(campaign.changes, adSet.id, adSet.dailyBudget, date, campaign.currency);
  const spend = sumRange(adSet.daily, days[0] as string, days.at(-1) as string).spend;
  return budget > 0 ? spend / budget : null;
}

/**
 * The overlap in delivery (Meta: overlapping ad sets "can't spend their full budget", each removed
 * from the auctions the other wins), read the way a media buyer dates it: since the newer ad set
 * launched into its audience, the established ad set (with a budget of its own) leaves at least
 * `overlapUnderspend` of its budget in force unspent over the last complete week and spends that much
 * less of it than in the days before the launch; the fall is its own, not its campaign's (the
 * campaign's other ad sets fell less than half as far: a campaign-wide fall is pacing or a blocker);
 * and a second sign agrees: the newer ad set leaves as much of its own budget unspent, or the
 * established one's CPM rose at least half the CPM bar. Unspent budget alone is no sign of overlap.
 */
function deliveryLost(
  established: OverlapMember,
  newer: OverlapMember,
  cpmRise: number,
  scope: OverlapScope,
): Symptom['delivery'] | null {
  const { windows, th } = scope;
  const launch = dayOf(newer.adSet.createdTime) ?? '';
  // The judged week must lie wholly after the launch, the days before it inside the loaded baseline.
  if (launch > windows.complete.from) return null;
  const firstBefore = addDays(launch, -2 * th.recentDays);
  const before = dateRange(
    firstBefore > windows.reference.from ? firstBefore : windows.reference.from,
    addDays(launch, -1),
  );
  if (before.length < th.recentDays) return null;
  const week = dateRange(windows.complete.from, windows.complete.to);
  const rateBefore = deliveryRate(established, before);
  const rateNow = deliveryRate(established, week);
  if (rateBefore === null || rateNow === null || rateBefore <= 0) return null;
  const fall = 1 - rateNow / rateBefore;
  if (!atLeast(1 - rateNow, th.overlapUnderspend) || !atLeast(fall, th.overlapUnderspend)) return null;
  // The rest of the campaign: its ad sets with budgets of their own that ran before the launch.
  const rest = established.campaign.adSets.filter(
    (s) =>
      s.id !== established.adSet.id &&
      s.id !== newer.adSet.id &&
      isActive(s) &&
      (dayOf(s.createdTime) ?? '') < (before[0] ?? ''),
  );
  let restBefore = 0;
  let restNow = 0;
  for (const s of rest) {
    const m = { campaign: established.campaign, adSet: s };
    restBefore += (deliveryRate(m, before) ?? 0) * (s.dailyBudget ?? 0);
    restNow += (deliveryRate(m, week) ?? 0) * (s.dailyBudget ?? 0);
  }
  if (restBefore > 0 && 1 - restNow / restBefore >= fall / 2) return null;
  const newerRate = deliveryRate(newer, week);
  const newerShort = newerRate !== null && atLeast(1 - newerRate, th.overlapUnderspend);
  if (!newerShort && !atLeast(cpmRise, th.overlapCpmRise / 2)) return null;
  return {
    established: established.adSet.name,
    newer: newer.adSet.name,
    launch,
    rateBefore,
    rateNow,
    restHeld: restBefore > 0,
  };
}

/**
 * Pairs of candidates whose targeting overlaps at least `bar`, in double-loop order (i < j). Two ad
 * sets with different events, or (across campaigns) of one campaign, are never paired; two that
 * both name countries and share none overlap 0 and are not compared. Ad sets often share a targeting
 * (broad cells of one country), so each pair of distinct targetings is compared once.
 */
export function overlappingPairs(
  candidates: readonly OverlapCandidate[],
  bar: number,
  acrossCampaigns: boolean,
): OverlapPairs {
  const partners = partnerIndex(candidates);
  const shapes = new Map<string, number>();
  const shapeOf = candidates.map((c) => {
    const key = JSON.stringify(c.reach);
    const known = shapes.get(key);
    if (known !== undefined) return known;
    shapes.set(key, shapes.size);
    return shapes.size - 1;
  });
  const compared = new Map<number, number>();
  const pairs: OverlapPairs = { first: [], second: [], overlap: [] };
  for (let i = 0; i < candidates.length; i++) {
    const a = candidates[i] as OverlapCandidate;
    const shapeA = shapeOf[i] as number;
    for (const j of partners(i)) {
      const b = candidates[j] as OverlapCandidate;
      if (acrossCampaigns && a.campaign.id === b.campaign.id) continue;
      const key = shapeA * shapes.size + (shapeOf[j] as number);
      let overlap = compared.get(key);
      if (overlap === undefined) {
        overlap = effectiveOverlap(a.reach, b.reach);
        compared.set(key, overlap);
      }
      if (!atLeast(overlap, bar)) continue;
      pairs.first.push(i);
      pairs.second.push(j);
      pairs.overlap.push(overlap);
    }
  }
  return pairs;
}

/** For a candidate, the later candidates (ascending) with its event that can share a country with it. */
function partnerIndex(candidates: readonly OverlapCandidate[]): (i: number) => number[] {
  interface Bucket {
    all: number[];
    anywhere: number[];
    byCountry: Map<string, number[]>;
  }
  const buckets = new Map<string, Bucket>();
  candidates.forEach((c, i) => {
    let bucket = buckets.get(c.event);
    if (!bucket) {
      bucket = { all: [], anywhere: [], byCountry: new Map() };
      buckets.set(c.event, bucket);
    }
    bucket.all.push(i);
    if (c.reach.countries.length === 0) bucket.anywhere.push(i);
    for (const country of c.reach.countries) {
      const list = bucket.byCountry.get(country) ?? [];
      list.push(i);
      bucket.byCountry.set(country, list);
    }
  });
  // Which candidate last took a partner: lists of several countries are merged without a Set.
  const stamp = new Int32Array(candidates.length).fill(-1);
  return (i) => {
    const c = candidates[i] as OverlapCandidate;
    const bucket = buckets.get(c.event) as Bucket;
    if (c.reach.countries.length === 0) return bucket.all.filter((j) => j > i);
    const lists = [bucket.anywhere, ...c.reach.countries.map((k) => bucket.byCountry.get(k) ?? [])].filter(
      (list) => list.length > 0,
    );
    const later: number[] = [];
    for (const list of lists)
      for (const j of list)
        if (j > i && stamp[j] !== i) {
          stamp[j] = i;
          later.push(j);
        }
    // Each list is ascending: one alone needs no sort.
    return lists.length > 1 ? later.sort((x, y) => x - y) : later;
  };
}
