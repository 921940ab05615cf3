// The demo platform: a local Graph API (Marketing API subset) serving a seeded synthetic agency,
// with injected problems whose ground truth is available to tests (never over HTTP).

import { worldGroundTruth } from './scenarios';
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
