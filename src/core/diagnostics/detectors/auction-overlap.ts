// AUCTION_OVERLAP: active ad sets with the same optimization event and overlapping targeting bid in
// the same auctions; Meta enters only one of them, so they under-spend and their CPM climbs.
import { addDays, dateRange } from '../../clock';
import { budgetOn } from '../budget-history';
import { atLeast, cpmOf, dailySeries, evidenceTrend, mergeDaily, sumRange, windowDays } from '../series';
import { day, money, percent, quote } from '../format';
import { targetingOverlap } from '../targeting';
import type { Thresholds } from '../thresholds';
import type { Windows } from '../series';
import type { AdSetData, CampaignData, Finding } from '../types';
import { dayOf, isActive, type DetectorContext } from './context';

const eventOf = (s: AdSetData): string => `${s.optimizationGoal ?? ''}/${s.promotedEvent ?? ''}`;

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

/** `saturated`: ad sets whose rising CPM their own shrinking audience already explains. */
export function detectAuctionOverlap(
  ctx: DetectorContext,
  saturated: ReadonlySet<string> = new Set(),
): Finding[] {
  return findOverlaps(
    ctx.data.adSets.map((adSet) => ({ campaign: ctx.data, adSet })),
    ctx,
    saturated,
  );
}

/**
 * Overlap between ad sets of different campaigns of the account (the common case in real accounts):
 * only groups spanning at least two campaigns, and only ad sets not already in an overlap of their
 * own campaign. The finding belongs to the campaign of the ad set losing most auctions and names the
 * other campaigns.
 */
export function detectCrossCampaignOverlap(
  members: readonly OverlapMember[],
  scope: OverlapScope,
  excluded: ReadonlySet<string>,
  undated: ReadonlySet<string> = new Set(),
): Finding[] {
  return findOverlaps(
    members.filter((m) => !excluded.has(m.adSet.id)),
    scope,
    excluded,
    true,
    undated,
  );
}

/**
 * Two readings: first the pairs where an ad set was launched into an audience an established one
 * covers and its CPM rose or its delivery fell since (each pair judged on its own); then, among the ad
 * sets left, connected groups of overlapping ad sets whose merged CPM rose or whose ad-set budgets went
 * unspent. `undated`: ad sets already in an undated group of their own campaign, open to launch pairs
 * only (a dated pair across campaigns explains them better than a chain through a broad ad set).
 */
function findOverlaps(
  members: readonly OverlapMember[],
  scope: OverlapScope,
  saturated: ReadonlySet<string>,
  acrossCampaigns = false,
  undated: ReadonlySet<string> = new Set(),
): Finding[] {
  const launched = findGroups(members, scope, saturated, acrossCampaigns, 'launch');
  const taken = new Set<string>();
  for (const f of launched) {
    taken.add(f.affectedEntity.id);
    if ('overlappingAdSets' in f.evidence) for (const s of f.evidence.overlappingAdSets) taken.add(s.id);
  }
  const rest = members.filter((m) => !taken.has(m.adSet.id) && !undated.has(m.adSet.id));
  return [...launched, ...findGroups(rest, scope, saturated, acrossCampaigns, 'group')];
}

function findGroups(
  members: readonly OverlapMember[],
  scope: OverlapScope,
  saturated: ReadonlySet<string>,
  acrossCampaigns: boolean,
  mode: 'launch' | 'group',
): Finding[] {
  const { windows, th } = scope;
  const candidates = members.filter(({ campaign, adSet: s }) => {
    if (!isActive(s) || (acrossCampaigns && !isActive(campaign)) || saturated.has(s.id)) return false;
    const recent = sumRange(s.daily, windows.recent.from, windows.recent.to);
    return recent.impressions >= th.minImpressions && recent.spend >= scope.minSpend;
  });
  const campaignOf = new Map(candidates.map((m) => [m.adSet.id, m.campaign]));
  // Pairs above the targeting bar, grouped into connected groups of ad sets.
  const parent = new Map(candidates.map((m) => [m.adSet.id, m.adSet.id]));
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root) ?? root;
    return root;
  };
  const pairOverlap = new Map<string, number>();
  const paired = new Set<string>();
  // What a media buyer checks per pair, not per chain of pairs: a broad ad set (Advantage+ audience)
  // overlaps every cell of its country, and judging the whole chain at once dilutes the one pair that
  // actually collides. A pair counts when its own auctions show it (symptom below).
  const symptoms = new Map<string, Symptom>();
  for (let i = 0; i < candidates.length; i++) {
    for (let j = i + 1; j < candidates.length; j++) {
      const a = candidates[i]?.adSet;
      const b = candidates[j]?.adSet;
      if (!a || !b || eventOf(a) !== eventOf(b)) continue;
      if (acrossCampaigns && candidates[i]?.campaign.id === candidates[j]?.campaign.id) continue;
      const overlap = targetingOverlap(a.targeting, b.targeting);
      if (!atLeast(overlap, th.overlapTargeting)) continue;
      const symptom =
        mode === 'launch'
          ? pairSymptom(candidates[i] as OverlapMember, candidates[j] as OverlapMember, scope)
          : null;
      if (mode === 'launch' && !symptom) continue;
      pairOverlap.set(`${a.id}|${b.id}`, overlap);
      if (symptom) symptoms.set(`${a.id}|${b.id}`, symptom);
      paired.add(a.id);
      paired.add(b.id);
      parent.set(find(a.id), find(b.id));
    }
  }
  const groups = new Map<string, AdSetData[]>();
  for (const { adSet: s } of candidates) {
    if (!paired.has(s.id)) continue;
    const root = find(s.id);
    groups.set(root, [...(groups.get(root) ?? []), s]);
  }

  const findings: Finding[] = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const daily = mergeDaily(group.map((s) => s.daily));
    // Launches: the strongest pair's symptom is the group's evidence. Groups: their merged CPM.
    let strongest: Symptom | null = null;
    for (const [key, symptom] of symptoms) {
      const [a, b] = key.split('|');
      if (!group.some((s) => s.id === a) || !group.some((s) => s.id === b)) continue;
      if (!strongest || strongest.cpmRise < symptom.cpmRise) strongest = symptom;
    }
    if (mode === 'group') {
      const recent = sumRange(daily, windows.recent.from, windows.recent.to);
      const reference = sumRange(daily, windows.reference.from, windows.reference.to);
      if (reference.impressions < th.minImpressions) continue;
      const now = cpmOf(recent);
      const before = cpmOf(reference);
      if (now === null || !before) continue;
      strongest = { cpmRise: now / before - 1, cpmBefore: before, cpmNow: now };
    }
    if (!strongest) continue;
    const { cpmRise, cpmBefore, cpmNow, delivery } = strongest;
    // Under-spend of the group against its budgets (ad-set budgets only; CBO campaigns pool them).
    let budget = 0;
    let spend = 0;
    for (const s of group) {
      const campaign = campaignOf.get(s.id);
      if (s.dailyBudget === null || (campaign?.dailyBudget ?? null) !== null) continue;
      budget += s.dailyBudget * windowDays(windows.complete);
      spend += sumRange(s.daily, windows.complete.from, windows.complete.to).spend;
    }
    const underspend = budget > 0 ? 1 - spend / budget : 0;
    if (mode === 'group') {
      if (!atLeast(cpmRise, th.overlapCpmRise) && !atLeast(underspend, th.overlapUnderspend)) continue;
      if (cpmRise < th.overlapCpmRise / 2) continue;
    }

    let overlap = 0;
    for (const [key, value] of pairOverlap) {
      const [a, b] = key.split('|');
      if (group.some((s) => s.id === a) && group.some((s) => s.id === b)) overlap = Math.max(overlap, value);
    }
    // The entity is the ad set that loses the most auctions: the one with the lowest spend share.
    const ranked = [...group].sort(
      (a, b) =>
        sumRange(a.daily, windows.recent.from, windows.recent.to).spend -
          sumRange(b.daily, windows.recent.from, windows.recent.to).spend || a.id.localeCompare(b.id),
    );
    const weakest = ranked[0] as AdSetData;
    const own = campaignOf.get(weakest.id) as CampaignData;
    const keep = ranked.at(-1) as AdSetData;
    const keepCampaign = campaignOf.get(keep.id) as CampaignData;
    const others = ranked.slice(1);
    const otherCampaigns = [
      ...new Map(
        others
          .map((s) => campaignOf.get(s.id) as CampaignData)
          .filter((c) => c.id !== own.id)
          .map((c) => [c.id, { id: c.id, name: c.name }]),
      ).values(),
    ];
    const severity =
      overlap >= 0.6 && (cpmRise >= 2 * th.overlapCpmRise || underspend >= 2 * th.overlapUnderspend)
        ? 'HIGH'
        : 'MEDIUM';
    const spendNote =
      budget > 0 ? ` Together they spent ${percent(Math.max(0, underspend))} below their budgets.` : '';
    const named = (s: AdSetData): string => {
      const c = campaignOf.get(s.id);
      return otherCampaigns.length > 0 && c ? `${quote(s.name)} (campaign ${quote(c.name)})` : quote(s.name);
    };
    findings.push({
      type: 'AUCTION_OVERLAP',
      severity,
      title:
        otherCampaigns.length > 0
          ? `Auction overlap between ${group.length} ad sets of ${otherCampaigns.length + 1} campaigns`
          : `Auction overlap between ${group.length} ad sets`,
      description:
        `Ad sets ${group.map(named).join(', ')} optimize for the same event with ${percent(overlap)} overlapping targeting. ` +
        `Their CPM rose ${percent(Math.max(0, cpmRise))} (${money(cpmBefore, own.currency)} → ${money(cpmNow, own.currency)}) ` +
        `in ${day(windows.recent.from)}–${day(windows.recent.to)}.${spendNote}` +
        (delivery
          ? ` Since ${quote(delivery.newer)} launched on ${day(delivery.launch)}, ${quote(delivery.established)} spent ${percent(delivery.rateNow)} of its budget (${percent(delivery.rateBefore)} before)${delivery.restHeld ? ', while the rest of its campaign held its delivery' : ''}.`
          : ''),
      affectedEntity: { type: 'adSet', id: weakest.id, name: weakest.name },
      evidence: {
        overlappingAdSets: others.map((s) => ({ id: s.id, name: s.name })),
        targetingOverlap: overlap,
        cpmTrend: evidenceTrend(
          dailySeries(daily, windows.rangeDays, (r) =>
            r.impressions > 0 ? ((r.spend / r.impressions) * 1000) / 1_000_000 : null,
          ),
          2,
        ),
        ...(otherCampaigns.length > 0 ? { overlappingCampaigns: otherCampaigns } : {}),
      },
      spendAtRisk: group.reduce(
        (acc, s) => acc + sumRange(s.daily, scope.window.from, scope.window.to).spend,
        0,
      ),
      magnitude: Math.max(cpmRise / th.overlapCpmRise, underspend / th.overlapUnderspend) * overlap,
      facts: {
        adSetId: weakest.id,
        adSetName: weakest.name,
        adSetCampaignId: own.id,
        adSetCampaignName: own.name,
        keepAdSetId: keep.id,
        keepAdSetName: keep.name,
        keepCampaignId: keepCampaign.id,
        keepCampaignName: keepCampaign.name,
        cpmRise,
        cpmBefore,
        cpmNow,
        underspend,
        groupSize: group.length,
        // Dated by a launch (1), or an undated group of ad sets overlapping all along (0).
        dated: mode === 'launch' ? 1 : 0,
      },
      campaignId: own.id,
      campaignName: own.name,
    });
  }
  return findings;
}

interface Symptom {
  cpmRise: number;
  cpmBefore: number;
  cpmNow: number;
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

/** CPM of one ad set, or of a pair merged, in a window (null without impressions). */
function cpmIn(rows: Map<string, import('../types').DayRow>, w: { from: string; to: string }): number | null {
  return cpmOf(sumRange(rows, w.from, w.to));
}

/**
 * Whether two overlapping ad sets show it in their auctions, as a media buyer reads it: one of them
 * was launched since the reference period, and since then the established one's own CPM rose past the
 * bar (a new ad set bidding into an audience already covered), or its delivery fell (below).
 * Two ad sets that have overlapped all along show no change to date the overlap by: a chain of broad
 * ad sets (Advantage+ audience overlaps every cell of its country) judged as one merged group mostly
 * measured noise. Null: no symptom.
 */
function pairSymptom(a: OverlapMember, b: OverlapMember, scope: OverlapScope): Symptom | null {
  const { windows, th } = scope;
  let best: Symptom | null = null;
  const since = (s: AdSetData): string => dayOf(s.createdTime) ?? '';
  for (const [established, newer] of [
    [a, b],
    [b, a],
  ] as const) {
    if (since(newer.adSet) <= windows.reference.from || since(established.adSet) > windows.reference.from)
      continue;
    const own = sumRange(established.adSet.daily, windows.reference.from, windows.reference.to);
    if (own.impressions < th.minImpressions) continue;
    const ownBefore = cpmOf(own);
    const ownNow = cpmIn(established.adSet.daily, windows.recent);
    if (!ownBefore || ownNow === null) continue;
    const rise = ownNow / ownBefore - 1;
    const delivery = atLeast(rise, th.overlapCpmRise) ? null : deliveryLost(established, newer, rise, scope);
    if (!atLeast(rise, th.overlapCpmRise) && !delivery) continue;
    if (!best || rise > best.cpmRise)
      best = { cpmRise: rise, cpmBefore: ownBefore, cpmNow: ownNow, ...(delivery ? { delivery } : {}) };
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
