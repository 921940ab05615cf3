import { readSetting, writeSetting } from '../settings/store';
import type { Sql } from '../store/sql';

/**
 * Accounts connected from the embedded demo platform are stored with this base URL rather than a
 * port that changes every run; each host resolves it to the demo platform it runs (or starts one).
 */
export const DEMO_BASE_URL = 'demo:';
export const DEMO_SEED_SETTING = 'demo_platform.seed';

export interface DemoPlatformEndpoint {
  url: string;
  apiVersion: string;
}

export type DemoPlatformSource = () => Promise<DemoPlatformEndpoint>;

export async function demoSeed(sql: Sql): Promise<number> {
  const value = await readSetting(sql, DEMO_SEED_SETTING);
  const seed = value === undefined ? NaN : Number(value);
  return Number.isInteger(seed) ? seed : 1;
}

export async function setDemoSeed(sql: Sql, seed: number): Promise<void> {
  await writeSetting(sql, DEMO_SEED_SETTING, String(seed));
}
