// AUCTION_OVERLAP: active ad sets with the same optimization event and overlapping targeting bid in
// the same auctions; Meta enters only one of them, so they under-spend and their CPM climbs.
import { atLeast, cpmOf, dailySeries, evidenceTrend, mergeDaily, sumRange, windowDays } from '../series';
import { day, money, percent, quote } from '../format';
import { targetingOverlap } from '../targeting';
import type { AdSetData, Finding } from '../types';
import { isActive, type DetectorContext } from './context';

const eventOf = (s: AdSetData): string => `${s.optimizationGoal ?? ''}/${s.promotedEvent ?? ''}`;

/** `saturated`: ad sets whose rising CPM their own shrinking audience already explains. */
export function detectAuctionOverlap(
  ctx: DetectorContext,
  saturated: ReadonlySet<string> = new Set(),
): Finding[] {
  const { data, windows, th } = ctx;
  const candidates = data.adSets.filter((s) => {
    if (!isActive(s) || saturated.has(s.id)) return false;
    const recent = sumRange(s.daily, windows.recent.from, windows.recent.to);
    return recent.impressions >= th.minImpressions && recent.spend >= ctx.minSpend;
  });
  // Pairs above the targeting bar, grouped into connected groups of ad sets.
  const parent = new Map(candidates.map((s) => [s.id, s.id]));
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root) ?? root;
    return root;
  };
  const pairOverlap = new Map<string, number>();
  for (let i = 0; i < candidates.length; i++) {
    for (let j = i + 1; j < candidates.length; j++) {
      const a = candidates[i];
      const b = candidates[j];
      if (!a || !b || eventOf(a) !== eventOf(b)) continue;
      const overlap = targetingOverlap(a.targeting, b.targeting);
      if (!atLeast(overlap, th.overlapTargeting)) continue;
      pairOverlap.set(`${a.id}|${b.id}`, overlap);
      parent.set(find(a.id), find(b.id));
    }
  }
  const groups = new Map<string, AdSetData[]>();
  for (const s of candidates) {
    if (![...pairOverlap.keys()].some((k) => k.includes(s.id))) continue;
    const root = find(s.id);
    groups.set(root, [...(groups.get(root) ?? []), s]);
  }

  const findings: Finding[] = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const daily = mergeDaily(group.map((s) => s.daily));
    const recent = sumRange(daily, windows.recent.from, windows.recent.to);
    const reference = sumRange(daily, windows.reference.from, windows.reference.to);
    if (reference.impressions < th.minImpressions) continue;
    const cpmNow = cpmOf(recent);
    const cpmBefore = cpmOf(reference);
    if (cpmNow === null || !cpmBefore) continue;
    const cpmRise = cpmNow / cpmBefore - 1;
    // Under-spend of the group against its budgets (ad-set budgets only; CBO campaigns pool them).
    let budget = 0;
    let spend = 0;
    for (const s of group) {
      if (s.dailyBudget === null) continue;
      budget += s.dailyBudget * windowDays(windows.complete);
      spend += sumRange(s.daily, windows.complete.from, windows.complete.to).spend;
    }
    const underspend = budget > 0 ? 1 - spend / budget : 0;
    if (!atLeast(cpmRise, th.overlapCpmRise) && !atLeast(underspend, th.overlapUnderspend)) continue;
    if (cpmRise < th.overlapCpmRise / 2) continue;

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
    const others = ranked.slice(1);
    const severity =
      overlap >= 0.6 && (cpmRise >= 2 * th.overlapCpmRise || underspend >= 2 * th.overlapUnderspend)
        ? 'HIGH'
        : 'MEDIUM';
    const spendNote =
      budget > 0 ? ` Together they spent ${percent(Math.max(0, underspend))} below their budgets.` : '';
    findings.push({
      type: 'AUCTION_OVERLAP',
      severity,
      title: `Auction overlap between ${group.length} ad sets`,
      description:
        `Ad sets ${group.map((s) => quote(s.name)).join(', ')} optimize for the same event with ${percent(overlap)} overlapping targeting. ` +
        `Their CPM rose ${percent(Math.max(0, cpmRise))} (${money(cpmBefore, data.currency)} → ${money(cpmNow, data.currency)}) ` +
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
      },
      spendAtRisk: group.reduce((acc, s) => acc + sumRange(s.daily, ctx.window.from, ctx.window.to).spend, 0),
      magnitude: Math.max(cpmRise / th.overlapCpmRise, underspend / th.overlapUnderspend) * overlap,
      facts: {
        adSetId: weakest.id,
        adSetName: weakest.name,
        keepAdSetId: ranked.at(-1)?.id ?? null,
        keepAdSetName: ranked.at(-1)?.name ?? null,
        cpmRise,
        cpmBefore,
        cpmNow,
        underspend,
        groupSize: group.length,
      },
      campaignId: data.id,
      campaignName: data.name,
    });
  }
  return findings;
}
