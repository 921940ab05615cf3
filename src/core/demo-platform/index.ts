// The demo platform: a local Graph API (Marketing API subset) serving a seeded synthetic agency,
// with injected problems whose ground truth is available to tests (never over HTTP).

import { DeliveryModel } from './delivery';
import { resultCount } from './results';
import { worldGroundTruth } from './scenarios';
import { dayNumber } from './time';
import { startServer, type DemoPlatform, type StartDemoPlatformOptions } from './server';
import type { GroundTruthEntry } from './types';
import { generateWorld } from './world/generate';

export { DEMO_TOKEN, type DemoControls, type GroundTruthEntry, type ThrottleCode } from './types';
export { API_VERSION, type DemoPlatform, type StartDemoPlatformOptions } from './server';
export { generateWorld, HISTORY_DAYS, DEFAULT_LARGE_ACCOUNT_CAMPAIGNS } from './world/generate';
export type { World, GenerateWorldOptions, ProblemCategory, ScenarioCategory } from './world/types';

export function startDemoPlatform(opts: StartDemoPlatformOptions = {}): Promise<DemoPlatform> {
  return startServer(opts);
}

/** Which campaign has which problem since when, for the same seed and today as the server. */
export function groundTruth(opts: {
  seed: number;
  today: string;
  largeAccountCampaigns?: number;
}): GroundTruthEntry[] {
  return worldGroundTruth(generateWorld(opts));
}

export interface ResultTruth {
  resultKind: string;
  /** "Custom conversion: <name>" needs the name the platform gives its custom conversion. */
  customConversionName: string | null;
  results: number;
  /** Spend in the account currency's minor unit. */
  spendMinor: number;
}

/** Results and spend of a campaign over an inclusive date range, as the platform counts them. */
export function resultTruth(
  opts: { seed: number; today: string; largeAccountCampaigns?: number },
  platformCampaignId: string,
  since: string,
  until: string,
): ResultTruth {
  const world = generateWorld(opts);
  const node = world.nodes.get(platformCampaignId);
  if (node?.kind !== 'campaign') throw new RangeError(`no campaign ${platformCampaignId}`);
  const campaign = node.campaign;
  const model = new DeliveryModel(world);
  let results = 0;
  let spendMinor = 0;
  for (let day = dayNumber(since); day <= dayNumber(until); day++) {
    const m = model.campaignDay(campaign, day);
    if (!m) continue;
    results += resultCount(campaign.resultKind, m);
    spendMinor += m.spend;
  }
  return {
    resultKind: campaign.resultKind,
    customConversionName: campaign.customConversion?.name ?? null,
    results,
    spendMinor,
  };
}
