// AUCTION_OVERLAP: active ad sets with the same optimization event and overlapping targeting bid in
// the same auctions; Meta enters only one of them, so they under-spend and their CPM climbs.
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
): Finding[] {
  return findOverlaps(
    members.filter((m) => !excluded.has(m.adSet.id)),
    scope,
    excluded,
    true,
  );
}

/**
 * Two readings: first the pairs where an ad set was launched into an audience an established one
 * covers and its CPM rose since (each pair judged on its own); then, among the ad sets left, connected
 * groups of overlapping ad sets whose merged CPM rose or whose ad-set budgets went unspent.
 */
function findOverlaps(
  members: readonly OverlapMember[],
  scope: OverlapScope,
  saturated: ReadonlySet<string>,
  acrossCampaigns = false,
): Finding[] {
  const launched = findGroups(members, scope, saturated, acrossCampaigns, 'launch');
  const taken = new Set<string>();
  for (const f of launched) {
    taken.add(f.affectedEntity.id);
    if ('overlappingAdSets' in f.evidence) for (const s of f.evidence.overlappingAdSets) taken.add(s.id);
  }
  const rest = members.filter((m) => !taken.has(m.adSet.id));
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
      const symptom = mode === 'launch' ? pairSymptom(a, b, scope) : null;
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
    const { cpmRise, cpmBefore, cpmNow } = strongest;
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
        `in ${day(windows.recent.from)}–${day(windows.recent.to)}.${spendNote}`,
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
}

/** CPM of one ad set, or of a pair merged, in a window (null without impressions). */
function cpmIn(rows: Map<string, import('../types').DayRow>, w: { from: string; to: string }): number | null {
  return cpmOf(sumRange(rows, w.from, w.to));
}

/**
 * Whether two overlapping ad sets show it in their auctions, as a media buyer reads it: one of them
 * was launched since the reference period, and the established one's own CPM rose past the bar since
 * (a new ad set bidding into an audience already covered). Two ad sets that have overlapped all along
 * show no change to date the overlap by: a chain of broad ad sets (Advantage+ audience overlaps every
 * cell of its country) judged as one merged group mostly measured noise. Unspent budget alone is no
 * sign of overlap (a blocker or a cap does the same); it is reported beside the CPM. Null: no symptom.
 */
function pairSymptom(a: AdSetData, b: AdSetData, scope: OverlapScope): Symptom | null {
  const { windows, th } = scope;
  let best: Symptom | null = null;
  const since = (s: AdSetData): string => dayOf(s.createdTime) ?? '';
  for (const [established, newer] of [
    [a, b],
    [b, a],
  ] as const) {
    if (since(newer) <= windows.reference.from || since(established) > windows.reference.from) continue;
    const own = sumRange(established.daily, windows.reference.from, windows.reference.to);
    if (own.impressions < th.minImpressions) continue;
    const ownBefore = cpmOf(own);
    const ownNow = cpmIn(established.daily, windows.recent);
    if (!ownBefore || ownNow === null) continue;
    const rise = ownNow / ownBefore - 1;
    if (atLeast(rise, th.overlapCpmRise) && (!best || rise > best.cpmRise))
      best = { cpmRise: rise, cpmBefore: ownBefore, cpmNow: ownNow };
  }
  return best;
}
