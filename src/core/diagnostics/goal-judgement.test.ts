// Judgement with goals on hand-built series: below target is never healthy, money lost against the
// goal ranks the account's findings, campaigns without a goal are shown beside their own baseline and
// the account's median, and low-volume campaigns say what is missing instead of staying silent.
import { describe, expect, it } from 'vitest';
import { DiagnosticDetailSchema, type GoalCheck, type Issue } from '../../shared/api/diagnostics';
import { addDays } from '../clock';
import { buildCampaign, type AdSpec } from '../../test-support/diagnostics-fixtures';
import { DEFAULT_PROFILE, type Learned } from './andromeda';
import { diagnose } from './engine';
import type { CampaignData } from './types';

const TODAY = '2026-03-01';
const FROM = addDays(TODAY, -6);
const none: Learned = { profile: DEFAULT_PROFILE, customized: false, feedback: new Map() };

/** One ad set, one ad: 4,000 impressions, 60 clicks, 3 purchases and $40 a day (of a $45 budget) by default. */
function campaign(
  name: string,
  ad: Partial<AdSpec> = {},
  opts: { dailyBudget?: number; goal?: CampaignData['goal'] } = {},
): CampaignData {
  const data = buildCampaign({
    name,
    today: TODAY,
    days: 40,
    adSets: [
      { name: `${name} ad set`, dailyBudget: opts.dailyBudget ?? 45, ads: [{ name: `${name} ad`, ...ad }] },
    ],
  });
  data.resultType = 'PURCHASE';
  data.goal = opts.goal ?? null;
  return data;
}

const run = (campaigns: CampaignData[], account = false) =>
  diagnose({
    campaigns,
    from: FROM,
    to: TODAY,
    learned: none,
    ...(account ? { account: { name: 'Shop', currency: 'USD' } } : {}),
  });

const goalIssue = (issues: Issue[]) => issues.find((i) => i.type === 'GOAL_MISSED');
const checkOf = (checks: GoalCheck[], name: string) =>
  checks.find((c) => c.campaignName === name) as GoalCheck;

describe('goals in the judgement', () => {
  it('flags ROAS 0.75 against a ROAS goal of 2, with the money that missed the goal, and does not scale it', () => {
    // $10 of revenue per purchase: 3 × $10 / $40 = ROAS 0.75.
    const data = campaign('Shoes', { value: 10 }, { goal: { kind: 'ROAS', target: 2, source: 'account' } });
    const content = run([data]);
    const issue = goalIssue(content.issues);
    expect(issue?.evidence).toMatchObject({
      goal: { kind: 'ROAS', target: 2, source: 'account' },
      actual: 0.75,
      gap: 0.625,
      results: 15,
    });
    // 7 days × $40 spent, 62.5% short of the goal.
    expect(issue && 'moneyAtRisk' in issue.evidence && issue.evidence.moneyAtRisk).toBe(175);
    expect(issue?.severity).toBe('HIGH');
    expect(content.summary).not.toContain('healthy');
    expect(content.summary).toContain('Below its ROAS goal of 2.00');
    expect(content.recommendations.map((r) => r.action).join(' ')).not.toMatch(/Raise the daily budget/);
    expect(content.recommendations[0]?.relatedIssues).toContain(issue?.id);
    expect(checkOf(content.goalChecks, 'Shoes')).toMatchObject({
      status: 'MISSED',
      metric: 'ROAS',
      actual: 0.75,
    });
    expect(() =>
      DiagnosticDetailSchema.parse({
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
        processingTimeMs: 1,
        goalChecks: content.goalChecks,
      }),
    ).not.toThrow();
  });

  it('flags ROAS 0.75 against break-even, set or implied, and calls a campaign healthy only at or above it', () => {
    const set = run([
      campaign('Set', { value: 10 }, { goal: { kind: 'ROAS', target: 1, source: 'campaign' } }),
    ]);
    expect(goalIssue(set.issues)?.evidence).toMatchObject({
      goal: { target: 1, source: 'campaign' },
      gap: 0.25,
    });
    expect(goalIssue(set.issues)?.severity).toBe('HIGH');
    const implied = run([campaign('Implied', { value: 10 })]);
    expect(goalIssue(implied.issues)?.evidence).toMatchObject({
      goal: { kind: 'ROAS', target: 1, source: 'break_even' },
    });
    // ROAS 0.9 without a goal: not called missed (too close to break-even to judge unasked), never "healthy".
    const close = run([campaign('Close', { value: 12 })]);
    expect(goalIssue(close.issues)).toBeUndefined();
    expect(close.summary).not.toContain('looks healthy');
    expect(close.summary).toContain('No goal set: ROAS 0.90, below break-even');
    // ROAS 4.5 without a goal: healthy, shown beside its own baseline.
    const fine = run([campaign('Fine')]);
    expect(fine.issues).toEqual([]);
    expect(fine.summary).toContain('looks healthy');
    expect(checkOf(fine.goalChecks, 'Fine')).toMatchObject({ status: 'NO_GOAL', actual: 4.5, baseline: 4.5 });
  });

  it('judges a CPA goal, meets it or misses it, and shows the baseline and the account median beside it', () => {
    // $40 a day for 3 results: CPA $13.33.
    const met = run([campaign('Met', {}, { goal: { kind: 'CPA', target: 20, source: 'campaign' } })]);
    expect(goalIssue(met.issues)).toBeUndefined();
    expect(checkOf(met.goalChecks, 'Met')).toMatchObject({ status: 'MET', metric: 'CPA', actual: 13.33 });
    expect(met.summary).toContain('Meets its target CPA of $20.00');
    const missed = run([campaign('Missed', {}, { goal: { kind: 'CPA', target: 10, source: 'campaign' } })]);
    expect(goalIssue(missed.issues)?.evidence).toMatchObject({ actual: 13.33, gap: 0.25, baseline: 13.33 });
    expect(goalIssue(missed.issues)?.severity).toBe('MEDIUM');

    const account = run(
      [campaign('Cheap', { cpm: () => 5 }), campaign('Mid', {}), campaign('Dear', { cpm: () => 20 })].map(
        (c) => ({ ...c, daily: c.daily, resultType: 'PURCHASE', goal: null }),
      ),
      true,
    );
    // ROAS without a goal (they track revenue): 9, 4.5, 2.25; the median is 4.5.
    expect(checkOf(account.goalChecks, 'Dear')).toMatchObject({
      status: 'NO_GOAL',
      actual: 2.25,
      accountMedian: 4.5,
    });
  });

  it('ranks a campaign burning money below target above a ROAS 9 campaign overspending a little', () => {
    // ROAS 9 ($120 per purchase), spending $40 a day on a $30 budget: 133% of budget.
    const star = campaign(
      'Star',
      { value: 120 },
      { dailyBudget: 30, goal: { kind: 'ROAS', target: 2, source: 'account' } },
    );
    const burner = campaign(
      'Burner',
      { value: 10 },
      { goal: { kind: 'ROAS', target: 2, source: 'account' } },
    );
    const content = run([star, burner], true);
    const pacing = content.issues.find((i) => i.type === 'PACING_ISSUE');
    expect(pacing?.campaignId).toBe(star.id);
    expect(pacing?.severity).toBe('LOW');
    expect(content.issues[0]).toMatchObject({ type: 'GOAL_MISSED', campaignId: burner.id });
    expect(content.summary).toContain('Most at risk: “Burner”');
    expect(content.summary).toContain('1 campaign below its goal, $175.00 of spend short of the goal');

    // Without goals: the ROAS 9 overspend still stays below the campaign losing money.
    const ungoverned = run(
      [
        { ...star, goal: null },
        { ...burner, goal: null },
      ],
      true,
    );
    expect(ungoverned.issues[0]).toMatchObject({ type: 'GOAL_MISSED', campaignId: burner.id });
    expect(ungoverned.issues.find((i) => i.type === 'PACING_ISSUE')?.severity).toBe('LOW');
  });

  it('labels a low-volume campaign "not enough data" with what is missing, instead of staying silent', () => {
    // One purchase every 4 days: 7 in 28 days.
    const slow = campaign(
      'Slow',
      { cvr: (d) => (d % 4 === 0 ? 1 / 60 : 0) },
      { goal: { kind: 'CPA', target: 200, source: 'account' } },
    );
    const content = run([slow]);
    const check = checkOf(content.goalChecks, 'Slow');
    expect(check).toMatchObject({ status: 'NOT_ENOUGH_DATA', results: 7, resultsNeeded: 10 });
    expect(check.dateRange).toEqual({ from: addDays(TODAY, -29), to: addDays(TODAY, -2) });
    expect(check.notEnoughData).toBe('7 of 10 results needed; about 12 more days at this rate');
    expect(content.summary).toContain('Not enough data to judge its cost per result: 7 of 10 results needed');
    expect(goalIssue(content.issues)).toBeUndefined();
  });

  it('pools 28 days when the range has too few results, and judges the pooled cost per result', () => {
    // One purchase every other day: 2-3 in the range's judged days, 14 over the 28 pooled days, at $80 each.
    const pooled = campaign(
      'Pooled',
      { cvr: (d) => (d % 2 === 0 ? 1 / 60 : 0) },
      { goal: { kind: 'CPA', target: 40, source: 'campaign' } },
    );
    const content = run([pooled]);
    const check = checkOf(content.goalChecks, 'Pooled');
    expect(check).toMatchObject({ status: 'MISSED', results: 14, actual: 80, gap: 0.5 });
    expect(check.dateRange.from).toBe(addDays(TODAY, -29));
    expect(goalIssue(content.issues)?.description).toContain('over Jan 31–Feb 27');
  });

  it('calls a campaign that spent what ten results cost at the target, with fewer results, a miss however few', () => {
    const none = campaign(
      'Nothing',
      { cvr: () => 0 },
      { goal: { kind: 'CPA', target: 20, source: 'campaign' } },
    );
    const content = run([none]);
    expect(checkOf(content.goalChecks, 'Nothing')).toMatchObject({ status: 'MISSED', actual: null, gap: 1 });
    expect(goalIssue(content.issues)?.severity).toBe('HIGH');
  });
});
