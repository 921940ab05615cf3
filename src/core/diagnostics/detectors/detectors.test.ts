// Each detector on constructed series at, just below and just above its threshold (MEDIUM profile).
import { describe, expect, it } from 'vitest';
import { addDays } from '../../clock';
import {
  buildCampaign,
  step,
  type AdSetSpec,
  type CampaignSpec,
} from '../../../test-support/diagnostics-fixtures';
import { DEFAULT_THRESHOLDS } from '../thresholds';
import type { CampaignData } from '../types';
import {
  detectAudienceSaturation,
  detectAuctionOverlap,
  detectCpaDegradation,
  detectCreativeFatigue,
  detectLearningPhaseStall,
  detectorContext,
  detectPacingIssue,
  runDetectors,
} from './index';

const TODAY = '2026-03-01';
const FROM = addDays(TODAY, -13);

function campaign(adSets: AdSetSpec[], extra: Partial<CampaignSpec> = {}): CampaignData {
  return buildCampaign({ name: 'Spring Sale', today: TODAY, days: 60, adSets, ...extra });
}

function ctxOf(data: CampaignData) {
  return detectorContext(data, { from: FROM, to: TODAY, loadFrom: addDays(TODAY, -59) }, DEFAULT_THRESHOLDS);
}

const country = (c: string) => ({ geo_locations: { countries: [c] }, age_min: 18, age_max: 65 });

describe('a healthy constructed campaign', () => {
  it('produces no finding from any detector', () => {
    const data = campaign([
      { name: 'US broad', targeting: country('US'), ads: [{ name: 'A' }, { name: 'B' }, { name: 'C' }] },
      { name: 'CA broad', targeting: country('CA'), ads: [{ name: 'D' }, { name: 'E' }, { name: 'F' }] },
    ]);
    expect(runDetectors(ctxOf(data))).toEqual([]);
  });
});

describe('CREATIVE_FATIGUE (CTR drop 25% with frequency up 10%)', () => {
  const withCtr = (after: number) =>
    campaign([
      {
        name: 'US broad',
        targeting: country('US'),
        ads: [
          { name: 'Video hook', ctr: step(0.02, after, 7), frequency: step(1.25, 1.6, 7) },
          { name: 'Carousel', ctr: () => 0.02 },
        ],
      },
    ]);
  it('flags a drop exactly at the threshold', () => {
    const found = detectCreativeFatigue(ctxOf(withCtr(0.015)));
    expect(found).toHaveLength(1);
    expect(found[0]?.affectedEntity).toMatchObject({ type: 'adSet', name: 'US broad' });
    expect(found[0]?.description).toContain('Video hook');
    const evidence = found[0]?.evidence as { ctrTrend: number[]; frequencyTrend: number[] };
    expect(evidence.ctrTrend).toHaveLength(14);
    expect(evidence.ctrTrend.at(-1)).toBe(1.5);
    expect(evidence.frequencyTrend.at(0)).toBe(1.25);
  });
  it('flags a drop just above it', () =>
    expect(detectCreativeFatigue(ctxOf(withCtr(0.0148)))).toHaveLength(1));
  it('does not flag a drop just below it', () =>
    expect(detectCreativeFatigue(ctxOf(withCtr(0.0152)))).toEqual([]));
  it('does not flag one ad down 40% without rising frequency while its ad set holds', () => {
    const data = campaign([
      {
        name: 'US',
        ads: [
          { name: 'Static', ctr: step(0.02, 0.012, 7) },
          { name: 'Video', impressions: () => 20_000, ctr: () => 0.02 },
        ],
      },
    ]);
    expect(detectCreativeFatigue(ctxOf(data))).toEqual([]);
  });
  // A buyer reads a fifth of the clicks gone from an established ad set's ads as wear, even with
  // daily frequency flat (the old rule wanted frequency up 10% below a halved CTR).
  it('flags established ads whose ad set lost 22% of its CTR with frequency flat', () => {
    const data = campaign([
      {
        name: 'US',
        ads: [
          { name: 'Static', ctr: step(0.02, 0.0156, 7) },
          { name: 'Video', ctr: step(0.02, 0.0156, 7) },
        ],
      },
    ]);
    expect(detectCreativeFatigue(ctxOf(data))).toHaveLength(1);
  });
  it('does not flag an ad set down 15% with frequency flat', () => {
    const data = campaign([{ name: 'US', ads: [{ name: 'Static', ctr: step(0.02, 0.017, 7) }] }]);
    expect(detectCreativeFatigue(ctxOf(data))).toEqual([]);
  });
  it('flags a CTR halved whatever the frequency', () => {
    const data = campaign([{ name: 'US', ads: [{ name: 'Static', ctr: step(0.02, 0.0098, 7) }] }]);
    expect(detectCreativeFatigue(ctxOf(data))).toHaveLength(1);
  });
  it('ignores an ad with too few impressions', () => {
    const data = campaign([
      {
        name: 'US',
        ads: [
          { name: 'Tiny', impressions: () => 400, ctr: step(0.02, 0.01, 7), frequency: step(1.25, 1.6, 7) },
        ],
      },
    ]);
    expect(detectCreativeFatigue(ctxOf(data))).toEqual([]);
  });
});

describe('LEARNING_PHASE_STALL (still learning 7 days after the last edit, < 50 results)', () => {
  const learning = (status: string, editDaysAgo: number, conversions = 20) =>
    campaign([{ name: 'Retargeting', learning: { status, conversions, editDaysAgo }, ads: [{ name: 'A' }] }]);
  it('flags 7 days in learning (at the threshold)', () => {
    const found = detectLearningPhaseStall(ctxOf(learning('LEARNING', 7)));
    expect(found).toHaveLength(1);
    expect(found[0]?.evidence).toMatchObject({
      daysInLearning: 7,
      conversionsInLearning: 20,
      requiredConversions: 50,
    });
  });
  it('flags 8 days (above)', () =>
    expect(detectLearningPhaseStall(ctxOf(learning('LEARNING', 8)))).toHaveLength(1));
  it('does not flag 6 days (below)', () =>
    expect(detectLearningPhaseStall(ctxOf(learning('LEARNING', 6)))).toEqual([]));
  it('flags 49 results but not an ad set on pace to exit (≥ 50 in Meta’s count and in the last 7 days)', () => {
    expect(detectLearningPhaseStall(ctxOf(learning('LEARNING', 9, 49)))).toHaveLength(1);
    const onPace = campaign([
      {
        name: 'Retargeting',
        learning: { status: 'LEARNING', conversions: 50, editDaysAgo: 9 },
        ads: [{ name: 'A', impressions: () => 67_000 }],
      },
    ]);
    expect(detectLearningPhaseStall(ctxOf(onPace))).toEqual([]);
  });
  // ~4 a day since the edit: under the 50 spend minimum, which the old rule applied to the stall too.
  const tiny = (status: string, editDaysAgo: number, impressions = 400) =>
    campaign([
      {
        name: 'New test',
        dailyBudget: 4,
        learning: { status, conversions: 4, editDaysAgo },
        ads: [{ name: 'A', impressions: () => impressions }],
      },
    ]);
  it('flags a stall however little the ad set could spend, but not one that spent nothing', () => {
    expect(detectLearningPhaseStall(ctxOf(tiny('LEARNING', 9)))).toHaveLength(1);
    expect(detectLearningPhaseStall(ctxOf(tiny('LEARNING', 9, 0)))).toEqual([]);
  });
  it('still wants the spend minimum for "learning limited" inside the first week', () =>
    expect(detectLearningPhaseStall(ctxOf(tiny('FAIL', 5)))).toEqual([]));
  it('judges "learning limited" (FAIL) only after the 3-day grace period', () => {
    expect(detectLearningPhaseStall(ctxOf(learning('FAIL', 3)))).toEqual([]);
    const found = detectLearningPhaseStall(ctxOf(learning('FAIL', 4)));
    expect(found).toHaveLength(1);
    expect(found[0]?.severity).toBe('HIGH');
  });
  it('does not flag an ad set that exited learning', () => {
    expect(detectLearningPhaseStall(ctxOf(learning('SUCCESS', 30)))).toEqual([]);
  });
});

describe('AUCTION_OVERLAP (same event, ≥30% targeting overlap, CPM up 15%)', () => {
  const overlapping = (cpmAfter: number, second = country('US')) =>
    campaign([
      {
        name: 'US broad',
        targeting: country('US'),
        dailyBudget: null,
        ads: [{ name: 'A', cpm: step(10, cpmAfter, 7) }],
      },
      {
        name: 'US copy',
        targeting: second,
        dailyBudget: null,
        ads: [{ name: 'B', cpm: step(10, cpmAfter, 7) }],
      },
    ]);
  it('flags a CPM rise at the threshold', () => {
    const found = detectAuctionOverlap(ctxOf(overlapping(11.5)));
    expect(found).toHaveLength(1);
    expect(found[0]?.evidence).toMatchObject({
      targetingOverlap: 1,
      overlappingAdSets: [{ name: expect.any(String) }],
    });
  });
  it('flags a rise just above it', () =>
    expect(detectAuctionOverlap(ctxOf(overlapping(11.6)))).toHaveLength(1));
  it('does not flag a rise just below it', () =>
    expect(detectAuctionOverlap(ctxOf(overlapping(11.4)))).toEqual([]));
  it('does not flag ad sets in different countries', () => {
    expect(detectAuctionOverlap(ctxOf(overlapping(14, country('DE'))))).toEqual([]);
  });
  it('reads a new ad set launched into a covered audience pair by pair, inside a chain of broad overlaps', () => {
    // A broad ad set overlaps both age cells; merged, the chain's CPM barely moves. The young cell's own
    // CPM rose 25% since an ad set copying its audience was launched 10 days ago: that pair collides.
    const young = { geo_locations: { countries: ['US'] }, age_min: 18, age_max: 30 };
    const old = { geo_locations: { countries: ['US'] }, age_min: 31, age_max: 65 };
    const data = campaign([
      {
        name: 'Broad',
        targeting: country('US'),
        dailyBudget: null,
        ads: [{ name: 'A', impressions: () => 40_000, cpm: () => 10 }],
      },
      { name: 'Young', targeting: young, dailyBudget: null, ads: [{ name: 'B', cpm: step(10, 12.5, 7) }] },
      { name: 'Old', targeting: old, dailyBudget: null, ads: [{ name: 'C', cpm: () => 10 }] },
      {
        name: 'Young copy',
        targeting: young,
        dailyBudget: null,
        createdDaysAgo: 10,
        ads: [{ name: 'D', createdDaysAgo: 10, impressions: () => 2_000, cpm: () => 10 }],
      },
    ]);
    const found = detectAuctionOverlap(ctxOf(data));
    expect(found).toHaveLength(1);
    const names = [
      found[0]?.affectedEntity.name,
      ...((found[0]?.evidence as { overlappingAdSets: { name: string }[] }).overlappingAdSets ?? []).map(
        (s) => s.name,
      ),
    ].sort();
    expect(names).toEqual(['Young', 'Young copy']);
    expect(found[0]?.facts.cpmRise).toBeCloseTo(0.25, 2);
  });
  describe('read from delivery when CPM barely moves', () => {
    // ABO: each ad set has a 120 budget. "Young copy" was launched 10 days ago into Young's audience;
    // since then Young spends 60 a day instead of 110 at an unchanged CPM, and the copy spends 60.
    const young = { geo_locations: { countries: ['US'] }, age_min: 18, age_max: 30 };
    const old = { geo_locations: { countries: ['US'] }, age_min: 31, age_max: 65 };
    const launchedInto = (oldImpressions: (d: number) => number) =>
      campaign([
        { name: 'Young', targeting: young, ads: [{ name: 'A', impressions: step(11_000, 6_000, 10) }] },
        { name: 'Old', targeting: old, ads: [{ name: 'B', impressions: oldImpressions }] },
        {
          name: 'Young copy',
          targeting: young,
          createdDaysAgo: 10,
          ads: [{ name: 'C', createdDaysAgo: 10, impressions: () => 6_000 }],
        },
      ]);
    it('flags the pair when the established ad set stopped spending its budget since the launch', () => {
      const findings = runDetectors(ctxOf(launchedInto(() => 11_000)));
      const overlap = findings.filter((f) => f.type === 'AUCTION_OVERLAP');
      expect(overlap).toHaveLength(1);
      expect(overlap[0]?.description).toContain('launched on');
      // Its unspent budget is the overlap's symptom, not a second (pacing) problem.
      expect(findings.filter((f) => f.type === 'PACING_ISSUE')).toEqual([]);
    });
    it('leaves a campaign-wide fall in delivery to pacing', () => {
      const findings = runDetectors(ctxOf(launchedInto(step(11_000, 6_000, 10))));
      expect(findings.filter((f) => f.type === 'AUCTION_OVERLAP')).toEqual([]);
      expect(findings.filter((f) => f.type === 'PACING_ISSUE').length).toBeGreaterThan(0);
    });
  });
  it('measures partial overlap: disjoint age bands never meet', () => {
    const young = { geo_locations: { countries: ['US'] }, age_min: 18, age_max: 30 };
    const old = { geo_locations: { countries: ['US'] }, age_min: 31, age_max: 65 };
    const data = campaign([
      { name: 'Young', targeting: young, ads: [{ name: 'A', cpm: step(10, 14, 7) }] },
      { name: 'Old', targeting: old, ads: [{ name: 'B', cpm: step(10, 14, 7) }] },
    ]);
    expect(detectAuctionOverlap(ctxOf(data))).toEqual([]);
  });
});

describe('PACING_ISSUE (weekly average ≤ 75% or ≥ 120% of the daily budget)', () => {
  // One ad of 10,000 impressions a day at CPM 10 spends 100 a day; the budget decides the rate.
  const pacing = (budget: number) =>
    campaign([{ name: 'Prospecting', dailyBudget: budget, ads: [{ name: 'A', impressions: () => 10_000 }] }]);
  it('flags UNDER at 60%', () => {
    const found = detectPacingIssue(ctxOf(pacing(100 / 0.6)));
    expect(found).toHaveLength(1);
    expect(found[0]?.evidence).toMatchObject({ direction: 'UNDER', avgDailySpend: 100, pacingRate: 0.6 });
  });
  it('flags UNDER at 75% and below, not at 76%', () => {
    expect(detectPacingIssue(ctxOf(pacing(100 / 0.74)))).toHaveLength(1);
    expect(detectPacingIssue(ctxOf(pacing(100 / 0.76)))).toEqual([]);
  });
  it('flags OVER at 120% and above, not at 119%', () => {
    const found = detectPacingIssue(ctxOf(pacing(100 / 1.2)));
    expect(found[0]?.evidence).toMatchObject({ direction: 'OVER', pacingRate: 1.2 });
    expect(detectPacingIssue(ctxOf(pacing(100 / 1.21)))).toHaveLength(1);
    expect(detectPacingIssue(ctxOf(pacing(100 / 1.19)))).toEqual([]);
  });
  it('judges a campaign budget (CBO) on the campaign, not its ad sets', () => {
    const data = campaign(
      [{ name: 'Prospecting', dailyBudget: null, ads: [{ name: 'A', impressions: () => 10_000 }] }],
      { dailyBudget: 250 },
    );
    const found = detectPacingIssue(ctxOf(data));
    expect(found[0]?.affectedEntity.type).toBe('campaign');
  });
});

describe('CPA_DEGRADATION (recent cost per result ≥ 25% above baseline, last 2 days left out)', () => {
  // 100,000 impressions, CTR 2%, CVR 5%: 100 results a day at CPM 10 = 10 per result (enough volume
  // for a 25% rise to be beyond chance).
  const cpa = (cpmAfter: number, extra: Partial<CampaignSpec> = {}) =>
    campaign(
      [
        {
          name: 'Purchases',
          dailyBudget: 1000,
          ads: [{ name: 'A', impressions: () => 100_000, ctr: () => 0.02, cpm: step(10, cpmAfter, 9) }],
        },
      ],
      extra,
    );
  it('flags a rise at 25%', () => {
    const found = detectCpaDegradation(ctxOf(cpa(12.5)));
    expect(found).toHaveLength(1);
    expect(found[0]?.evidence).toMatchObject({ targetCpa: 10, actualCpa: 12.5, targetSource: 'baseline' });
  });
  it('flags 26%, not 24%', () => {
    expect(detectCpaDegradation(ctxOf(cpa(12.6)))).toHaveLength(1);
    expect(detectCpaDegradation(ctxOf(cpa(12.4)))).toEqual([]);
  });
  it('ignores a rise confined to the last 2 days (late conversions)', () => {
    const data = campaign([
      {
        name: 'Purchases',
        dailyBudget: 1000,
        ads: [{ name: 'A', impressions: () => 100_000, ctr: () => 0.02, cvr: step(0.05, 0.02, 2) }],
      },
    ]);
    expect(detectCpaDegradation(ctxOf(data))).toEqual([]);
  });
  it('compares like for like: a new ad set at five times the price is not the campaign degrading', () => {
    // The established ad set holds 10 a result; one launched 12 days ago pays 50 a result and takes a
    // third of the spend, which would read as a 36% rise of the campaign's cost per result.
    const data = campaign([
      {
        name: 'Purchases',
        dailyBudget: 1000,
        ads: [{ name: 'A', impressions: () => 100_000, ctr: () => 0.02 }],
      },
      {
        name: 'New test',
        dailyBudget: 500,
        createdDaysAgo: 12,
        ads: [{ name: 'B', createdDaysAgo: 12, impressions: () => 50_000, ctr: () => 0.02, cvr: () => 0.01 }],
      },
    ]);
    expect(detectCpaDegradation(ctxOf(data))).toEqual([]);
  });
  it('uses the analyst target when one is set', () => {
    const found = detectCpaDegradation(ctxOf(cpa(10, { targetCpa: 8 })));
    expect(found[0]?.evidence).toMatchObject({ targetCpa: 8, actualCpa: 10, targetSource: 'analyst_target' });
    expect(detectCpaDegradation(ctxOf(cpa(10, { targetCpa: 8.1 })))).toEqual([]);
  });
  it('does not take a small-count rise for a change (beyond-chance test)', () => {
    const data = campaign([
      {
        name: 'Small',
        dailyBudget: 40,
        ads: [{ name: 'A', impressions: () => 4000, ctr: () => 0.02, cpm: step(10, 13, 9) }],
      },
    ]);
    expect(detectCpaDegradation(ctxOf(data))).toEqual([]);
  });
  // ~9 results a day: a 50% rise leaves a week short of the 3σ bar; the 11 days since it began pass it
  // (the old rule read the last week only and never flagged this).
  const lowVolume = (daysAgo: number) =>
    campaign([
      {
        name: 'Leads',
        dailyBudget: 100,
        ads: [{ name: 'A', impressions: () => 9000, ctr: () => 0.02, cvr: step(0.05, 0.033, daysAgo) }],
      },
    ]);
  it('pools the days since a low-volume campaign’s cost per result stepped up', () => {
    const found = detectCpaDegradation(ctxOf(lowVolume(13)));
    expect(found).toHaveLength(1);
    expect(found[0]?.description).toContain('in Feb 17–');
  });
  it('does not flag the same rise with only a week of evidence', () =>
    expect(detectCpaDegradation(ctxOf(lowVolume(9)))).toEqual([]));
  // ~100 results a day; cost per result up 43% from 5 days ago: the judged week (which ends 2 days
  // before today) holds 3 such days and reads only +15%; the 3 days since the step read +43%, far past
  // the noise bar.
  const lateStep = (after: number) =>
    campaign([
      {
        name: 'Buyers',
        ads: [{ name: 'A', impressions: () => 100_000, ctr: () => 0.02, cvr: step(0.05, after, 5) }],
      },
    ]);
  it('reads the days since a late step that the week dilutes', () => {
    const found = detectCpaDegradation(ctxOf(lateStep(0.035)));
    expect(found).toHaveLength(1);
    expect(found[0]?.description).toContain('in Feb 25–Feb 27');
    expect(found[0]?.facts.rise).toBeGreaterThan(0.4);
  });
  it('does not flag a late step below the rise bar', () =>
    expect(detectCpaDegradation(ctxOf(lateStep(0.042)))).toEqual([]));
  it('never judges thin data (fewer than 10 results)', () => {
    const data = campaign([
      { name: 'Few', ads: [{ name: 'A', impressions: () => 1000, ctr: () => 0.01, cpm: step(10, 30, 9) }] },
    ]);
    expect(detectCpaDegradation(ctxOf(data))).toEqual([]);
  });
});

describe('AUDIENCE_SATURATION (daily reach −20%, frequency +20%, CPM +15% while spend holds)', () => {
  const saturating = (impressionsAfter: number, frequencyAfter: number, cpmAfter = 11.5, ctrAfter = 0.015) =>
    campaign([
      {
        name: 'Lookalike 1%',
        ads: [
          {
            name: 'A',
            impressions: step(4000, impressionsAfter, 7),
            frequency: step(1.25, frequencyAfter, 7),
            cpm: step(10, cpmAfter, 7),
            ctr: step(0.015, ctrAfter, 7),
          },
        ],
      },
    ]);
  it('flags reach −20% with frequency +20% and CPM +15% (at all three thresholds)', () => {
    const found = detectAudienceSaturation(ctxOf(saturating(3840, 1.5)));
    expect(found).toHaveLength(1);
    expect(found[0]?.evidence).toMatchObject({ newReachShare: 0.8 });
  });
  it('flags stronger saturation', () =>
    expect(detectAudienceSaturation(ctxOf(saturating(3600, 1.6, 13)))).toHaveLength(1));
  it('does not flag frequency just below +20%', () =>
    expect(detectAudienceSaturation(ctxOf(saturating(3800, 1.49)))).toEqual([]));
  it('flags reach falling and frequency climbing with CPM flat: CPM is supporting evidence', () => {
    const found = detectAudienceSaturation(ctxOf(saturating(3600, 1.6, 10)));
    expect(found).toHaveLength(1);
    expect(found[0]?.severity).toBe('MEDIUM');
    expect(found[0]?.description).toMatch(/CPM up only 0%/);
  });
  it('leaves it to creative fatigue when CPM is flat and CTR fell as far as the fatigue bar', () => {
    expect(detectAudienceSaturation(ctxOf(saturating(3600, 1.6, 10, 0.011)))).toEqual([]);
    // With CPM up as well, the shrinking audience is the cause whatever the CTR.
    expect(detectAudienceSaturation(ctxOf(saturating(3600, 1.6, 11.5, 0.011)))).toHaveLength(1);
  });
  it('does not flag a reach drop that comes with a spend cut', () => {
    expect(detectAudienceSaturation(ctxOf(saturating(2000, 1.6)))).toEqual([]);
  });
});

describe('unknown result type: no cost-per-result judgement', () => {
  const as = (data: CampaignData, type: string): CampaignData => ({
    ...data,
    resultType: type,
    adSets: data.adSets.map((s) => ({ ...s, resultType: type })),
  });
  it('CPA degradation and learning stall stay silent when the result type is UNKNOWN or MIXED', () => {
    const rising = campaign([
      {
        name: 'Reach',
        dailyBudget: 1000,
        ads: [{ name: 'A', impressions: () => 100_000, ctr: () => 0.02, cpm: step(10, 20, 9) }],
      },
    ]);
    const stalled = campaign([
      {
        name: 'Retargeting',
        learning: { status: 'LEARNING', conversions: 20, editDaysAgo: 9 },
        ads: [{ name: 'A' }],
      },
    ]);
    expect(detectCpaDegradation(ctxOf(rising))).toHaveLength(1);
    expect(detectLearningPhaseStall(ctxOf(stalled))).toHaveLength(1);
    for (const type of ['UNKNOWN', 'MIXED']) {
      expect(detectCpaDegradation(ctxOf(as(rising, type))), type).toEqual([]);
      expect(detectLearningPhaseStall(ctxOf(as(stalled, type))), type).toEqual([]);
    }
  });
});
