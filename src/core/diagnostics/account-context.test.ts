// Account context before campaign blame: a tracking outage, a market-wide CPM move and a budget change
// are read across the account (or from the change history) before any campaign is blamed. The data
// is built here with shapes of their own, not taken from the demo platform.
import { describe, expect, it } from 'vitest';
import { DiagnosticDetailSchema } from '../../shared/api/diagnostics';
import { addDays } from '../clock';
import { DEFAULT_PROFILE, type Learned } from './andromeda';
import { diagnose } from './engine';
import { buildCampaign, step, type AdSpec, type Shape } from '../../test-support/diagnostics-fixtures';
import type { CampaignData } from './types';

const TODAY = '2026-05-20';
const FROM = addDays(TODAY, -13);
const none: Learned = { profile: DEFAULT_PROFILE, customized: false, feedback: new Map() };
const flat =
  (v: number): Shape =>
  () =>
    v;

/**
 * An agency client's account of `n` campaigns of different sizes, prices and funnels (no two alike),
 * each with two ad sets and no budgets of their own; `shape(i, ad)` reshapes campaign i's ads.
 */
function buildAccount(n: number, shape: (i: number, ad: AdSpec) => AdSpec = (_i, ad) => ad): CampaignData[] {
  const campaigns: CampaignData[] = [];
  for (let i = 0; i < n; i++) {
    const impressions = 6_000 + ((i * 3_700) % 15_000);
    const base: AdSpec = {
      name: `Ad ${i}`,
      impressions: flat(impressions),
      ctr: flat(0.009 + ((i * 7) % 17) / 1_000),
      cvr: flat(0.03 + ((i * 5) % 11) / 200),
      cpm: flat(6 + ((i * 11) % 13)),
      frequency: flat(1.1 + (i % 4) / 10),
    };
    campaigns.push(
      buildCampaign({
        name: `Client campaign ${String(i + 1).padStart(2, '0')}`,
        today: TODAY,
        days: 60,
        adSets: [
          { name: `C${i} prospecting`, dailyBudget: null, ads: [shape(i, { ...base, name: `C${i} video` })] },
          {
            name: `C${i} retargeting`,
            dailyBudget: null,
            targeting: { geo_locations: { countries: ['CA'] }, age_min: 25, age_max: 55 },
            ads: [shape(i, { ...base, name: `C${i} carousel`, impressions: flat(impressions / 2) })],
          },
        ],
      }),
    );
  }
  return campaigns;
}

const typesOf = (content: { issues: { type: string }[] }) => content.issues.map((i) => i.type);
const countOf = (content: { issues: { type: string }[] }, type: string) =>
  content.issues.filter((i) => i.type === type).length;
const withoutContext = (campaigns: CampaignData[]) =>
  campaigns.flatMap((c) => diagnose({ campaigns: [c], from: FROM, to: TODAY, learned: none }).issues);

function account(campaigns: CampaignData[]) {
  const content = diagnose({
    campaigns,
    from: FROM,
    to: TODAY,
    learned: none,
    account: { name: 'Northwind agency client', currency: 'USD' },
  });
  // The issues are what the API would return: they must parse with the shared schema.
  for (const issue of content.issues)
    expect(() => DiagnosticDetailSchema.shape.issues.element.parse(issue)).not.toThrow();
  return content;
}

describe('budget changes are judged against the budget in force each day', () => {
  it('does not call a campaign under-spending for the days before its budget doubled', () => {
    const c = buildCampaign({
      name: 'Evergreen prospecting',
      today: TODAY,
      days: 50,
      dailyBudget: 200,
      adSets: [
        {
          name: 'Broad 25-54',
          dailyBudget: null,
          ads: [{ name: 'UGC video', impressions: step(10_000, 20_000, 2) }],
        },
      ],
    });
    const withoutHistory = diagnose({ campaigns: [c], from: FROM, to: TODAY, learned: none });
    // Without the change history the old days read as under-spending (the check can fail).
    expect(withoutHistory.issues.map((i) => i.type)).toContain('PACING_ISSUE');
    c.changes = [
      {
        at: `${addDays(TODAY, -2)}T20:15:00+0000`,
        changeType: 'BUDGET',
        eventType: 'update_campaign_budget',
        objectType: 'CAMPAIGN',
        adSetId: null,
        adId: null,
        oldValue: '{"amount":10000,"currency":"USD"}',
        newValue: '{"amount":20000,"currency":"USD"}',
      },
    ];
    const content = diagnose({ campaigns: [c], from: FROM, to: TODAY, learned: none });
    expect(content.issues.filter((i) => i.type === 'PACING_ISSUE')).toEqual([]);
  });
});

describe('account context before campaign blame', () => {
  it('a tracking outage across 20 campaigns is one TRACKING_BREAK, not a storm of CPA degradations', () => {
    // 60% of results stop being reported from 6 days before the end; clicks and impressions hold.
    const campaigns = buildAccount(20, (_i, ad) => ({
      ...ad,
      cvr: ((cvr: Shape) => (d: number) => (d < 6 ? cvr(d) * 0.4 : cvr(d)))(ad.cvr ?? flat(0.05)),
    }));
    // Campaign by campaign, the outage reads as many cost-per-result problems (the test can fail).
    expect(withoutContext(campaigns).filter((i) => i.type === 'CPA_DEGRADATION').length).toBeGreaterThan(5);
    const content = account(campaigns);
    expect(countOf(content, 'TRACKING_BREAK')).toBe(1);
    expect(countOf(content, 'CPA_DEGRADATION')).toBeLessThanOrEqual(2);
    const issue = content.issues.find((i) => i.type === 'TRACKING_BREAK')!;
    expect(issue.id).toBe('issue_1');
    expect(issue.affectedEntity.type).toBe('account');
    expect(issue.campaignId).toBeUndefined();
    if (issue.type !== 'TRACKING_BREAK') throw new Error('unreachable');
    expect(issue.evidence.startDate).toBe(addDays(TODAY, -5));
    expect(issue.evidence.resultsPerDayAfter).toBeLessThan(issue.evidence.resultsPerDayBefore * 0.5);
    expect(issue.evidence.linkClicksPerDayAfter).toBeCloseTo(issue.evidence.linkClicksPerDayBefore, 0);
    expect(issue.evidence.affectedSpendShare).toBeGreaterThanOrEqual(0.9);
    // The advice is to check tracking, and no recommendation moves or cuts budget.
    expect(content.recommendations[0]?.action).toMatch(/Events Manager/);
    expect(content.recommendations[0]?.relatedIssues).toEqual([issue.id]);
    for (const r of content.recommendations) expect(r.action).not.toMatch(/Move 20%|Lower the daily budget/);
  });

  it('a market-wide CPM rise of 30% with spend flat is one MARKET_SHIFT, not a storm of campaign issues', () => {
    // From 10 days before the end every campaign pays 26-34% more per 1,000 impressions; spend is flat,
    // so impressions fall by the same share; CTR and conversion rate hold.
    const campaigns = buildAccount(20, (i, ad) => {
      const rise = 1.26 + (i % 5) * 0.02;
      const cpm = ad.cpm ?? flat(10);
      const impressions = ad.impressions ?? flat(4000);
      return {
        ...ad,
        cpm: (d) => (d < 10 ? cpm(d) * rise : cpm(d)),
        impressions: (d) => (d < 10 ? impressions(d) / rise : impressions(d)),
      };
    });
    expect(withoutContext(campaigns).length).toBeGreaterThan(5);
    const content = account(campaigns);
    expect(countOf(content, 'MARKET_SHIFT')).toBe(1);
    expect(content.issues.length).toBeLessThanOrEqual(3);
    const issue = content.issues.find((i) => i.type === 'MARKET_SHIFT')!;
    if (issue.type !== 'MARKET_SHIFT') throw new Error('unreachable');
    expect(issue.evidence.direction).toBe('UP');
    expect(issue.evidence.cpmChange).toBeGreaterThan(0.25);
    expect(issue.evidence.cpmChange).toBeLessThan(0.35);
    expect(Math.abs(issue.evidence.ctrChange)).toBeLessThan(0.05);
    expect(issue.campaignId).toBeUndefined();
    expect(content.recommendations[0]?.action).toMatch(/Hold budgets and bids/);
  });

  it('an outage losing 40% of results (clicks holding) is still one TRACKING_BREAK', () => {
    // 40% of results stop being reported from 7 days before the end: the rate per click falls 40%.
    const campaigns = buildAccount(20, (_i, ad) => ({
      ...ad,
      cvr: ((cvr: Shape) => (d: number) => (d < 7 ? cvr(d) * 0.6 : cvr(d)))(ad.cvr ?? flat(0.05)),
    }));
    const content = account(campaigns);
    expect(countOf(content, 'TRACKING_BREAK')).toBe(1);
    expect(countOf(content, 'CPA_DEGRADATION')).toBeLessThanOrEqual(2);
  });

  it('a market-wide CPM rise that began 4 days before the end is one MARKET_SHIFT', () => {
    // Too few days to carry a week's average past the bar: read from the day CPM stepped.
    const campaigns = buildAccount(20, (i, ad) => {
      const rise = 1.26 + (i % 5) * 0.02;
      const cpm = ad.cpm ?? flat(10);
      const impressions = ad.impressions ?? flat(4000);
      return {
        ...ad,
        cpm: (d) => (d < 4 ? cpm(d) * rise : cpm(d)),
        impressions: (d) => (d < 4 ? impressions(d) / rise : impressions(d)),
      };
    });
    const content = account(campaigns);
    expect(countOf(content, 'MARKET_SHIFT')).toBe(1);
    expect(content.issues.length).toBeLessThanOrEqual(3);
    const issue = content.issues.find((i) => i.type === 'MARKET_SHIFT')!;
    if (issue.type !== 'MARKET_SHIFT') throw new Error('unreachable');
    expect(issue.evidence.cpmChange).toBeGreaterThan(0.25);
  });

  it('a real cost-per-result problem on one campaign of 20 is still that campaign’s, with no account issue', () => {
    const campaigns = buildAccount(20, (i, ad) =>
      i === 7 ? { ...ad, cvr: step(ad.cvr?.(30) ?? 0.05, (ad.cvr?.(30) ?? 0.05) * 0.45, 10) } : ad,
    );
    const content = account(campaigns);
    expect(typesOf(content)).not.toContain('TRACKING_BREAK');
    expect(typesOf(content)).not.toContain('MARKET_SHIFT');
    const cpa = content.issues.filter((i) => i.type === 'CPA_DEGRADATION');
    expect(cpa.map((i) => i.campaignId)).toEqual([campaigns[7]!.id]);
  });

  it('a healthy account raises nothing', () => {
    const content = account(buildAccount(20));
    expect(content.issues).toEqual([]);
  });
});
