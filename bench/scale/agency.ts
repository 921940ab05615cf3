// The agency of the scale bench, engine-neutral: a deterministic generator of accounts, campaigns, ad
// sets and their daily insights that any loader (SQLite today, PostgreSQL later) writes in bulk.
// Sizes follow issue 18 item 7 (500 accounts, 50,000 campaigns, 200,000 ad sets, two years of
// campaign days, 90 days of ad-set days); ADLENS_SCALE shrinks the account count for development.
import type { InsightMetrics } from '../../src/core/platform/parse';

export interface AgencyShape {
  accounts: number;
  campaignsPerAccount: number;
  adSetsPerCampaign: number;
  campaignDays: number;
  adSetDays: number;
  /** The last day with insights (UTC date); accounts ahead of UTC are at most a day later. */
  today: string;
}

export function agencyShape(scale: number, today: string): AgencyShape {
  return {
    accounts: Math.max(4, Math.round(500 * scale)),
    campaignsPerAccount: 100,
    adSetsPerCampaign: 4,
    campaignDays: 730,
    adSetDays: 90,
    today,
  };
}

/** Several currencies and time zones, as an agency's clients have (the workspace summary must cope). */
const MARKETS = [
  { currency: 'USD', timezone: 'America/New_York' },
  { currency: 'USD', timezone: 'America/Los_Angeles' },
  { currency: 'EUR', timezone: 'Europe/Berlin' },
  { currency: 'USD', timezone: 'UTC' },
  { currency: 'GBP', timezone: 'Europe/London' },
  { currency: 'JPY', timezone: 'Asia/Tokyo' },
] as const;

const OBJECTIVES = ['OUTCOME_SALES', 'OUTCOME_LEADS', 'OUTCOME_TRAFFIC', 'OUTCOME_AWARENESS'] as const;
const RESULT_TYPES: Record<(typeof OBJECTIVES)[number], string> = {
  OUTCOME_SALES: 'PURCHASE',
  OUTCOME_LEADS: 'LEAD',
  OUTCOME_TRAFFIC: 'LINK_CLICKS',
  OUTCOME_AWARENESS: 'REACH',
};

export interface GeneratedAccount {
  index: number;
  platformAccountId: string;
  name: string;
  currency: string;
  timezone: string;
}

export interface GeneratedCampaign {
  index: number;
  platformCampaignId: string;
  name: string;
  status: 'ACTIVE' | 'PAUSED';
  objective: string;
  resultType: string;
  dailyBudgetMicros: number;
  createdTime: string;
}

export interface GeneratedAdSet {
  index: number;
  platformAdSetId: string;
  name: string;
  dailyBudgetMicros: number;
}

/** One day of one campaign or ad set, in the store's units (money in integer micros): a synced row's. */
export type GeneratedDay = InsightMetrics;

/** A small, fast, seedable PRNG (mulberry32): the same agency on every run and engine. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY_MS = 86_400_000;

/** The `count` dates ending on `today`, oldest first. */
export function datesEnding(today: string, count: number): string[] {
  const end = Date.parse(`${today}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) =>
    new Date(end - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
}

export function account(index: number): GeneratedAccount {
  const market = MARKETS[index % MARKETS.length] as (typeof MARKETS)[number];
  return {
    index,
    platformAccountId: `act_${String(9_000_000_000 + index)}`,
    name: `Client ${String(index + 1).padStart(3, '0')}`,
    currency: market.currency,
    timezone: market.timezone,
  };
}

export function campaign(accountIndex: number, index: number, today: string): GeneratedCampaign {
  const r = rng(accountIndex * 1000 + index + 1);
  const objective = OBJECTIVES[Math.floor(r() * OBJECTIVES.length)] as (typeof OBJECTIVES)[number];
  const createdDaysAgo = 60 + Math.floor(r() * 700);
  return {
    index,
    platformCampaignId: `238${String(accountIndex).padStart(4, '0')}${String(index).padStart(6, '0')}`,
    // Names repeat across accounts (agencies reuse naming schemes): the list's sort must stay stable.
    name: `${['Prospecting', 'Retargeting', 'Brand', 'Catalog', 'Leads'][index % 5]} ${String(index).padStart(3, '0')} ${objective.slice(8)}`,
    status: r() < 0.7 ? 'ACTIVE' : 'PAUSED',
    objective,
    resultType: RESULT_TYPES[objective],
    dailyBudgetMicros: (20 + Math.floor(r() * 480)) * 1_000_000,
    createdTime: `${new Date(Date.parse(`${today}T00:00:00Z`) - createdDaysAgo * DAY_MS).toISOString().slice(0, 10)}T09:00:00+0000`,
  };
}

export function adSet(accountIndex: number, campaignIndex: number, index: number): GeneratedAdSet {
  return {
    index,
    platformAdSetId: `239${String(accountIndex).padStart(4, '0')}${String(campaignIndex).padStart(4, '0')}${index}`,
    name: `Ad set ${index + 1}`,
    dailyBudgetMicros: (5 + ((campaignIndex * 7 + index * 3) % 95)) * 1_000_000,
  };
}

/**
 * Daily rows of one campaign (or, with `share`, of one of its ad sets): a seeded, noisy level per
 * campaign so sorts and sums see varied values. `sink` gets each day; the row object is reused.
 */
export function days(
  seed: number,
  dates: readonly string[],
  share: number,
  sink: (day: GeneratedDay) => void,
): void {
  const r = rng(seed);
  const level = 20 + r() * 400;
  const cpm = 4 + r() * 12;
  const ctr = 0.006 + r() * 0.02;
  const cvr = 0.01 + r() * 0.05;
  const day: GeneratedDay = {
    date: '',
    spendMicros: 0,
    impressions: 0,
    clicks: 0,
    linkClicks: 0,
    conversions: 0,
    revenueMicros: 0,
    reach: 0,
    frequency: 0,
  };
  for (const date of dates) {
    const spend = level * share * (0.6 + r() * 0.8);
    const impressions = Math.max(1, Math.round((spend / cpm) * 1000));
    const clicks = Math.round(impressions * ctr);
    const reach = Math.max(1, Math.round(impressions / (1.1 + r() * 0.8)));
    day.date = date;
    day.spendMicros = Math.round(spend * 1_000_000);
    day.impressions = impressions;
    day.clicks = clicks;
    day.linkClicks = Math.round(clicks * 0.8);
    day.conversions = Math.round(clicks * cvr);
    day.revenueMicros = Math.round(day.conversions * (30 + r() * 60) * 1_000_000);
    day.reach = reach;
    day.frequency = Math.round((impressions / reach) * 10_000) / 10_000;
    sink(day);
  }
}
