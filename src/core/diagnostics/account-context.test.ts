// Account context before campaign blame: a tracking outage, a market-wide CPM move and a budget change
// are read across the account (or from the change history) before any campaign is blamed. The data
// is built here with shapes of their own, not taken from the demo platform.
import { describe, expect, it } from 'vitest';
import { DiagnosticDetailSchema } from '../../shared/api/diagnostics';
import { addDays } from '../clock';
import { DEFAULT_PROFILE, type Learned } from './andromeda';
import { diagnose } from './engine';
import { buildCampaign, step, type Shape } from '../../test-support/diagnostics-fixtures';
import type { CampaignData } from './types';

const TODAY = '2026-05-20';
const FROM = addDays(TODAY, -13);
const none: Learned = { profile: DEFAULT_PROFILE, customized: false, feedback: new Map() };
const flat =
  (v: number): Shape =>
  () =>
    v;

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
