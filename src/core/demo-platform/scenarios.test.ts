// The injected problems must be visible, and distinguishable, in the data a detector gets: a
// crude rule set over ad-set daily rows (recent 8 complete days vs days 25–60 back) must already
// classify the campaigns almost perfectly. Real detectors live in src/core/diagnostics.

import { describe, expect, it } from 'vitest';
import { addInto, DeliveryModel, emptyMetrics, type Metrics } from './delivery';
import { learningStageInfo } from './learning';
import { worldGroundTruth } from './scenarios';
import { generateWorld } from './world/generate';
import type { AdSet, Campaign } from './world/types';

function classify(model: DeliveryModel, c: Campaign): string {
  const t = model.world.todayDay;
  const recent: [number, number] = [t - 9, t - 2];
  const base: [number, number] = [t - 60, t - 25];
  const sum = (s: AdSet, [from, to]: [number, number]): Metrics => {
    const total = emptyMetrics();
    for (let d = from; d <= to; d++) {
      const row = model.adSetTotal(s, d);
      if (row) addInto(total, row);
    }
    return total;
  };
  const active = c.adSets.filter((s) => s.status === 'ACTIVE' && model.adSetTotal(s, t - 2));
  let fatigue = false;
  let saturation = false;
  let cpmUp = false;
  for (const s of active) {
    const r = sum(s, recent);
    const b = sum(s, base);
    if (!b.impressions) continue;
    const freq = r.impressions / r.reach;
    const freqUp = freq / (b.impressions / b.reach);
    const ctr = r.clicks / r.impressions / (b.clicks / b.impressions) - 1;
    const cpm = r.spend / r.impressions / (b.spend / b.impressions) - 1;
    if (freq > 2.4 && freqUp > 1.6 && ctr < -0.2) fatigue = true;
    if (freq > 2 && freqUp > 1.5 && ctr > -0.15 && cpm > 0.2) saturation = true;
    if (cpm > 0.2) cpmUp = true;
  }
  const stall = active.some((s) => {
    const info = learningStageInfo(model, s);
    return info !== undefined && info.status !== 'SUCCESS' && t - s.lastSigEditDay >= 7;
  });
  const overlap = active.some((a) =>
    active.some((b) => {
      if (a === b || a.optimizationGoal !== b.optimizationGoal) return false;
      const [ta, tb] = [a.targeting, b.targeting];
      const sameGeo = ta.geo_locations.countries.some((x) => tb.geo_locations.countries.includes(x));
      const ages = Math.min(ta.age_max, tb.age_max) - Math.max(ta.age_min, tb.age_min) > 5;
      const genders = !ta.genders || !tb.genders || ta.genders[0] === tb.genders[0];
      return sameGeo && ages && genders;
    }),
  );
  const r = emptyMetrics();
  const b = emptyMetrics();
  for (const s of c.adSets) {
    addInto(r, sum(s, recent));
    addInto(b, sum(s, base));
  }
  const budget = c.dailyBudgetMinor ?? active.reduce((x, s) => x + (s.dailyBudgetMinor ?? 0), 0);
  const pace = r.spend / 8 / budget;
  const cpa = r.spend / r.purchases / (b.spend / b.purchases) - 1;
  const cpm = r.spend / r.impressions / (b.spend / b.impressions) - 1;
  const ctr = r.clicks / r.impressions / (b.clicks / b.impressions) - 1;
  if (stall) return 'LEARNING_PHASE_STALL';
  if (fatigue) return 'CREATIVE_FATIGUE';
  if (saturation) return 'AUDIENCE_SATURATION';
  if (overlap && cpmUp) return 'AUCTION_OVERLAP';
  if (pace < 0.62 || pace > 1.3) return 'PACING_ISSUE';
  if (cpa > 0.3 && Math.abs(cpm) < 0.15 && ctr > -0.15) return 'CPA_DEGRADATION';
  return 'HEALTHY';
}

describe('scenario signals', () => {
  it.each([21, 22])('are separable by simple rules (seed %i)', (seed) => {
    const world = generateWorld({ seed, today: '2026-11-22' });
    const model = new DeliveryModel(world);
    const campaigns = new Map(world.accounts.flatMap((a) => a.campaigns).map((c) => [c.id, c]));
    const truth = worldGroundTruth(world);
    const wrong = truth.filter(
      (e) => classify(model, campaigns.get(e.platformCampaignId) as Campaign) !== e.category,
    );
    expect(wrong.length / truth.length).toBeLessThan(0.02);
  });
});
