// Campaign rows → the campaign views (the spec's list and detail shapes). Dates of insight windows are calendar
// days in each account's timezone (the store keeps daily insights that way).
import type { z } from 'zod';
import type { Ad, AdSet, CampaignInsights, CampaignListItem } from '../../shared/api/campaigns';
import type { InsightsDateRange } from '../../shared/api/common';
import type { CampaignInsights as StoreInsights } from '../insights';
import { microsToAmount } from '../money';
import type { Sql } from '../store/sql';

export interface CampaignRow {
  id: string;
  account_id: string;
  platform_campaign_id: string;
  name: string;
  status: string;
  objective: string;
  buying_type: string;
  bid_strategy: string | null;
  daily_budget_micros: number | null;
  lifetime_budget_micros: number | null;
  special_ad_categories: string;
  created_time: string;
  updated_time: string;
  last_synced_at: string | null;
  result_type: string | null;
  result_name: string | null;
  currency: string;
  timezone: string;
}

const UTC_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/;

/** Platform timestamps ("2026-01-05T10:00:00+0000") as ISO 8601 UTC. */
export function isoUtc(value: string): string {
  // Meta's own form, in UTC (every campaign of a page has two): written out as it is. Days after the
  // 28th and hour 24 take the general path, where Date rolls "02-30" into March and "24:00" into the
  // next day.
  const utc = value.slice(0, 19);
  const plain = value.slice(8, 10) <= '28' && value.slice(11, 13) <= '23';
  if (plain && UTC_SECONDS.test(value) && !Number.isNaN(Date.parse(`${utc}Z`))) return `${utc}.000Z`;
  const normalized = value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const time = Date.parse(normalized);
  return Number.isNaN(time) ? value : new Date(time).toISOString();
}

const isoOrNull = (value: string | null): string | null => (value ? isoUtc(value) : null);

export function parseJsonArray(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}

export function campaignBase(row: CampaignRow) {
  return {
    id: row.id,
    platformCampaignId: row.platform_campaign_id,
    accountId: row.account_id,
    name: row.name,
    status: row.status,
    objective: row.objective,
    buyingType: row.buying_type,
    dailyBudget: row.daily_budget_micros === null ? null : microsToAmount(row.daily_budget_micros),
    lifetimeBudget: row.lifetime_budget_micros === null ? null : microsToAmount(row.lifetime_budget_micros),
    currency: row.currency,
    bidStrategy: row.bid_strategy,
    lastSyncedAt: isoOrNull(row.last_synced_at),
    createdAt: isoUtc(row.created_time),
    updatedAt: isoUtc(row.updated_time),
    resultType: row.result_type,
    resultName: row.result_name,
  };
}

/**
 * A campaign of the /v1 list: its base fields, copied by name, and the list's own. A list builds one
 * per line, and on Node 20's V8 `{ ...base, more }` costs microseconds and kilobytes an object (each
 * property added after a spread copies the clone's map; accounts/store.ts, accountViewOf).
 */
export function campaignListItemOf(
  row: CampaignRow,
  parts: Omit<CampaignListItem, keyof ReturnType<typeof campaignBase>>,
): CampaignListItem {
  const base = campaignBase(row);
  return {
    id: base.id,
    platformCampaignId: base.platformCampaignId,
    accountId: base.accountId,
    name: base.name,
    status: base.status,
    objective: base.objective,
    buyingType: base.buyingType,
    dailyBudget: base.dailyBudget,
    lifetimeBudget: base.lifetimeBudget,
    currency: base.currency,
    bidStrategy: base.bidStrategy,
    lastSyncedAt: base.lastSyncedAt,
    createdAt: base.createdAt,
    updatedAt: base.updatedAt,
    resultType: base.resultType,
    resultName: base.resultName,
    deliveryIssues: parts.deliveryIssues,
    adSetCount: parts.adSetCount,
    adCount: parts.adCount,
    insights: parts.insights,
    comparisonInsights: parts.comparisonInsights,
    latestDiagnostic: parts.latestDiagnostic,
  };
}

/** Totals as a campaign view shows them; `period`, a list item's dates over a chosen range. */
export function toInsights<R extends InsightsDateRange | 'custom'>(
  m: StoreInsights | undefined,
  range: R,
  period?: { from: string; to: string },
): Omit<z.infer<typeof CampaignInsights>, 'dateRange'> & {
  dateRange: R;
  period?: { from: string; to: string } | undefined;
} {
  return {
    spend: m?.spend ?? 0,
    impressions: m?.impressions ?? 0,
    clicks: m?.clicks ?? 0,
    conversions: m?.conversions ?? 0,
    cpa: m?.cpa ?? null,
    roas: m?.roas ?? null,
    ctr: m?.ctr ?? null,
    cpm: m?.cpm ?? null,
    dateRange: range,
    period,
  };
}

interface AdSetRow {
  id: string;
  platform_ad_set_id: string;
  name: string;
  status: string;
  learning_status: string | null;
  daily_budget_micros: number | null;
  targeting: string;
  optimization_goal: string | null;
  result_type: string | null;
  result_name: string | null;
  ad_count: number;
}

const GENDERS: Record<string, string> = { '1': 'male', '2': 'female' };

/** Meta's targeting spec (geo_locations.countries, age_min, genders [1|2]) or our camelCase form. */
export function targetingOf(text: string): AdSet['targeting'] {
  let raw: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      raw = parsed as Record<string, unknown>;
  } catch {
    // Unreadable targeting is shown as the platform's defaults below.
  }
  const geo = (raw.geo_locations ?? raw.geoLocations) as unknown;
  let countries: string[] = [];
  if (Array.isArray(geo)) countries = geo.map(String);
  else if (geo && typeof geo === 'object') {
    const list = (geo as Record<string, unknown>).countries;
    if (Array.isArray(list)) countries = list.map(String);
  }
  const int = (value: unknown, fallback: number) =>
    typeof value === 'number' && Number.isInteger(value) ? value : fallback;
  const genderList = raw.genders;
  let genders = ['all'];
  if (Array.isArray(genderList) && genderList.length === 1) {
    genders = [GENDERS[String(genderList[0])] ?? String(genderList[0])];
  }
  return {
    geoLocations: countries,
    ageMin: int(raw.age_min ?? raw.ageMin, 18),
    ageMax: int(raw.age_max ?? raw.ageMax, 65),
    genders,
  };
}

/** Meta's learning_stage_info: LEARNING → IN_LEARNING; SUCCESS and FAIL (learning limited) have left it. */
export function learningPhaseOf(status: string | null): AdSet['learningPhaseStatus'] {
  return status === 'LEARNING' || status === 'IN_LEARNING' ? 'IN_LEARNING' : 'EXITED';
}

export async function adSetsOf(sql: Sql, campaignId: string): Promise<AdSet[]> {
  const rows = await sql.all<AdSetRow>(
    `SELECT s.id, s.platform_ad_set_id, s.name, s.status, s.learning_status, s.daily_budget_micros, s.targeting,
         s.optimization_goal, s.result_type, s.result_name,
         (SELECT count(*) FROM ads d WHERE d.ad_set_id = s.id) AS ad_count
       FROM ad_sets s WHERE s.campaign_id = ? ORDER BY s.name, s.id`,
    [campaignId],
  );
  return rows.map((row) => ({
    id: row.id,
    platformAdSetId: row.platform_ad_set_id,
    name: row.name,
    status: row.status,
    learningPhaseStatus: learningPhaseOf(row.learning_status),
    dailyBudget: row.daily_budget_micros === null ? null : microsToAmount(row.daily_budget_micros),
    targeting: targetingOf(row.targeting),
    optimization: row.optimization_goal,
    adCount: row.ad_count,
    resultType: row.result_type,
    resultName: row.result_name,
  }));
}

interface AdRow {
  id: string;
  platform_ad_id: string;
  ad_set_id: string;
  name: string;
  status: string;
  creative_id: string | null;
  created_time: string;
  updated_time: string;
}

export async function adsOf(sql: Sql, campaignId: string): Promise<Ad[]> {
  const rows = await sql.all<AdRow>(
    `SELECT id, platform_ad_id, ad_set_id, name, status, creative_id, created_time, updated_time
       FROM ads WHERE campaign_id = ? ORDER BY ad_set_id, name, id`,
    [campaignId],
  );
  return rows.map((row) => ({
    id: row.id,
    platformAdId: row.platform_ad_id,
    adSetId: row.ad_set_id,
    name: row.name,
    status: row.status,
    creativeId: row.creative_id,
    createdAt: isoUtc(row.created_time),
    updatedAt: isoUtc(row.updated_time),
  }));
}
