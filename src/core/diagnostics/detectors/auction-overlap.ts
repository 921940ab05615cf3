// AUCTION_OVERLAP: active ad sets with the same optimization event and overlapping targeting bid in
// the same auctions; Meta enters only one of them, so they under-spend and their CPM climbs.
import { atLeast, cpmOf, dailySeries, evidenceTrend, mergeDaily, sumRange, windowDays } from '../series';
import { day, money, percent, quote } from '../format';
import type { AdSetData, CampaignData, Finding } from '../types';
import type { DetectorContext } from './context';
import {
  overlapCandidates,
  overlappingPairs,
  pairSymptom,
  type OverlapCandidate,
  type OverlapMember,
  type OverlapPairs,
  type OverlapScope,
  type Symptom,
} from './overlap-pairs';

export type { OverlapMember, OverlapScope } from './overlap-pairs';

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
 * only (a dated pair across campaigns explains them better than a chain through a broad ad set). The
 * candidates and their pairs are found once for both.
 */
function findOverlaps(
  members: readonly OverlapMember[],
  scope: OverlapScope,
  saturated: ReadonlySet<string>,
  acrossCampaigns = false,
  undated: ReadonlySet<string> = new Set(),
): Finding[] {
  const candidates = overlapCandidates(members, scope, saturated, acrossCampaigns);
  const pairs = overlappingPairs(candidates, scope.th.overlapTargeting, acrossCampaigns);
  const launches: Required<OverlapPairs> = { first: [], second: [], overlap: [], symptom: [] };
  pairs.first.forEach((i, k) => {
    const j = pairs.second[k] as number;
    const symptom = pairSymptom(candidates[i] as OverlapCandidate, candidates[j] as OverlapCandidate, scope);
    if (!symptom) return;
    launches.first.push(i);
    launches.second.push(j);
    launches.overlap.push(pairs.overlap[k] as number);
    launches.symptom.push(symptom);
  });
  const launched = findGroups(candidates, launches, scope, 'launch');
  const taken = new Set<string>();
  for (const f of launched) {
    taken.add(f.affectedEntity.id);
    if ('overlappingAdSets' in f.evidence) for (const s of f.evidence.overlappingAdSets) taken.add(s.id);
  }
  // The ad sets left: an ad set in no pair is in no group, so the candidate list stays whole.
  const free = (i: number): boolean => {
    const id = (candidates[i] as OverlapCandidate).adSet.id;
    return !taken.has(id) && !undated.has(id);
  };
  const rest: OverlapPairs = { first: [], second: [], overlap: [] };
  pairs.first.forEach((i, k) => {
    const j = pairs.second[k] as number;
    if (!free(i) || !free(j)) return;
    rest.first.push(i);
    rest.second.push(j);
    rest.overlap.push(pairs.overlap[k] as number);
  });
  return [...launched, ...findGroups(candidates, rest, scope, 'group')];
}

/** What a group's pairs say: the widest targeting overlap and the strongest launch symptom. */
interface GroupPairs {
  overlap: number;
  strongest: Symptom | null;
}

function findGroups(
  candidates: readonly OverlapCandidate[],
  pairs: OverlapPairs,
  scope: OverlapScope,
  mode: 'launch' | 'group',
): Finding[] {
  const { windows, th } = scope;
  const campaignOf = new Map(candidates.map((m) => [m.adSet.id, m.campaign]));
  const recentSpend = new Map(candidates.map((m) => [m.adSet.id, m.recentSpend]));
  // Pairs above the targeting bar, grouped into connected groups of ad sets (union-find by index).
  const parent = candidates.map((_, i) => i);
  const find = (i: number): number => {
    let root = i;
    while (parent[root] !== root) root = parent[root] as number;
    // Path compression: a long chain of broad ad sets is walked once, not on every pair.
    for (let at = i; at !== root;) {
      const next = parent[at] as number;
      parent[at] = root;
      at = next;
    }
    return root;
  };
  // What a media buyer checks per pair, not per chain of pairs: a broad ad set (Advantage+ audience)
  // overlaps every cell of its country, and judging the whole chain at once dilutes the one pair that
  // actually collides. A pair counts when its own auctions show it (launches: its symptom).
  const paired = new Set<number>();
  pairs.first.forEach((i, k) => {
    const j = pairs.second[k] as number;
    parent[find(i)] = find(j);
    paired.add(i);
    paired.add(j);
  });
  const groups = new Map<number, AdSetData[]>();
  candidates.forEach(({ adSet }, i) => {
    if (!paired.has(i)) return;
    const root = find(i);
    const group = groups.get(root);
    if (group) group.push(adSet);
    else groups.set(root, [adSet]);
  });
  // Each pair lies in one group (its root's), read in pair order: the first strongest symptom wins.
  const byGroup = new Map<number, GroupPairs>();
  pairs.first.forEach((i, k) => {
    const root = find(i);
    const seen = byGroup.get(root) ?? { overlap: 0, strongest: null };
    seen.overlap = Math.max(seen.overlap, pairs.overlap[k] as number);
    const symptom = pairs.symptom?.[k];
    if (symptom && (!seen.strongest || seen.strongest.cpmRise < symptom.cpmRise)) seen.strongest = symptom;
    byGroup.set(root, seen);
  });

  const findings: Finding[] = [];
  for (const [root, group] of groups) {
    if (group.length < 2) continue;
    const daily = mergeDaily(group.map((s) => s.daily));
    // Launches: the strongest pair's symptom is the group's evidence. Groups: their merged CPM.
    const read = byGroup.get(root) ?? { overlap: 0, strongest: null };
    let strongest = read.strongest;
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

    const overlap = read.overlap;
    // The entity is the ad set that loses the most auctions: the one with the lowest spend share.
    const spendOf = (s: AdSetData): number => recentSpend.get(s.id) ?? 0;
    const ranked = [...group].sort((a, b) => spendOf(a) - spendOf(b) || a.id.localeCompare(b.id));
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
