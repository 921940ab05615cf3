// Parsing and validating /insights parameters (zod for the JSON ones) into an InsightsQuery.

import { z } from 'zod';
import { invalidParameter } from './errors';
import { dateOfDay, dayNumber } from './time';
import type { Account, Ad, AdSet, Campaign, World } from './world/types';

export type Level = 'account' | 'campaign' | 'adset' | 'ad';
export const LEVEL_RANK: Record<Level, number> = { account: 0, campaign: 1, adset: 2, ad: 3 };

export type Scope =
  | { kind: 'account'; account: Account }
  | { kind: 'campaign'; account: Account; campaign: Campaign }
  | { kind: 'adset'; account: Account; adSet: AdSet }
  | { kind: 'ad'; account: Account; ad: Ad };

export interface EntityFilter {
  level: Level;
  field: 'id' | 'effective_status';
  values: Set<string>;
  negate: boolean;
}

export interface InsightsQuery {
  level: Level;
  fields: string[];
  since: number;
  until: number;
  increment: number | 'monthly' | 'all_days';
  filters: EntityFilter[];
  windows: string[];
}

/** Fields the demo platform computes. */
export const INSIGHT_FIELDS = new Set([
  'account_id',
  'account_name',
  'account_currency',
  'campaign_id',
  'campaign_name',
  'adset_id',
  'adset_name',
  'ad_id',
  'ad_name',
  'objective',
  'optimization_goal',
  'buying_type',
  'attribution_setting',
  'spend',
  'impressions',
  'reach',
  'frequency',
  'clicks',
  'inline_link_clicks',
  'inline_link_click_ctr',
  'cost_per_inline_link_click',
  'ctr',
  'cpm',
  'cpc',
  'cpp',
  'actions',
  'action_values',
  'cost_per_action_type',
  'purchase_roas',
  'website_purchase_roas',
  'date_start',
  'date_stop',
]);

/** Real Meta fields the demo platform knows but has no data for: omitted from rows, like Meta does. */
const KNOWN_WITHOUT_DATA = new Set([
  'unique_clicks',
  'unique_ctr',
  'unique_inline_link_clicks',
  'unique_actions',
  'cost_per_unique_click',
  'cost_per_unique_action_type',
  'outbound_clicks',
  'outbound_clicks_ctr',
  'cost_per_outbound_click',
  'conversions',
  'conversion_values',
  'cost_per_conversion',
  'mobile_app_purchase_roas',
  'quality_ranking',
  'engagement_rate_ranking',
  'conversion_rate_ranking',
  'video_p25_watched_actions',
  'video_p50_watched_actions',
  'video_p75_watched_actions',
  'video_p100_watched_actions',
  'video_play_actions',
  'video_thruplay_watched_actions',
  'video_avg_time_watched_actions',
  'full_view_impressions',
  'full_view_reach',
  'social_spend',
  'estimated_ad_recallers',
  'created_time',
  'updated_time',
]);

const DEFAULT_FIELDS = ['account_id', 'impressions', 'spend'];
const WINDOWS = new Set(['1d_click', '7d_click', '28d_click', '1d_view', '1d_ev', 'dda', 'default']);

const timeRangeSchema = z.object({
  since: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  until: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});
const filteringSchema = z.array(
  z.object({
    field: z.string(),
    operator: z.string(),
    value: z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))]),
  }),
);
const stringListSchema = z.array(z.string());

function parseJson(raw: string, what: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw invalidParameter(`${what} must be valid JSON`);
  }
}

/** A JSON array or a comma list (both are seen on the wire). */
export function parseList(raw: string | undefined, what: string): string[] | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw.trim().startsWith('[')) {
    const parsed = stringListSchema.safeParse(parseJson(raw, what));
    if (!parsed.success) throw invalidParameter(`${what} must be a list of strings`);
    return parsed.data;
  }
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function presetRange(preset: string, world: World): [number, number] {
  const t = world.todayDay;
  const last = (n: number): [number, number] => [t - n, t - 1];
  const today = dateOfDay(t);
  const monthStart = dayNumber(`${today.slice(0, 7)}-01`);
  switch (preset) {
    case 'today':
      return [t, t];
    case 'yesterday':
      return [t - 1, t - 1];
    case 'last_3d':
      return last(3);
    case 'last_7d':
      return last(7);
    case 'last_14d':
      return last(14);
    case 'last_28d':
      return last(28);
    case 'last_30d':
      return last(30);
    case 'last_90d':
      return last(90);
    case 'this_month':
      return [monthStart, t];
    case 'last_month': {
      const prevStart = dayNumber(`${dateOfDay(monthStart - 1).slice(0, 7)}-01`);
      return [prevStart, monthStart - 1];
    }
    case 'maximum':
    case 'data_maximum':
    case 'lifetime':
      return [world.firstDay, t];
    default:
      throw invalidParameter(
        `date_preset must be one of the following values: today, yesterday, last_3d, last_7d, last_14d, last_28d, last_30d, last_90d, this_month, last_month, maximum`,
      );
  }
}

function parseFilters(raw: string | undefined): EntityFilter[] {
  if (raw === undefined || raw === '') return [];
  const parsed = filteringSchema.safeParse(parseJson(raw, 'filtering'));
  if (!parsed.success) throw invalidParameter('filtering must be an array of {field, operator, value}');
  const out: EntityFilter[] = [];
  for (const f of parsed.data) {
    const match = /^(campaign|adset|ad)\.(id|effective_status)$/.exec(f.field);
    if (!match) {
      // Metric thresholds such as ad.impressions > 0 are implied: rows without delivery never appear.
      if (/^((campaign|adset|ad)\.)?(impressions|spend|reach|clicks)$/.test(f.field)) continue;
      throw invalidParameter(
        `Filtering field ${f.field} is invalid. Please choose from campaign.id, adset.id, ad.id, campaign.effective_status, adset.effective_status, ad.effective_status.`,
      );
    }
    const values = (Array.isArray(f.value) ? f.value : [f.value]).map(String);
    const op = f.operator.toUpperCase();
    if (!['IN', 'NOT_IN', 'EQUAL', 'NOT_EQUAL'].includes(op))
      throw invalidParameter(`Filtering operator ${f.operator} is not supported here`);
    out.push({
      level: match[1] as Level,
      field: match[2] as 'id' | 'effective_status',
      values: new Set(values),
      negate: op.startsWith('NOT'),
    });
  }
  return out;
}

export function parseInsightsQuery(params: URLSearchParams, scope: Scope, world: World): InsightsQuery {
  const levelRaw = params.get('level') ?? scope.kind;
  if (!(levelRaw in LEVEL_RANK))
    throw invalidParameter('level must be one of the following values: ad, adset, campaign, account');
  let level = levelRaw as Level;
  if (LEVEL_RANK[level] < LEVEL_RANK[scope.kind]) level = scope.kind;

  const fields = parseList(params.get('fields') ?? undefined, 'fields') ?? DEFAULT_FIELDS;
  for (const f of fields) {
    if (!INSIGHT_FIELDS.has(f) && !KNOWN_WITHOUT_DATA.has(f)) {
      throw invalidParameter(
        `${f} is not valid for fields param. please check https://developers.facebook.com/docs/marketing-api/reference/ads-insights/ for all valid values`,
      );
    }
  }
  for (const name of ['breakdowns', 'time_ranges']) {
    const v = params.get(name);
    if (v && v !== '[]') throw invalidParameter(`${name} is not supported by the demo platform`);
  }

  let since: number;
  let until: number;
  const range = params.get('time_range');
  if (range) {
    const parsed = timeRangeSchema.safeParse(parseJson(range, 'time_range'));
    if (!parsed.success)
      throw invalidParameter('time_range must be {"since":"YYYY-MM-DD","until":"YYYY-MM-DD"}');
    since = dayNumber(parsed.data.since);
    until = dayNumber(parsed.data.until);
    if (Number.isNaN(since) || Number.isNaN(until) || since > until)
      throw invalidParameter('time_range since must be on or before until', 1487534);
  } else {
    [since, until] = presetRange(params.get('date_preset') ?? 'last_30d', world);
  }

  const incRaw = params.get('time_increment') ?? 'all_days';
  let increment: InsightsQuery['increment'];
  if (incRaw === 'all_days' || incRaw === 'monthly') increment = incRaw;
  else {
    const n = Number(incRaw);
    if (!Number.isInteger(n) || n < 1 || n > 90)
      throw invalidParameter('time_increment must be an integer between 1 and 90, monthly or all_days');
    increment = n;
  }

  const windows =
    parseList(params.get('action_attribution_windows') ?? undefined, 'action_attribution_windows') ?? [];
  for (const w of windows)
    if (!WINDOWS.has(w)) throw invalidParameter(`action_attribution_windows value ${w} is not supported`);
  return {
    level,
    fields,
    since,
    until,
    increment,
    filters: parseFilters(params.get('filtering') ?? undefined),
    windows,
  };
}

/** The [start, stop] day pairs rows are bucketed into. */
export function buckets(q: InsightsQuery): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  if (q.increment === 'all_days') return [[q.since, q.until]];
  if (q.increment === 'monthly') {
    let start = q.since;
    while (start <= q.until) {
      const month = dateOfDay(start).slice(0, 7);
      let end = start;
      while (end + 1 <= q.until && dateOfDay(end + 1).slice(0, 7) === month) end++;
      out.push([start, end]);
      start = end + 1;
    }
    return out;
  }
  for (let start = q.since; start <= q.until; start += q.increment)
    out.push([start, Math.min(q.until, start + q.increment - 1)]);
  return out;
}
