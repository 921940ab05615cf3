// Which campaign carries which injected problem, and the ground truth derived from it. The
// assignment is seeded, so accuracy can be measured on seeds the detectors were not tuned on.

import { Rng } from './prng';
import { dateOfDay } from './time';
import type { GroundTruthEntry } from './types';
import {
  PROBLEM_CATEGORIES,
  type Campaign,
  type ProblemCategory,
  type Scenario,
  type World,
} from './world/types';

/** Earliest start for a campaign to carry a problem: it needs 60+ days of clean baseline. */
export const INJECTION_MIN_HISTORY_DAYS = 75;

/** Days before `today` a problem may start: recent enough for a 7–14 day window, old enough to show. */
const SINCE_RANGE: Record<ProblemCategory, [number, number]> = {
  CREATIVE_FATIGUE: [11, 22],
  AUDIENCE_SATURATION: [11, 22],
  AUCTION_OVERLAP: [9, 20],
  PACING_ISSUE: [8, 20],
  CPA_DEGRADATION: [10, 21],
  LEARNING_PHASE_STALL: [9, 22],
};

/**
 * Picks the problem campaigns among the eligible ones: at least 8 per category (6% of the
 * eligible campaigns when there are many), one category per campaign, the rest healthy.
 */
export function assignScenarios(seed: number, todayDay: number, eligible: Campaign[]): void {
  const rng = Rng.of(seed, 'scenario-assignment');
  const shuffled = rng.shuffle(eligible);
  const perCategory = Math.max(8, Math.round(eligible.length * 0.06));
  let index = 0;
  for (let round = 0; round < perCategory; round++) {
    for (const category of PROBLEM_CATEGORIES) {
      const campaign = shuffled[index++];
      if (!campaign) return;
      campaign.scenario = drawScenario(seed, campaign.key, category, todayDay);
    }
  }
}

function drawScenario(
  seed: number,
  campaignKey: number,
  category: ProblemCategory,
  todayDay: number,
): Scenario {
  const rng = Rng.of(seed, 'scenario', campaignKey);
  const [minAgo, maxAgo] = SINCE_RANGE[category];
  const since = todayDay - rng.int(minAgo, maxAgo);
  switch (category) {
    case 'CREATIVE_FATIGUE':
      // magnitude: CTR drop at full effect; magnitude2: daily frequency reached.
      return {
        category,
        since,
        ramp: rng.int(4, 8),
        magnitude: rng.range(0.3, 0.55),
        magnitude2: rng.range(3.2, 5),
        variant: 'adset',
      };
    case 'AUDIENCE_SATURATION':
      // magnitude: CPM rise; magnitude2: daily frequency reached.
      return {
        category,
        since,
        ramp: rng.int(4, 8),
        magnitude: rng.range(0.3, 0.65),
        magnitude2: rng.range(2.6, 4),
        variant: 'narrow',
      };
    case 'AUCTION_OVERLAP':
      // magnitude: CPM rise; magnitude2: share of budget left unspent.
      return {
        category,
        since,
        ramp: rng.int(2, 4),
        magnitude: rng.range(0.3, 0.6),
        magnitude2: rng.range(0.28, 0.45),
        variant: 'duplicate',
      };
    case 'PACING_ISSUE': {
      // Meta's weekly cap (7× the daily budget a calendar week) leaves no week-long overspend to
      // inject, so every pacing problem under-delivers. The old draw is kept so nothing else moves.
      rng.chance(0.25);
      // magnitude: spend as a share of the daily budget.
      return {
        category,
        since,
        ramp: rng.int(1, 3),
        magnitude: rng.range(0.3, 0.55),
        magnitude2: 0,
        variant: 'under',
      };
    }
    case 'CPA_DEGRADATION':
      // magnitude: CPA rise at full effect (through conversion rate only).
      return {
        category,
        since,
        ramp: rng.int(3, 7),
        magnitude: rng.range(0.45, 0.95),
        magnitude2: 0,
        variant: 'cvr',
      };
    case 'LEARNING_PHASE_STALL': {
      const variant = `${rng.chance(0.5) ? 'budget_cut' : 'new_adset'}:${rng.chance(0.65) ? 'FAIL' : 'LEARNING'}`;
      // magnitude: budget as a multiple of target CPA after the edit; magnitude2: extra CPA volatility.
      return {
        category,
        since,
        ramp: 1,
        magnitude: rng.range(0.9, 2.1),
        magnitude2: rng.range(0.15, 0.3),
        variant,
      };
    }
  }
}

/** The ground truth of a generated world (never served over HTTP). */
export function worldGroundTruth(world: World): GroundTruthEntry[] {
  const out: GroundTruthEntry[] = [];
  for (const account of world.accounts) {
    for (const campaign of account.campaigns) {
      if (!campaign.evaluated) continue;
      const scenario = campaign.scenario;
      const entry: GroundTruthEntry = {
        platformAccountId: `act_${account.accountId}`,
        platformCampaignId: campaign.id,
        category: scenario ? scenario.category : 'HEALTHY',
        since: dateOfDay(scenario ? scenario.since : Math.max(campaign.startDay, world.firstDay)),
      };
      const target =
        scenario?.adSetKey === undefined
          ? undefined
          : campaign.adSets.find((s) => s.key === scenario.adSetKey);
      if (target) entry.platformAdSetId = target.id;
      out.push(entry);
    }
  }
  return out;
}
