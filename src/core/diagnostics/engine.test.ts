// The engine as a whole: determinism, severity/risk, recommendations, summaries, and Andromeda.
import { describe, expect, it } from 'vitest';
import { DiagnosticDetailSchema } from '../../shared/api/diagnostics';
import { addDays } from '../clock';
import { DEFAULT_PROFILE, type Learned } from './andromeda';
import { diagnose } from './engine';
import { buildCampaign, step, type AdSetSpec } from '../../test-support/diagnostics-fixtures';

const TODAY = '2026-03-01';
const FROM = addDays(TODAY, -13);
const country = (c: string) => ({ geo_locations: { countries: [c] }, age_min: 18, age_max: 65 });
const none: Learned = { profile: DEFAULT_PROFILE, customized: false, feedback: new Map() };

/** Fatigue on one ad (CTR −21%: flagged only by a cautious profile) and an under-pacing ad set. */
function mixed(ctrAfter = 0.0158) {
  const adSets: AdSetSpec[] = [
    {
      name: 'US broad',
      targeting: country('US'),
      dailyBudget: 80,
      ads: [
        { name: 'Video hook', ctr: step(0.02, ctrAfter, 7), frequency: step(1.25, 1.6, 7) },
        { name: 'Carousel', ctr: () => 0.02 },
      ],
    },
    {
      name: 'DE broad',
      targeting: country('DE'),
      dailyBudget: 100,
      ads: [{ name: 'Static', impressions: () => 5000 }],
    },
  ];
  return buildCampaign({ name: 'Spring Sale', today: TODAY, days: 60, adSets });
}

describe('diagnose', () => {
  it('is deterministic: the same data gives the same diagnostic', () => {
    const data = mixed(0.012);
    const a = diagnose({ campaigns: [data], from: FROM, to: TODAY, learned: none });
    const b = diagnose({ campaigns: [data], from: FROM, to: TODAY, learned: none });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it('produces spec-shaped issues, 1-3 ranked recommendations and a specific summary', () => {
    const data = mixed(0.012);
    const content = diagnose({ campaigns: [data], from: FROM, to: TODAY, learned: none });
    const types = content.issues.map((i) => i.type).sort();
    expect(types).toEqual(['CREATIVE_FATIGUE', 'PACING_ISSUE']);
    expect(content.issues.map((i) => i.id)).toEqual(['issue_1', 'issue_2']);
    expect(content.recommendations.length).toBeGreaterThanOrEqual(1);
    expect(content.recommendations.length).toBeLessThanOrEqual(3);
    for (const rec of content.recommendations) {
      expect(rec.relatedIssues.length).toBeGreaterThan(0);
      expect(rec.expectedImpact).toMatch(/\d/);
    }
    expect(content.summary).toContain('Spring Sale');
    expect(content.summary).toContain('Video hook');
    expect(content.metrics.currency).toBe('USD');
    const detail = DiagnosticDetailSchema.parse({
      id: 'diag_x',
      campaignId: data.id,
      campaignName: data.name,
      status: 'completed',
      riskLevel: content.riskLevel,
      summary: content.summary,
      issuesDetected: content.issuesDetected,
      recommendationCount: content.recommendationCount,
      createdAt: '2026-03-01T00:00:00.000Z',
      completedAt: '2026-03-01T00:00:01.000Z',
      accountId: data.accountId,
      accountName: 'Acme US',
      platformCampaignId: data.platformCampaignId,
      dateRange: { from: FROM, to: TODAY },
      metrics: content.metrics,
      issues: content.issues,
      recommendations: content.recommendations,
      andromedaContext: content.andromedaContext,
      processingTimeMs: 3,
    });
    expect(detail.issues).toHaveLength(2);
  });

  it('says so plainly when the campaign is healthy, and when the data is too thin', () => {
    const healthy = buildCampaign({
      name: 'Evergreen',
      today: TODAY,
      days: 60,
      adSets: [{ name: 'US', targeting: country('US'), dailyBudget: 40, ads: [{ name: 'A' }] }],
    });
    const ok = diagnose({ campaigns: [healthy], from: FROM, to: TODAY, learned: none });
    expect(ok.issues).toEqual([]);
    expect(ok.riskLevel).toBe('LOW');
    expect(ok.summary).toMatch(/looks healthy/);
    expect(ok.recommendations).toHaveLength(1);

    const thin = buildCampaign({
      name: 'Tiny test',
      today: TODAY,
      days: 60,
      adSets: [
        {
          name: 'US',
          dailyBudget: 5,
          ads: [{ name: 'A', impressions: () => 100, ctr: step(0.02, 0.001, 7) }],
        },
      ],
    });
    const little = diagnose({ campaigns: [thin], from: FROM, to: TODAY, learned: none });
    expect(little.issues).toEqual([]);
    expect(little.summary).toMatch(/Too little data/);
    expect(little.summary).not.toBe(ok.summary);
  });
});

describe('Andromeda', () => {
  it('two profiles on the same data give different, explained results', () => {
    const data = mixed();
    const cautious: Learned = {
      profile: { riskAppetite: 'LOW', focusMetric: 'CTR' },
      customized: true,
      feedback: new Map(),
    };
    const bold: Learned = {
      profile: { riskAppetite: 'HIGH', focusMetric: 'CONVERSIONS' },
      customized: true,
      feedback: new Map(),
    };
    const a = diagnose({ campaigns: [data], from: FROM, to: TODAY, learned: cautious });
    const b = diagnose({ campaigns: [data], from: FROM, to: TODAY, learned: bold });
    // CTR −21%: under the 25% bar of a MEDIUM/HIGH profile, over the 20% bar of a cautious one.
    expect(a.issues.map((i) => i.type)).toContain('CREATIVE_FATIGUE');
    expect(b.issues.map((i) => i.type)).not.toContain('CREATIVE_FATIGUE');
    expect(a.andromedaContext).toMatchObject({ riskAppetite: 'LOW', focusMetric: 'CTR' });
    expect(a.andromedaContext.adaptations).toMatch(/LOW risk appetite lowered detection thresholds by 20%/);
    expect(a.andromedaContext.adaptations).toMatch(/adding creative fatigue/);
    expect(b.andromedaContext.adaptations).toMatch(/HIGH risk appetite raised detection thresholds by 25%/);
    expect(a.recommendations.map((r) => r.action).join()).toMatch(/Replace the creative/);
    expect(b.recommendations.map((r) => r.action).join()).not.toMatch(/Replace the creative/);
  });

  it('the focus metric re-ranks the same findings', () => {
    const data = mixed(0.012);
    const byCtr = diagnose({
      campaigns: [data],
      from: FROM,
      to: TODAY,
      learned: {
        profile: { riskAppetite: 'MEDIUM', focusMetric: 'CTR' },
        customized: true,
        feedback: new Map(),
      },
    });
    const byConversions = diagnose({
      campaigns: [data],
      from: FROM,
      to: TODAY,
      learned: {
        profile: { riskAppetite: 'MEDIUM', focusMetric: 'CONVERSIONS' },
        customized: true,
        feedback: new Map(),
      },
    });
    expect(byCtr.issues).toEqual(byConversions.issues);
    expect(byCtr.recommendations[0]?.action).toMatch(/Replace the creative/);
    expect(byConversions.recommendations[0]?.action).toMatch(/Broaden the audience of ad set/);
    expect(byConversions.andromedaContext.adaptations).toMatch(/CONVERSIONS focus ranked actions/);
    expect(byConversions.andromedaContext.adaptations).toMatch(
      /under-delivery fixes rank first instead of creative refreshes/,
    );
  });

  it('feedback re-weights later ranking for that user and says so', () => {
    const data = mixed(0.012);
    const base = diagnose({ campaigns: [data], from: FROM, to: TODAY, learned: none });
    expect(base.recommendations[0]?.action).toMatch(/Replace the creative/);
    const learned: Learned = {
      profile: DEFAULT_PROFILE,
      customized: false,
      feedback: new Map([['REFRESH_CREATIVE', { applied: 0, dismissed: 3 }]]),
    };
    const after = diagnose({ campaigns: [data], from: FROM, to: TODAY, learned });
    expect(after.recommendations[0]?.action).not.toMatch(/Replace the creative/);
    expect(after.andromedaContext.adaptations).toMatch(/creative refreshes down \(0 applied, 3 dismissed\)/);
    expect(after.andromedaContext.adaptations).toMatch(/rank first instead of creative refreshes/);
  });
});

describe('account-level diagnosis', () => {
  it('says so when no campaign delivered, still with one next step', () => {
    const content = diagnose({
      campaigns: [],
      from: FROM,
      to: TODAY,
      learned: none,
      account: { name: 'Acme', currency: 'EUR' },
    });
    expect(content).toMatchObject({
      riskLevel: 'LOW',
      issuesDetected: 0,
      recommendationCount: 1,
      campaignsAnalyzed: 0,
    });
    expect(content.summary).toMatch(/No campaign delivered in this range/);
    expect(content.metrics).toMatchObject({ spend: 0, cpa: null, currency: 'EUR' });
  });

  it('ranks issues across campaigns and names them', () => {
    const sick = mixed(0.012);
    const healthy = buildCampaign({
      name: 'Evergreen',
      today: TODAY,
      days: 60,
      adSets: [{ name: 'US', dailyBudget: 40, ads: [{ name: 'A' }] }],
    });
    const content = diagnose({
      campaigns: [healthy, sick],
      from: FROM,
      to: TODAY,
      learned: none,
      account: { name: 'Acme', currency: 'USD' },
    });
    expect(content.campaignsAnalyzed).toBe(2);
    expect(content.issues.every((i) => i.campaignId === sick.id)).toBe(true);
    expect(content.summary).toMatch(/Account “Acme”/);
    expect(content.summary).toMatch(/in 1 campaign/);
  });
});
