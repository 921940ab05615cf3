// Accuracy on a seed never used for tuning (tuning used seeds 1-3; the bench measures 101-103):
// sync the demo platform into a temp store, diagnose every evaluated campaign, score against the
// injected ground truth. A looser bar than the bench's 0.9, since one seed has ~8 cases per category.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DETECTOR_ISSUE_TYPES as ISSUE_TYPES } from '../../src/shared/api/diagnostics';
import { scoreAccuracy, syncDemo, type AccuracyReport, type SyncedDemo } from './accuracy';

let synced: SyncedDemo;
let report: AccuracyReport;

beforeAll(async () => {
  synced = await syncDemo({ seed: 211, today: '2026-03-15', largeAccountCampaigns: 40 });
  report = await scoreAccuracy(synced, 21);
}, 120_000);
afterAll(() => synced?.dispose());

describe('accuracy on unseen seed 211', () => {
  it('covers every category and healthy controls', () => {
    for (const category of ISSUE_TYPES) {
      const c = report.categories.find((x) => x.category === category);
      expect((c?.truePositives ?? 0) + (c?.falseNegatives ?? 0), category).toBeGreaterThanOrEqual(5);
    }
    expect(report.healthy).toBeGreaterThanOrEqual(10);
  });

  it.each(ISSUE_TYPES)('%s: precision and recall ≥ 0.75', (category) => {
    const c = report.categories.find((x) => x.category === category);
    expect(c?.precision ?? 0, JSON.stringify(c)).toBeGreaterThanOrEqual(0.75);
    expect(c?.recall ?? 0, JSON.stringify(c)).toBeGreaterThanOrEqual(0.75);
  });

  it('offers no recommendation its campaign’s structure does not allow', () => {
    expect(report.recommendationsChecked).toBeGreaterThan(report.campaigns);
    expect(report.impossibleRecommendations).toEqual([]);
  });

  it('flags at most 10% of healthy campaigns', () => {
    expect(report.healthyFalsePositiveRate).toBeLessThanOrEqual(0.1);
  });
});
