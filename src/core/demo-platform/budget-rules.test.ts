// Meta's budget rules hold in the default demo world: a day spends at most 175% of the daily budget
// in force, and a calendar week (Sunday to Saturday) at most 7× it, for CBO campaigns and ad sets alike.
import { describe, expect, it } from 'vitest';
import { DeliveryModel } from './delivery';
import { weekday } from './time';
import { generateWorld } from './world/generate';
import type { AdSet, Campaign } from './world/types';

/** The budget in force on a day (minor units): the previous one before a recorded change. */
function adSetBudget(s: AdSet, day: number): number {
  return s.budgetChangeDay !== null && day < s.budgetChangeDay && s.previousBudgetMinor !== null
    ? s.previousBudgetMinor
    : (s.dailyBudgetMinor ?? 0);
}

describe('default demo world budget rules', () => {
  it.each([1, 211])(
    'seed %i: no day over 1.75× and no calendar week over 7× the daily budget in force',
    (seed) => {
      const world = generateWorld({ seed, today: '2026-03-15', largeAccountCampaigns: 40 });
      const model = new DeliveryModel(world);
      let weeksChecked = 0;
      for (const account of world.accounts) {
        for (const campaign of account.campaigns as Campaign[]) {
          const owners: { budget: (d: number) => number; spend: (d: number) => number }[] =
            campaign.budgetMode === 'CBO'
              ? [
                  {
                    budget: () => campaign.dailyBudgetMinor ?? 0,
                    spend: (d) => model.campaignDay(campaign, d)?.spend ?? 0,
                  },
                ]
              : campaign.adSets.map((s) => ({
                  budget: (d: number) => adSetBudget(s, d),
                  spend: (d: number) => model.adSetTotal(s, d)?.spend ?? 0,
                }));
          for (const owner of owners) {
            // Whole calendar weeks inside the history, Sunday first.
            let day = world.firstDay + ((7 - weekday(world.firstDay)) % 7);
            for (; day + 6 < world.todayDay; day += 7) {
              let week = 0;
              let cap = 0;
              for (let d = day; d < day + 7; d++) {
                const spend = owner.spend(d);
                // Rounding each ad's spend to a minor unit may add one unit per ad.
                expect(spend).toBeLessThanOrEqual(1.75 * owner.budget(d) + 10);
                week += spend;
                cap = Math.max(cap, 7 * owner.budget(d));
              }
              if (week > 0) weeksChecked += 1;
              expect(week).toBeLessThanOrEqual(cap + 10);
            }
          }
        }
      }
      expect(weeksChecked).toBeGreaterThan(500);
    },
  );
});
