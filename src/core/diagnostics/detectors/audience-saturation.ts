// AUDIENCE_SATURATION: an ad set keeps spending but finds fewer new people: daily reach falls while
// frequency climbs (and CPM with it). Reach is not additive across days, so the signal uses daily reach
// per day and impressions ÷ daily reach as frequency, never a summed "reach".
import { atLeast, cpmOf, ctrOf, dailySeries, evidenceTrend, frequencyOf, sumRange } from '../series';
import { day, percent, quote } from '../format';
import type { Finding } from '../types';
import { adSetEntity, dayOf, isActive, type DetectorContext } from './context';

export function detectAudienceSaturation(ctx: DetectorContext): Finding[] {
  const { data, windows, th } = ctx;
  const findings: Finding[] = [];
  for (const adSet of data.adSets) {
    if (!isActive(adSet)) continue;
    const launched = dayOf(adSet.createdTime);
    if (launched !== null && launched > windows.reference.from) continue;
    const recent = sumRange(adSet.daily, windows.recent.from, windows.recent.to);
    const reference = sumRange(adSet.daily, windows.reference.from, windows.reference.to);
    if (recent.impressions < th.minImpressions || reference.impressions < th.minImpressions) continue;
    if (recent.spend < ctx.minSpend || recent.days === 0 || reference.days === 0) continue;
    const freqNow = frequencyOf(recent);
    const freqBefore = frequencyOf(reference);
    if (freqNow === null || !freqBefore) continue;
    // Per delivering day, so an ad set that started mid-baseline is not read as shrinking.
    const reachPerDayNow = recent.reach / recent.days;
    const reachPerDayBefore = reference.reach / reference.days;
    const spendPerDayNow = recent.spend / recent.days;
    const spendPerDayBefore = reference.spend / reference.days;
    if (!reachPerDayBefore || !spendPerDayBefore) continue;
    const frequencyRise = freqNow / freqBefore - 1;
    const reachDrop = 1 - reachPerDayNow / reachPerDayBefore;
    const spendHeld = spendPerDayNow / spendPerDayBefore;
    // Falling reach with falling spend is a budget change, not saturation.
    if (spendHeld < 0.7) continue;
    if (!atLeast(frequencyRise, th.saturationFrequencyRise) || !atLeast(reachDrop, th.saturationReachDrop))
      continue;
    const cpmNow = cpmOf(recent) ?? 0;
    const cpmBefore = cpmOf(reference) ?? 0;
    const cpmRise = cpmBefore ? cpmNow / cpmBefore - 1 : 0;
    // CPM rising is supporting evidence, not a requirement: the reach and frequency dynamics are the
    // signal. With CPM flat, what tells a running-dry audience from worn-out creative is CTR: people
    // reached again still click at their rate; a CTR already half-way to fatigue's bar is the creative.
    const cpmUp = atLeast(cpmRise, th.saturationCpmRise);
    const ctrNow = ctrOf(recent);
    const ctrBefore = ctrOf(reference);
    const ctrDrop = ctrNow !== null && ctrBefore ? 1 - ctrNow / ctrBefore : 0;
    if (!cpmUp && atLeast(ctrDrop, th.fatigueCtrDrop / 2)) continue;
    const newReachShare = Math.max(0, Math.min(1, reachPerDayNow / reachPerDayBefore));
    const severity =
      cpmUp && frequencyRise >= 2.5 * th.saturationFrequencyRise && reachDrop >= 2 * th.saturationReachDrop
        ? 'HIGH'
        : 'MEDIUM';
    const days = windows.rangeDays;
    findings.push({
      type: 'AUDIENCE_SATURATION',
      severity,
      title: `Audience of ${quote(adSet.name)} is saturating`,
      description:
        `In ${day(windows.recent.from)}–${day(windows.recent.to)} ${quote(adSet.name)} reached ${percent(reachDrop)} fewer people a day ` +
        `(${Math.round(reachPerDayBefore).toLocaleString('en-US')} → ${Math.round(reachPerDayNow).toLocaleString('en-US')}) ` +
        `while frequency rose ${percent(frequencyRise)} (${freqBefore.toFixed(2)} → ${freqNow.toFixed(2)})` +
        (cpmUp
          ? ` and CPM rose ${percent(cpmRise)}`
          : `, CPM ${cpmRise >= 0 ? 'up' : 'down'} only ${percent(cpmRise)}`) +
        `, with spend holding at ${percent(spendHeld)} of its earlier daily level.`,
      affectedEntity: adSetEntity(adSet),
      evidence: {
        frequencyTrend: evidenceTrend(
          dailySeries(adSet.daily, days, (r) => (r.reach > 0 ? r.impressions / r.reach : null)),
          4,
        ),
        reachTrend: evidenceTrend(
          dailySeries(adSet.daily, days, (r) => r.reach),
          0,
        ),
        newReachShare: Math.round(newReachShare * 10_000) / 10_000,
        cpmTrend: evidenceTrend(
          dailySeries(adSet.daily, days, (r) =>
            r.impressions > 0 ? ((r.spend / r.impressions) * 1000) / 1_000_000 : null,
          ),
          2,
        ),
      },
      spendAtRisk: sumRange(adSet.daily, ctx.window.from, ctx.window.to).spend,
      magnitude: Math.min(frequencyRise / th.saturationFrequencyRise, reachDrop / th.saturationReachDrop),
      facts: {
        adSetId: adSet.id,
        adSetName: adSet.name,
        frequencyRise,
        reachDrop,
        cpmRise,
        ctrDrop,
        freqNow,
        reachPerDayNow,
        reachPerDayBefore,
      },
      campaignId: data.id,
      campaignName: data.name,
    });
  }
  return findings;
}
