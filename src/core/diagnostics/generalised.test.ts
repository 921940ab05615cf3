// The detectors made general (issue 14) and recommendations an analyst can carry out in Ads Manager,
// on hand-built series and structures: overlap across campaigns (exclusions, Advantage+ audience,
// empty audience lists), fatigue on a 20-day-old ad, learning limited judged on the real result
// event, and every impossible recommendation of the issue never offered.
import { describe, expect, it } from 'vitest';
import { addDays } from '../clock';
import {
  buildCampaign,
  step,
  type AdSetSpec,
  type CampaignSpec,
} from '../../test-support/diagnostics-fixtures';
import { DEFAULT_PROFILE, type Learned } from './andromeda';
import { detectCreativeFatigue, detectLearningPhaseStall, detectorContext } from './detectors';
import { diagnose, type DiagnosisContent } from './engine';
import { isPossible, structureOf, type Change } from './structure';
import { parseTargeting, targetingOverlap } from './targeting';
import { DEFAULT_THRESHOLDS } from './thresholds';
import type { CampaignData } from './types';

const TODAY = '2026-03-01';
const FROM = addDays(TODAY, -13);
const LEARNED: Learned = { profile: DEFAULT_PROFILE, customized: false, feedback: new Map() };
const US = { geo_locations: { countries: ['US'] }, age_min: 18, age_max: 65 };

function campaign(name: string, adSets: AdSetSpec[], extra: Partial<CampaignSpec> = {}): CampaignData {
  return buildCampaign({ name, today: TODAY, days: 60, adSets, ...extra });
}
const ctxOf = (data: CampaignData) =>
  detectorContext(data, { from: FROM, to: TODAY, loadFrom: addDays(TODAY, -59) }, DEFAULT_THRESHOLDS);
const account = (campaigns: CampaignData[]) =>
  diagnose({
    campaigns,
    from: FROM,
    to: TODAY,
    learned: LEARNED,
    account: { name: 'Shop', currency: 'USD' },
  });

/** Every recommendation's Ads Manager edits pass the structure check of the campaigns diagnosed. */
function expectAllPossible(content: DiagnosisContent, campaigns: CampaignData[]): void {
  const blocked = new Set(
    content.issues
      .filter((i) => i.type === 'DELIVERY_BLOCKED')
      .map((i) => i.campaignId ?? campaigns[0]?.id ?? ''),
  );
  const structure = structureOf(campaigns, blocked);
  for (const r of content.recommendations) {
    const fixesDelivery = content.actionKinds[r.id] === 'FIX_DELIVERY_BLOCKER';
    const verdict = isPossible({ changes: (r.changes ?? []) as Change[], fixesDelivery }, structure);
    expect(verdict, r.action).toEqual({ ok: true });
  }
}

describe('auction overlap across campaigns of the account', () => {
  const overlapping = (second: Record<string, unknown> = US, first: Record<string, unknown> = US) => [
    campaign('Prospecting US', [
      {
        name: 'US broad',
        targeting: first,
        ads: [{ name: 'A', cpm: step(10, 12, 7), impressions: () => 9000 }],
      },
    ]),
    campaign('Promo US', [
      {
        name: 'US promo',
        targeting: second,
        ads: [{ name: 'B', cpm: step(10, 12, 7), impressions: () => 5000 }],
      },
    ]),
    campaign('Germany', [
      { name: 'DE broad', targeting: { ...US, geo_locations: { countries: ['DE'] } }, ads: [{ name: 'C' }] },
    ]),
  ];

  it('finds ad sets of two campaigns competing, and names the other campaign and ad set', () => {
    const content = account(overlapping());
    const issue = content.issues.find((i) => i.type === 'AUCTION_OVERLAP');
    expect(issue?.affectedEntity.name).toBe('US promo');
    expect(issue?.evidence).toMatchObject({
      overlappingAdSets: [{ name: 'US broad' }],
      targetingOverlap: 1,
      overlappingCampaigns: [{ name: 'Prospecting US' }],
    });
    expect(issue?.description).toMatch(/campaign “Prospecting US”/);
    const rec = content.recommendations.find((r) => r.relatedIssues.includes(issue?.id ?? ''));
    expect(rec?.action).toMatch(
      /Combine ad set “US promo” \(campaign “Promo US”\) into “US broad” \(campaign “Prospecting US”\)/,
    );
    expectAllPossible(content, overlapping());
  });

  it('a campaign diagnostic reads the account’s other campaigns and tells the overlap from its own ad set', () => {
    const [prospecting, promo] = overlapping();
    const content = diagnose({
      campaigns: [prospecting as CampaignData],
      siblings: [promo as CampaignData],
      from: FROM,
      to: TODAY,
      learned: LEARNED,
    });
    const issue = content.issues.find((i) => i.type === 'AUCTION_OVERLAP');
    expect(issue?.affectedEntity.name).toBe('US broad');
    expect(issue?.evidence).toMatchObject({
      overlappingAdSets: [{ name: 'US promo' }],
      overlappingCampaigns: [{ name: 'Promo US' }],
    });
    // The ad set losing auctions is the other campaign's: it is the one to fold in and turn off.
    const rec = content.recommendations.find((r) => r.relatedIssues.includes(issue?.id ?? ''));
    expect(rec?.action).toMatch(
      /Combine ad set “US promo” \(campaign “Promo US”\) into “US broad” \(campaign “Prospecting US”\)/,
    );
  });

  it('a campaign alone is not compared with itself across campaigns (one campaign, no cross overlap)', () => {
    const [first] = overlapping();
    const content = diagnose({ campaigns: [first as CampaignData], from: FROM, to: TODAY, learned: LEARNED });
    expect(content.issues.filter((i) => i.type === 'AUCTION_OVERLAP')).toEqual([]);
  });

  it('counts no overlap when one ad set excludes the custom audience the other targets', () => {
    const excluding = { ...US, excluded_custom_audiences: [{ id: 'ca_buyers' }] };
    const buyers = { ...US, custom_audiences: [{ id: 'ca_buyers' }] };
    expect(
      targetingOverlap(parseTargeting(JSON.stringify(excluding)), parseTargeting(JSON.stringify(buyers))),
    ).toBe(0);
    const content = account(overlapping(buyers, excluding));
    expect(content.issues.filter((i) => i.type === 'AUCTION_OVERLAP')).toEqual([]);
  });

  it('does not take an empty audience list for one holding every other list', () => {
    const lookalike = { ...US, custom_audiences: [{ id: 'lal_1pct' }] };
    expect(
      targetingOverlap(parseTargeting(JSON.stringify(US)), parseTargeting(JSON.stringify(lookalike))),
    ).toBe(0);
    expect(
      targetingOverlap(parseTargeting(JSON.stringify(lookalike)), parseTargeting(JSON.stringify(lookalike))),
    ).toBe(1);
  });

  it('removes excluded countries before comparing', () => {
    const na = {
      ...US,
      geo_locations: { countries: ['US', 'CA'] },
      excluded_geo_locations: { countries: ['US'] },
    };
    expect(targetingOverlap(parseTargeting(JSON.stringify(na)), parseTargeting(JSON.stringify(US)))).toBe(0);
  });

  it('reads Advantage+ audience: interests and ages are suggestions, so different interests still meet', () => {
    const yoga = { ...US, age_min: 25, age_max: 34, flexible_spec: [{ interests: [{ id: '6003' }] }] };
    const running = { ...US, flexible_spec: [{ interests: [{ id: '6004' }] }] };
    const plain = targetingOverlap(
      parseTargeting(JSON.stringify(yoga)),
      parseTargeting(JSON.stringify(running)),
    );
    expect(plain).toBe(0);
    const advantage = { ...yoga, targeting_automation: { advantage_audience: 1 } };
    const parsed = parseTargeting(JSON.stringify(advantage));
    expect(parsed.advantageAudience).toBe(true);
    expect(
      targetingOverlap(
        parsed,
        parseTargeting(JSON.stringify({ ...running, targeting_automation: { advantage_audience: 1 } })),
      ),
    ).toBe(1);
  });
});

describe('creative fatigue from CTR decay across an ad’s own life, whatever its age', () => {
  it('flags a 20-day-old ad against its first 7 days of delivery', () => {
    const data = campaign('Launch', [
      {
        name: 'US broad',
        ads: [
          { name: 'New hook', createdDaysAgo: 20, ctr: step(0.02, 0.012, 7), frequency: step(1.2, 1.6, 7) },
          { name: 'Evergreen', ctr: () => 0.02 },
        ],
      },
    ]);
    const found = detectCreativeFatigue(ctxOf(data));
    expect(found).toHaveLength(1);
    expect(found[0]?.evidence).toMatchObject({ ad: { name: 'New hook' }, ctrChange: -0.4 });
    expect(found[0]?.description).toMatch(/its first 7 days of delivery \(from Feb 9\)/);
  });
  it('does not judge an ad with fewer than two windows of delivery, nor a young ad holding its CTR', () => {
    const young = campaign('Launch', [
      {
        name: 'US',
        ads: [{ name: 'Fresh', createdDaysAgo: 10, ctr: step(0.02, 0.012, 3), frequency: step(1.2, 1.6, 3) }],
      },
    ]);
    expect(detectCreativeFatigue(ctxOf(young))).toEqual([]);
    const steady = campaign('Launch', [
      { name: 'US', ads: [{ name: 'Fine', createdDaysAgo: 20, frequency: step(1.2, 1.6, 7) }] },
    ]);
    expect(detectCreativeFatigue(ctxOf(steady))).toEqual([]);
  });
});

describe('learning judged with Meta’s learning stage and the ad set’s own result event', () => {
  const limited = (status: string, budget = 10) => {
    const data = campaign('Lead gen', [
      {
        name: 'Form leads',
        dailyBudget: budget,
        learning: { status, conversions: 9, editDaysAgo: 10 },
        ads: [{ name: 'A', impressions: () => 1000, cvr: () => 0.1 }],
      },
    ]);
    return {
      ...data,
      adSets: data.adSets.map((s) => ({ ...s, resultType: 'LEAD_FORM', resultName: 'Leads (form)' })),
    };
  };

  it('names Meta’s status and the real result event in the issue', () => {
    const found = detectLearningPhaseStall(ctxOf(limited('FAIL')));
    expect(found).toHaveLength(1);
    expect(found[0]?.evidence).toMatchObject({
      learningStatus: 'LEARNING_LIMITED',
      resultEvent: 'Leads (form)',
    });
    expect(found[0]?.description).toMatch(/Meta: learning limited\) with 9 of the 50 leads \(form\)/);
  });

  it('never flags an ad set Meta says exited learning, whatever its count', () => {
    expect(detectLearningPhaseStall(ctxOf(limited('SUCCESS')))).toEqual([]);
  });

  it('never tells a learning-limited ad set to raise its budget 7.6× at once: a step of ±20% or a merge', () => {
    const data = limited('FAIL');
    const content = diagnose({ campaigns: [data], from: FROM, to: TODAY, learned: LEARNED });
    const rec = content.recommendations.find((r) => content.actionKinds[r.id] === 'RAISE_LEARNING_BUDGET');
    expect(rec).toBeDefined();
    for (const change of rec?.changes ?? [])
      if (change.field === 'daily_budget' && typeof change.from === 'number' && typeof change.to === 'number')
        expect(change.to / change.from).toBeLessThanOrEqual(1.3);
    expect(rec?.action + (rec?.rationale ?? '')).toMatch(/step 1 of \d+|steps of \+20%/);
    expectAllPossible(content, [data]);
  });
});

describe('recommendations checked against the structure before they are offered', () => {
  // CPA up 40% on one of two ad sets (the other converts cheaper).
  const degrading = (extra: Partial<CampaignSpec>, budget: number | null = 1000) =>
    campaign(
      'Spring Sale',
      [
        {
          name: 'Expensive',
          dailyBudget: budget,
          ads: [{ name: 'A', impressions: () => 100_000, ctr: () => 0.02, cpm: step(10, 16, 9) }],
        },
        {
          name: 'Cheap',
          dailyBudget: budget,
          targeting: { ...US, geo_locations: { countries: ['CA'] } },
          ads: [{ name: 'B', impressions: () => 100_000, ctr: () => 0.02 }],
        },
      ],
      extra,
    );

  it('never moves budget between ad sets of a CBO campaign; it steers with ad set spending limits', () => {
    const data = degrading({ dailyBudget: 2500 }, null);
    const content = diagnose({ campaigns: [data], from: FROM, to: TODAY, learned: LEARNED });
    expect(content.issues.some((i) => i.type === 'CPA_DEGRADATION')).toBe(true);
    const changes = content.recommendations.flatMap((r) => r.changes ?? []);
    expect(changes.some((c) => c.level === 'adSet' && c.field === 'daily_budget')).toBe(false);
    expect(content.recommendations.map((r) => r.action).join(' ')).toMatch(/spending limit/);
    expectAllPossible(content, [data]);
  });

  it('moves ad-set budgets ±20% when the ad sets hold them (ABO)', () => {
    const data = degrading({});
    const content = diagnose({ campaigns: [data], from: FROM, to: TODAY, learned: LEARNED });
    const shift = content.recommendations.find((r) => content.actionKinds[r.id] === 'SHIFT_BUDGET');
    expect(shift?.changes).toEqual([
      expect.objectContaining({
        level: 'adSet',
        name: 'Expensive',
        field: 'daily_budget',
        from: 1000,
        to: 800,
      }),
      expect.objectContaining({ level: 'adSet', name: 'Cheap', field: 'daily_budget', from: 1000, to: 1200 }),
    ]);
    expectAllPossible(content, [data]);
  });

  it('states the projected effect on the campaign’s goal where one is set', () => {
    const data: CampaignData = { ...degrading({}), goal: { kind: 'CPA', target: 10, source: 'campaign' } };
    const content = diagnose({ campaigns: [data], from: FROM, to: TODAY, learned: LEARNED });
    const shift = content.recommendations.find((r) => content.actionKinds[r.id] === 'SHIFT_BUDGET');
    expect(shift?.expectedImpact).toMatch(
      /Goal: cost per result ≤ \$10\.00 \(campaign goal\); now \$\d+\.\d\d, \d+% above it\. Projected after this step: about \$\d+\.\d\d per result\./,
    );
    const none = diagnose({ campaigns: [degrading({})], from: FROM, to: TODAY, learned: LEARNED });
    expect(none.recommendations.map((r) => r.expectedImpact).join(' ')).not.toMatch(/Goal:/);
  });

  const underDelivering = (bid: Partial<AdSetSpec>, extra: Partial<CampaignSpec> = {}) =>
    campaign(
      'Prospecting',
      [{ name: 'DE broad', dailyBudget: 250, ...bid, ads: [{ name: 'A', impressions: () => 10_000 }] }],
      extra,
    );

  it('never offers to raise a bid cap that does not exist', () => {
    const data = underDelivering({});
    const content = diagnose({ campaigns: [data], from: FROM, to: TODAY, learned: LEARNED });
    expect(content.issues.some((i) => i.type === 'PACING_ISSUE')).toBe(true);
    expect(content.recommendations.map((r) => r.action).join(' ')).not.toMatch(/bid cap|cost cap/);
    expectAllPossible(content, [data]);
  });

  it('raises a cost cap by a step where one is set', () => {
    const data = underDelivering({ bidStrategy: 'COST_CAP', bidAmount: 20 });
    const content = diagnose({ campaigns: [data], from: FROM, to: TODAY, learned: LEARNED });
    const rec = content.recommendations.find((r) => /cost cap/.test(r.action));
    expect(rec?.changes).toEqual([expect.objectContaining({ field: 'bid_amount', from: 20, to: 24 })]);
  });

  it('never says "broaden the audience" inside an Advantage+ shopping campaign', () => {
    const saturating = (smartPromotionType: string) =>
      campaign(
        'Catalog',
        [
          {
            name: 'All products',
            dailyBudget: null,
            ads: [
              {
                name: 'A',
                impressions: step(4000, 3600, 7),
                frequency: step(1.25, 1.6, 7),
                cpm: step(10, 11.5, 7),
              },
            ],
          },
        ],
        { dailyBudget: 60, smartPromotionType },
      );
    const manual = diagnose({
      campaigns: [saturating('GUIDED_CREATION')],
      from: FROM,
      to: TODAY,
      learned: LEARNED,
    });
    expect(manual.issues.some((i) => i.type === 'AUDIENCE_SATURATION')).toBe(true);
    expect(manual.recommendations.map((r) => r.action).join(' ')).toMatch(/Broaden the audience/);
    const data = saturating('AUTOMATED_SHOPPING_ADS');
    const advantage = diagnose({ campaigns: [data], from: FROM, to: TODAY, learned: LEARNED });
    const actions = advantage.recommendations.map((r) => r.action).join(' ');
    expect(actions).not.toMatch(/Broaden|lookalike|widen/i);
    expect(actions).toMatch(/new creative concepts/);
    expectAllPossible(advantage, [data]);
  });

  it('ranks a delivery blocker first and drops tuning advice on the blocked campaign', () => {
    const data = campaign('Blocked', [
      {
        name: 'US broad',
        ads: [
          {
            name: 'Video hook',
            ctr: step(0.02, 0.012, 7),
            frequency: step(1.25, 1.6, 7),
            impressions: (d) => (d < 3 ? 0 : 4000),
          },
        ],
      },
    ]);
    const blocked: CampaignData = {
      ...data,
      ads: [
        ...data.ads,
        {
          id: 'ad_rejected',
          adSetId: data.adSets[0]?.id ?? '',
          name: 'Rejected',
          status: 'ACTIVE',
          effectiveStatus: 'DISAPPROVED',
          createdTime: `${TODAY}T00:00:00.000Z`,
          daily: new Map(),
          issues: [{ errorCode: 1, summary: 'Policy', message: 'Ad not approved' }],
        },
      ],
    };
    const content = diagnose({ campaigns: [blocked], from: FROM, to: TODAY, learned: LEARNED });
    expect(content.issues[0]?.type).toBe('DELIVERY_BLOCKED');
    // The fatigue is found, but no creative advice is offered while the campaign cannot deliver.
    expect(content.issues.map((i) => i.type)).toContain('CREATIVE_FATIGUE');
    expect(content.actionKinds.rec_1).toBe('FIX_DELIVERY_BLOCKER');
    expect(Object.values(content.actionKinds)).toEqual(['FIX_DELIVERY_BLOCKER']);
  });
});
