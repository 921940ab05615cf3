// Properties of the engine over random constructed campaigns: it never throws, always returns 1-3
// recommendations linked to real issues, never flags thin data, and is deterministic.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DiagnosticDetailSchema, IssueSchema, RecommendationSchema } from '../../shared/api/diagnostics';
import { addDays } from '../clock';
import { DEFAULT_PROFILE, type Learned } from './andromeda';
import { diagnose } from './engine';
import { buildCampaign, step, type AdSetSpec } from '../../test-support/diagnostics-fixtures';

const TODAY = '2026-03-01';
const FROM = addDays(TODAY, -13);

const adArb = fc.record({
  impressions: fc.integer({ min: 0, max: 40_000 }),
  ctrBefore: fc.double({ min: 0.001, max: 0.05, noNaN: true }),
  ctrAfter: fc.double({ min: 0.001, max: 0.05, noNaN: true }),
  cvr: fc.double({ min: 0, max: 0.1, noNaN: true }),
  cpmAfter: fc.double({ min: 3, max: 30, noNaN: true }),
  freqAfter: fc.double({ min: 1, max: 5, noNaN: true }),
  changeDaysAgo: fc.integer({ min: 0, max: 40 }),
});
const adSetArb = fc.record({
  budget: fc.option(fc.integer({ min: 5, max: 2000 }), { nil: null }),
  country: fc.constantFrom('US', 'DE', 'FR'),
  learning: fc.option(
    fc.record({
      status: fc.constantFrom('LEARNING', 'FAIL', 'SUCCESS'),
      conversions: fc.integer({ min: 0, max: 80 }),
      editDaysAgo: fc.integer({ min: 0, max: 40 }),
    }),
    { nil: null },
  ),
  ads: fc.array(adArb, { minLength: 1, maxLength: 4 }),
});
const profileArb = fc.record({
  riskAppetite: fc.constantFrom('LOW' as const, 'MEDIUM' as const, 'HIGH' as const),
  focusMetric: fc.constantFrom('ROAS' as const, 'CPA' as const, 'CTR' as const, 'CONVERSIONS' as const),
});

type AdSetInput = typeof adSetArb extends fc.Arbitrary<infer T> ? T : never;

function build(adSets: AdSetInput[], campaignBudget: number | null) {
  return buildCampaign({
    name: 'Random',
    today: TODAY,
    days: 60,
    dailyBudget: campaignBudget,
    adSets: adSets.map((s, i): AdSetSpec => ({
      name: `Ad set ${i + 1}`,
      dailyBudget: campaignBudget ? null : s.budget,
      targeting: { geo_locations: { countries: [s.country] }, age_min: 18, age_max: 65 },
      learning: s.learning,
      ads: s.ads.map((a, j) => ({
        name: `Ad ${i + 1}.${j + 1}`,
        impressions: () => a.impressions,
        ctr: step(a.ctrBefore, a.ctrAfter, a.changeDaysAgo),
        cvr: () => a.cvr,
        cpm: step(10, a.cpmAfter, a.changeDaysAgo),
        frequency: step(1.2, a.freqAfter, a.changeDaysAgo),
      })),
    })),
  });
}

describe('diagnose over random campaigns', () => {
  it('always returns a valid, linked, deterministic diagnostic', () => {
    fc.assert(
      fc.property(
        fc.array(adSetArb, { minLength: 1, maxLength: 4 }),
        fc.option(fc.integer({ min: 20, max: 3000 }), { nil: null }),
        profileArb,
        (adSets, campaignBudget, profile) => {
          const data = build(adSets, campaignBudget);
          const learned: Learned = { profile, customized: true, feedback: new Map() };
          const a = diagnose({ campaigns: [data], from: FROM, to: TODAY, learned });
          const b = diagnose({ campaigns: [data], from: FROM, to: TODAY, learned });
          expect(JSON.stringify(a)).toBe(JSON.stringify(b));
          for (const issue of a.issues) IssueSchema.parse(issue);
          for (const rec of a.recommendations) RecommendationSchema.parse(rec);
          expect(a.recommendations.length).toBeGreaterThanOrEqual(1);
          expect(a.recommendations.length).toBeLessThanOrEqual(3);
          const ids = new Set(a.issues.map((i) => i.id));
          for (const rec of a.recommendations)
            for (const id of rec.relatedIssues) expect(ids.has(id)).toBe(true);
          if (a.issues.length === 0) expect(a.riskLevel).toBe('LOW');
          if (a.metrics.spend < 50 || a.metrics.impressions < 3000) expect(a.issues).toEqual([]);
          expect(a.summary.length).toBeGreaterThan(40);
          expect(Number.isFinite(a.metrics.spend)).toBe(true);
        },
      ),
      { numRuns: 60, seed: 4242 },
    );
  });

  it('keeps the default profile’s sentence when nothing was customized', () => {
    const data = build(
      [
        {
          budget: 120,
          country: 'US',
          learning: null,
          ads: [
            {
              impressions: 4000,
              ctrBefore: 0.015,
              ctrAfter: 0.015,
              cvr: 0.05,
              cpmAfter: 10,
              freqAfter: 1.2,
              changeDaysAgo: 0,
            },
          ],
        },
      ],
      null,
    );
    const learned: Learned = { profile: DEFAULT_PROFILE, customized: false, feedback: new Map() };
    const content = diagnose({ campaigns: [data], from: FROM, to: TODAY, learned });
    expect(content.andromedaContext.adaptations).toMatch(/^No Andromeda profile or feedback yet/);
    expect(DiagnosticDetailSchema.shape.andromedaContext.parse(content.andromedaContext)).toBeTruthy();
  });
});
