// CREATIVE_FATIGUE: an ad's click-through rate falls while the same people see it more often, or its
// cost per result reaches Meta's own "creative fatigue" mark (≥ 2× its own past level).
import {
  addTotals,
  atLeast,
  cpmOf,
  cprOf,
  ctrOf,
  dailySeries,
  emptyTotals,
  evidenceTrend,
  frequencyOf,
  shortfallZ,
  sumRange,
} from '../series';
import { day, money, percent, quote } from '../format';
import type { AdData, DayRow, Finding } from '../types';
import { dayOf, isJudgeable, type DetectorContext } from './context';

interface FatiguedAd {
  ad: AdData;
  /** First day of the ad's early-life reference (a young ad), or null (the baseline before the range). */
  earlyLife: string | null;
  ctrDrop: number;
  frequencyRise: number;
  ctrBefore: number;
  ctrNow: number;
  freqBefore: number;
  freqNow: number;
  cprNow: number | null;
  cprBefore: number | null;
  cprMultiple: number | null;
  recentImpressions: number;
  recentSpend: number;
}

/**
 * The ad's own reference: the baseline before the range for an ad that ran then, else its own first
 * days of delivery (its early life), so an ad of any age is compared with itself, never skipped.
 */
function referenceOf(
  ctx: DetectorContext,
  ad: AdData,
): { from: string; to: string; earlyLife: boolean } | null {
  const { windows, th } = ctx;
  const launched = dayOf(ad.createdTime);
  if (launched === null || launched <= windows.reference.from)
    return { ...windows.reference, earlyLife: false };
  const days = [...ad.daily.values()]
    .filter((r) => r.impressions > 0 && r.date >= launched)
    .map((r) => r.date)
    .sort();
  const first = days[0];
  const last = days[th.recentDays - 1];
  // Early life and the recent window must not overlap: an ad needs two windows of delivery.
  if (!first || !last || last >= windows.recent.from) return null;
  return { from: first, to: last, earlyLife: true };
}

/**
 * Variance-to-mean ratio of daily clicks around what the reference CTR predicts, over the reference
 * days (≥ 1): clicks (all) come in bursts (one person clicking several times) and CTR wanders day to
 * day, so a plain Poisson test on them finds "decay" in ordinary weeks.
 */
function clickDispersion(daily: Map<string, DayRow>, w: { from: string; to: string }, ctr: number): number {
  let sum = 0;
  let n = 0;
  for (const row of daily.values()) {
    if (row.date < w.from || row.date > w.to) continue;
    const expected = row.impressions * ctr;
    if (expected <= 0) continue;
    sum += (row.clicks - expected) ** 2 / expected;
    n += 1;
  }
  return n > 1 ? Math.max(1, sum / (n - 1)) : 1;
}

/** The ad set's own CTR (all its ads) down as far, beyond 3σ: not one ad's drift inside a steady set. */
function adSetDecayed(ctx: DetectorContext, adSetId: string): boolean {
  const { windows, th } = ctx;
  const adSet = ctx.data.adSets.find((s) => s.id === adSetId);
  if (!adSet) return false;
  const recent = sumRange(adSet.daily, windows.recent.from, windows.recent.to);
  const before = ctrOf(sumRange(adSet.daily, windows.reference.from, windows.reference.to));
  const now = ctrOf(recent);
  if (!before || now === null) return false;
  return (
    atLeast(1 - now / before, th.fatigueDecayCtrDrop) &&
    shortfallZ(recent.clicks, recent.impressions * before) /
      Math.sqrt(clickDispersion(adSet.daily, windows.reference, before)) >=
      th.cpaMinZ
  );
}

/**
 * Whether the rest of the campaign (its other ad sets) saw its cost per result rise half-way to Meta's
 * fatigue mark too: then an ad's doubled cost is the campaign's conversion rate falling (offer,
 * landing page: CPA degradation), not this creative wearing out.
 */
function restOfCampaignCostRose(ctx: DetectorContext, adSetId: string): boolean {
  const { windows, th } = ctx;
  const rest = ctx.data.adSets.filter((s) => s.id !== adSetId);
  let now = emptyTotals();
  let before = emptyTotals();
  for (const s of rest) {
    now = addTotals(now, sumRange(s.daily, windows.recentCpr.from, windows.recentCpr.to));
    before = addTotals(before, sumRange(s.daily, windows.referenceCpr.from, windows.referenceCpr.to));
  }
  if (now.conversions < th.minConversions || before.conversions < th.minConversions) return false;
  const multiple = (cprOf(now) ?? 0) / (cprOf(before) || 1);
  return atLeast(multiple - 1, (th.fatigueCprMultiple - 1) / 2);
}

/**
 * What audience saturation hands over: an established ad set whose daily frequency rose and daily reach
 * fell past saturation's bars with spend holding and CPM flat, while its CTR fell half-way to fatigue's
 * bar. The same people see its ads more often and click less: saturation leaves it to fatigue (an
 * audience running dry with CPM flat keeps its CTR), so fatigue must take it.
 */
function handedOver(ctx: DetectorContext, adSetId: string): boolean {
  const { windows, th } = ctx;
  const adSet = ctx.data.adSets.find((s) => s.id === adSetId);
  if (!adSet) return false;
  const recent = sumRange(adSet.daily, windows.recent.from, windows.recent.to);
  const before = sumRange(adSet.daily, windows.reference.from, windows.reference.to);
  if (recent.days === 0 || before.days === 0 || !before.reach || !before.spend) return false;
  const frequencyRise = (frequencyOf(recent) ?? 0) / (frequencyOf(before) || 1) - 1;
  const reachDrop = 1 - recent.reach / recent.days / (before.reach / before.days);
  const spendHeld = recent.spend / recent.days / (before.spend / before.days);
  const cpmRise = (cpmOf(recent) ?? 0) / (cpmOf(before) || 1) - 1;
  const ctrDrop = 1 - (ctrOf(recent) ?? 0) / (ctrOf(before) || 1);
  return (
    atLeast(frequencyRise, th.saturationFrequencyRise) &&
    atLeast(reachDrop, th.saturationReachDrop) &&
    spendHeld >= 0.7 &&
    !atLeast(cpmRise, th.saturationCpmRise) &&
    atLeast(ctrDrop, th.fatigueCtrDrop / 2)
  );
}

/** One ad's verdict, or null when it is not fatigued (or cannot be judged). */
function judgeAd(ctx: DetectorContext, ad: AdData): FatiguedAd | null {
  const { windows, th } = ctx;
  const ref = referenceOf(ctx, ad);
  if (!ref) return null;
  const recent = sumRange(ad.daily, windows.recent.from, windows.recent.to);
  const reference = sumRange(ad.daily, ref.from, ref.to);
  if (recent.impressions < th.minImpressions || reference.impressions < th.minImpressions) return null;
  if (recent.spend < ctx.minSpend) return null;
  const ctrNow = ctrOf(recent);
  const ctrBefore = ctrOf(reference);
  const freqNow = frequencyOf(recent);
  const freqBefore = frequencyOf(reference);
  if (ctrNow === null || !ctrBefore || freqNow === null || !freqBefore) return null;
  const ctrDrop = 1 - ctrNow / ctrBefore;
  const frequencyRise = freqNow / freqBefore - 1;

  const recentCpr = sumRange(ad.daily, windows.recentCpr.from, windows.recentCpr.to);
  const referenceCpr = ref.earlyLife
    ? reference
    : sumRange(ad.daily, windows.referenceCpr.from, windows.referenceCpr.to);
  const cprNow = recentCpr.conversions >= th.minConversions ? cprOf(recentCpr) : null;
  const cprBefore = referenceCpr.conversions >= th.minConversions ? cprOf(referenceCpr) : null;
  const judged = isJudgeable(ctx.data.resultType);
  const cprMultiple = judged && cprNow !== null && cprBefore ? cprNow / cprBefore : null;

  // CTR down with exposure growing; or CTR halved, whatever the frequency: a creative that lost half
  // its clicks has worn out for the people it still reaches.
  const byCtr =
    atLeast(ctrDrop, th.fatigueCtrDrop) &&
    (atLeast(frequencyRise, th.fatigueFrequencyRise) || atLeast(ctrDrop, 2 * th.fatigueCtrDrop));
  // An established ad (it ran before the range) whose CTR decayed a fifth below its own weeks before,
  // far beyond click noise: wear a buyer acts on even when daily frequency is flat, since daily
  // frequency does not show the same people meeting the ad again across days. A young ad's first days
  // are its novelty peak, so it still needs the frequency sign.
  const byDecay =
    !ref.earlyLife &&
    atLeast(ctrDrop, th.fatigueDecayCtrDrop) &&
    shortfallZ(recent.clicks, recent.impressions * ctrBefore) /
      Math.sqrt(clickDispersion(ad.daily, ref, ctrBefore)) >=
      th.cpaMinZ &&
    adSetDecayed(ctx, ad.adSetId);
  // Saturation's hand-over: its ad set seen more often by fewer people, CPM flat, CTR falling; the ad
  // itself down half-way to the bar with its frequency up as far, beyond 3σ of its click noise.
  const byWear =
    !ref.earlyLife &&
    atLeast(ctrDrop, th.fatigueCtrDrop / 2) &&
    atLeast(frequencyRise, th.saturationFrequencyRise) &&
    shortfallZ(recent.clicks, recent.impressions * ctrBefore) /
      Math.sqrt(clickDispersion(ad.daily, ref, ctrBefore)) >=
      th.cpaMinZ &&
    handedOver(ctx, ad.adSetId);
  // A cost rise that higher auction prices explain is the audience's problem, not the creative's.
  const cpmRise = (cpmOf(recent) ?? 0) / (cpmOf(reference) || 1) - 1;
  const byCost =
    cpmRise < th.saturationCpmRise &&
    cprMultiple !== null &&
    atLeast(cprMultiple, th.fatigueCprMultiple) &&
    atLeast(ctrDrop, th.fatigueCtrDrop / 2) &&
    !restOfCampaignCostRose(ctx, ad.adSetId);
  if (!byCtr && !byDecay && !byWear && !byCost) return null;
  // The drop in clicks must be beyond Poisson noise for the impressions the ad had.
  if (shortfallZ(recent.clicks, recent.impressions * ctrBefore) < th.minZ) return null;
  return {
    ad,
    earlyLife: ref.earlyLife ? ref.from : null,
    ctrDrop,
    frequencyRise,
    ctrBefore,
    ctrNow,
    freqBefore,
    freqNow,
    cprNow,
    cprBefore,
    cprMultiple,
    recentImpressions: recent.impressions,
    recentSpend: recent.spend,
  };
}

/** One issue per ad set, led by its most fatigued ad and naming the others. */
export function detectCreativeFatigue(ctx: DetectorContext): Finding[] {
  const { data, windows, th } = ctx;
  const byAdSet = new Map<string, FatiguedAd[]>();
  for (const ad of data.ads) {
    const verdict = judgeAd(ctx, ad);
    if (verdict) byAdSet.set(ad.adSetId, [...(byAdSet.get(ad.adSetId) ?? []), verdict]);
  }
  const findings: Finding[] = [];
  for (const adSet of data.adSets) {
    const ads = byAdSet.get(adSet.id);
    if (!ads) continue;
    ads.sort((a, b) => b.ctrDrop - a.ctrDrop || a.ad.id.localeCompare(b.ad.id));
    const lead = ads[0] as FatiguedAd;
    const others = ads.slice(1);
    const severity =
      lead.ctrDrop >= th.fatigueCtrDrop * 1.8 ||
      (lead.cprMultiple !== null && lead.cprMultiple >= th.fatigueCprMultiple)
        ? 'HIGH'
        : 'MEDIUM';
    const days = windows.rangeDays;
    const costPart =
      lead.cprMultiple !== null && lead.cprNow !== null && lead.cprBefore
        ? ` Its cost per result went from ${money(lead.cprBefore, data.currency)} to ${money(lead.cprNow, data.currency)} (${lead.cprMultiple.toFixed(1)}×).`
        : '';
    const othersPart =
      others.length > 0
        ? ` ${others.length === 1 ? 'Ad' : 'Ads'} ${others.map((o) => `${quote(o.ad.name)} (CTR −${percent(o.ctrDrop)})`).join(', ')} in the same ad set ${others.length === 1 ? 'shows' : 'show'} the same wear.`
        : '';
    const title =
      others.length === 0
        ? `Creative fatigue on ad ${quote(lead.ad.name)}`
        : `Creative fatigue on ${ads.length} ads in ${quote(adSet.name)}`;
    findings.push({
      type: 'CREATIVE_FATIGUE',
      severity,
      title,
      description:
        `CTR of ad ${quote(lead.ad.name)} in ad set ${quote(adSet.name)} fell ${percent(lead.ctrDrop)} ` +
        `(${(lead.ctrBefore * 100).toFixed(2)}% → ${(lead.ctrNow * 100).toFixed(2)}%) in ${day(windows.recent.from)}–${day(windows.recent.to)} ` +
        `against ${lead.earlyLife ? `its first ${th.recentDays} days of delivery (from ${day(lead.earlyLife)})` : `the ${th.baselineDays} days before the range`}, while daily frequency rose ${percent(Math.max(0, lead.frequencyRise))} ` +
        `(${lead.freqBefore.toFixed(2)} → ${lead.freqNow.toFixed(2)}).${costPart}${othersPart}`,
      affectedEntity: { type: 'adSet', id: adSet.id, name: adSet.name },
      evidence: {
        frequencyTrend: evidenceTrend(
          dailySeries(lead.ad.daily, days, (r) => (r.reach > 0 ? r.impressions / r.reach : null)),
          4,
        ),
        ctrTrend: evidenceTrend(
          dailySeries(lead.ad.daily, days, (r) =>
            r.impressions > 0 ? (r.clicks / r.impressions) * 100 : null,
          ),
          4,
        ),
        ad: { id: lead.ad.id, name: lead.ad.name },
        ...(others.length > 0 ? { otherAds: others.map((o) => ({ id: o.ad.id, name: o.ad.name })) } : {}),
        ctrChange: Math.round(-lead.ctrDrop * 10_000) / 10_000,
        frequencyChange: Math.round(lead.frequencyRise * 10_000) / 10_000,
      },
      spendAtRisk: ads.reduce(
        (acc, a) => acc + sumRange(a.ad.daily, ctx.window.from, ctx.window.to).spend,
        0,
      ),
      magnitude: lead.ctrDrop / th.fatigueCtrDrop,
      facts: {
        adId: lead.ad.id,
        adName: lead.ad.name,
        adNames: ads.map((a) => quote(a.ad.name)).join(', '),
        adCount: ads.length,
        adSetId: adSet.id,
        adSetName: adSet.name,
        ctrDrop: lead.ctrDrop,
        ctrBefore: lead.ctrBefore,
        ctrNow: lead.ctrNow,
        clicksLost: ads.reduce((acc, a) => acc + (a.ctrBefore - a.ctrNow) * a.recentImpressions, 0),
        recentSpend: ads.reduce((acc, a) => acc + a.recentSpend, 0),
        cprNow: lead.cprNow,
        cprBefore: lead.cprBefore,
        since: lead.earlyLife ? `since its first days (${day(lead.earlyLife)})` : 'against the weeks before',
      },
      campaignId: data.id,
      campaignName: data.name,
    });
  }
  return findings;
}
