import { describe, expect, it } from 'vitest';
import { groundTruth } from '../index';
import { DeliveryModel } from '../delivery';
import { learningStageInfo } from '../learning';
import { dayNumber } from '../time';
import { generateWorld } from './generate';
import { PROBLEM_CATEGORIES } from './types';

const today = '2026-11-22';

describe('generateWorld', () => {
  it('builds the agency layout: businesses, currencies, permissions, statuses', () => {
    const world = generateWorld({ seed: 1, today });
    expect(world.businesses.length).toBeGreaterThanOrEqual(3);
    expect(world.accounts.length).toBeGreaterThanOrEqual(4);
    expect(world.accounts.length).toBeLessThanOrEqual(6);
    const currencies = new Set(world.accounts.map((a) => a.currency));
    for (const c of ['USD', 'EUR', 'GBP', 'JPY']) expect(currencies).toContain(c);
    expect(new Set(world.accounts.map((a) => a.timezone)).size).toBeGreaterThanOrEqual(4);
    expect(
      world.accounts.filter((a) => !a.userTasks.includes('MANAGE') && !a.userTasks.includes('ADVERTISE')),
    ).toHaveLength(1);
    expect(world.accounts.filter((a) => a.accountStatus === 2)).toHaveLength(1);
    const [large, ...others] = world.accounts;
    expect(large?.campaigns).toHaveLength(120);
    for (const a of others) expect(a.campaigns.length).toBeLessThanOrEqual(20);
    const adSets = large?.campaigns.flatMap((c) => c.adSets) ?? [];
    const ads = adSets.flatMap((s) => s.ads);
    expect(adSets.length / 120).toBeGreaterThan(2.4);
    expect(ads.length / 120).toBeGreaterThan(7);
    const jpy = world.accounts.find((a) => a.currency === 'JPY');
    expect(jpy?.minorPerMajor).toBe(1);
  });

  it('is deterministic for a seed and differs between seeds', () => {
    const summary = (seed: number): string =>
      JSON.stringify(
        generateWorld({ seed, today }).accounts.map((a) => [
          a.accountId,
          a.name,
          a.campaigns.map((c) => [
            c.id,
            c.name,
            c.status,
            c.dailyBudgetMinor,
            c.adSets.map((s) => [s.id, s.dailyBudgetMinor, s.targeting]),
          ]),
        ]),
      );
    expect(summary(7)).toBe(summary(7));
    expect(summary(7)).not.toBe(summary(8));
  });

  it('mixes budgets and bidding: CBO and ABO, cost caps, paused and removed objects', () => {
    const world = generateWorld({ seed: 3, today });
    const campaigns = world.accounts.flatMap((a) => a.campaigns);
    expect(campaigns.some((c) => c.budgetMode === 'CBO')).toBe(true);
    expect(campaigns.some((c) => c.budgetMode === 'ABO')).toBe(true);
    const adSets = campaigns.flatMap((c) => c.adSets);
    expect(adSets.some((s) => s.bidStrategy === 'COST_CAP' && s.bidAmountMinor !== null)).toBe(true);
    for (const status of ['PAUSED', 'ARCHIVED', 'DELETED'])
      expect(campaigns.some((c) => c.status === status)).toBe(true);
  });

  // Its speed is measured by the sync bench (the 1,000-campaign sync), not timed here.
  it('generates a 1,000-campaign account', () => {
    const world = generateWorld({ seed: 2, today, largeAccountCampaigns: 1000 });
    expect(world.accounts[0]?.campaigns).toHaveLength(1000);
  });
});

describe('groundTruth', () => {
  it.each([1, 2, 31])('covers all six categories (6+ each) and 20+ healthy controls for seed %i', (seed) => {
    const truth = groundTruth({ seed, today });
    for (const category of PROBLEM_CATEGORIES)
      expect(truth.filter((e) => e.category === category).length).toBeGreaterThanOrEqual(6);
    expect(truth.filter((e) => e.category === 'HEALTHY').length).toBeGreaterThanOrEqual(20);
    expect(new Set(truth.map((e) => e.platformCampaignId)).size).toBe(truth.length);
    const t = dayNumber(today);
    for (const e of truth) {
      expect(e.platformAccountId).toMatch(/^act_\d+$/);
      if (e.category === 'HEALTHY') continue;
      const ago = t - dayNumber(e.since);
      expect(ago).toBeGreaterThanOrEqual(7);
      expect(ago).toBeLessThanOrEqual(30);
    }
  });

  it('assigns problems to different campaigns for different seeds', () => {
    const problems = (seed: number): string[] =>
      groundTruth({ seed, today })
        .filter((e) => e.category !== 'HEALTHY')
        .map((e) => `${e.platformCampaignId.slice(-7)}:${e.category}`);
    expect(problems(4)).not.toEqual(problems(5));
  });

  it('keeps learning info coherent: only injected stalls are stuck past 7 days', () => {
    const world = generateWorld({ seed: 9, today });
    const model = new DeliveryModel(world);
    const stuck: string[] = [];
    for (const c of world.accounts.flatMap((a) => a.campaigns)) {
      for (const s of c.adSets) {
        const info = learningStageInfo(model, s);
        if (info && info.status !== 'SUCCESS' && world.todayDay - s.lastSigEditDay >= 7) stuck.push(s.id);
        if (info?.status === 'SUCCESS') expect(info.conversions).toBeGreaterThanOrEqual(50);
      }
    }
    const stalls = groundTruth({ seed: 9, today }).filter((e) => e.category === 'LEARNING_PHASE_STALL');
    expect(stuck.sort()).toEqual(stalls.map((e) => e.platformAdSetId).sort());
  });
});
