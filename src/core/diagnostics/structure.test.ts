// Every impossible recommendation of issue 14 is refused by the structure check, and what Ads Manager
// allows passes: hand-built structures, one rule at a time.
import { describe, expect, it } from 'vitest';
import { budgetSteps, isPossible, type Change, type Structure } from './structure';

const M = 1_000_000;

function structure(opts: {
  cbo?: boolean;
  bidStrategy?: string | null;
  bidAmount?: number | null;
  advantagePlus?: 'SHOPPING' | 'APP' | null;
  advantageAudience?: boolean;
  blocked?: boolean;
}): Structure {
  const cbo = opts.cbo ?? false;
  const adSets = ['A', 'B'].map((name) => ({
    id: `adset_${name}`,
    name,
    campaignId: 'camp_1',
    dailyBudget: cbo ? null : 100 * M,
    lifetimeBudget: null,
    bidStrategy: opts.bidStrategy ?? null,
    bidAmount: opts.bidAmount ?? null,
    advantageAudience: opts.advantageAudience ?? false,
  }));
  return {
    campaigns: new Map([
      [
        'camp_1',
        {
          id: 'camp_1',
          name: 'Spring',
          campaignBudget: cbo,
          dailyBudget: cbo ? 200 * M : null,
          bidStrategy: opts.bidStrategy ?? null,
          advantagePlus: opts.advantagePlus ?? null,
          deliveryBlocked: opts.blocked ?? false,
          adSets,
        },
      ],
    ]),
    adSets: new Map(adSets.map((s) => [s.id, s])),
  };
}

const adSetBudget = (id: string, from: number, to: number): Change => ({
  level: 'adSet',
  id,
  name: id,
  field: 'daily_budget',
  from: from * M,
  to: to * M,
});

describe('structure check: budgets', () => {
  it('never moves budget between ad sets of a campaign with a campaign budget (CBO)', () => {
    const move = { changes: [adSetBudget('adset_A', 100, 80), adSetBudget('adset_B', 100, 120)] };
    const verdict = isPossible(move, structure({ cbo: true }));
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.reason).toMatch(/campaign budget/);
    expect(isPossible(move, structure({ cbo: false })).ok).toBe(true);
  });

  it('never raises an ad set budget in a CBO campaign, and never a campaign budget without one', () => {
    expect(isPossible({ changes: [adSetBudget('adset_A', 100, 120)] }, structure({ cbo: true })).ok).toBe(
      false,
    );
    const campaignRaise: Change = {
      level: 'campaign',
      id: 'camp_1',
      name: 'Spring',
      field: 'daily_budget',
      from: 200 * M,
      to: 240 * M,
    };
    expect(isPossible({ changes: [campaignRaise] }, structure({ cbo: true })).ok).toBe(true);
    expect(isPossible({ changes: [campaignRaise] }, structure({ cbo: false })).ok).toBe(false);
  });

  it('refuses a budget step beyond ±30% (a learning-limited ad set is never raised 7.6× at once)', () => {
    const s = structure({});
    const verdict = isPossible({ changes: [adSetBudget('adset_A', 10, 76)] }, s);
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.reason).toMatch(/660%/);
    expect(isPossible({ changes: [adSetBudget('adset_A', 100, 130)] }, s).ok).toBe(true);
    expect(isPossible({ changes: [adSetBudget('adset_A', 100, 65)] }, s).ok).toBe(false);
  });

  it('gives the first +20% step and the number of steps to a budget target', () => {
    expect(budgetSteps(10, 76)).toEqual({ firstStep: 12, steps: 12 });
    expect(budgetSteps(100, 120)).toEqual({ firstStep: 120, steps: 1 });
    expect(budgetSteps(100, 90).steps).toBe(0);
  });

  it('allows ad set spending limits only under a campaign budget', () => {
    const limit: Change = {
      level: 'adSet',
      id: 'adset_A',
      name: 'A',
      field: 'daily_spend_cap',
      from: null,
      to: 50 * M,
    };
    expect(isPossible({ changes: [limit] }, structure({ cbo: true })).ok).toBe(true);
    expect(isPossible({ changes: [limit] }, structure({ cbo: false })).ok).toBe(false);
  });
});

describe('structure check: bids', () => {
  const raise: Change = {
    level: 'adSet',
    id: 'adset_A',
    name: 'A',
    field: 'bid_amount',
    from: 10 * M,
    to: 12 * M,
  };
  it('never raises a bid cap that does not exist', () => {
    for (const strategy of [null, 'LOWEST_COST_WITHOUT_CAP']) {
      const verdict = isPossible({ changes: [raise] }, structure({ bidStrategy: strategy }));
      expect(verdict.ok).toBe(false);
      expect(!verdict.ok && verdict.reason).toMatch(/no bid or cost cap/);
    }
  });
  it('raises a cost cap or bid cap where one is set (on the ad set or, under CBO, the campaign)', () => {
    expect(
      isPossible({ changes: [raise] }, structure({ bidStrategy: 'COST_CAP', bidAmount: 10 * M })).ok,
    ).toBe(true);
    expect(
      isPossible({ changes: [raise] }, structure({ cbo: true, bidStrategy: 'LOWEST_COST_WITH_BID_CAP' })).ok,
    ).toBe(true);
  });
});

describe('structure check: Advantage+', () => {
  const broaden: Change = {
    level: 'adSet',
    id: 'adset_A',
    name: 'A',
    field: 'targeting',
    from: null,
    to: 'broader',
  };
  it('never broadens the audience inside an Advantage+ shopping or app campaign', () => {
    for (const kind of ['SHOPPING', 'APP'] as const) {
      const verdict = isPossible({ changes: [broaden] }, structure({ advantagePlus: kind }));
      expect(verdict.ok).toBe(false);
      expect(!verdict.ok && verdict.reason).toMatch(/Advantage\+/);
    }
  });
  it('never broadens an ad set that already uses Advantage+ audience, but allows exclusions there', () => {
    expect(isPossible({ changes: [broaden] }, structure({ advantageAudience: true })).ok).toBe(false);
    const exclude: Change = { ...broaden, field: 'excluded_audiences' };
    expect(isPossible({ changes: [exclude] }, structure({ advantageAudience: true })).ok).toBe(true);
    expect(isPossible({ changes: [broaden] }, structure({})).ok).toBe(true);
  });
});

describe('structure check: delivery blockers first', () => {
  it('offers no tuning on a campaign that cannot deliver, only the fix of its blocker', () => {
    const s = structure({ blocked: true });
    const creative: Change = {
      level: 'adSet',
      id: 'adset_A',
      name: 'A',
      field: 'creative',
      from: null,
      to: 'new ad',
    };
    expect(isPossible({ changes: [creative] }, s).ok).toBe(false);
    const review: Change = {
      level: 'ad',
      id: 'ad_1',
      name: 'X',
      field: 'review',
      from: 'DISAPPROVED',
      to: 'review',
    };
    expect(isPossible({ changes: [review], fixesDelivery: true }, s).ok).toBe(true);
  });
});
