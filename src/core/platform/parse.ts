import { z } from 'zod';
import { decimalToMicros, minorToMicros } from '../money';
import { resultAliases, resultSource, type ResultSpec } from './results';

// Graph responses, validated at the edge. Numbers arrive as strings (research §2, §3.2); absent
// metrics are omitted, so every metric is optional and defaults to zero.

const numericString = z.union([z.string(), z.number()]).transform((value) => String(value));
const optionalMinor = numericString.optional().nullable();

export const pagingSchema = z
  .object({
    cursors: z.object({ before: z.string().optional(), after: z.string().optional() }).optional(),
    next: z.string().optional(),
    previous: z.string().optional(),
  })
  .optional();

export const listEnvelope = z.object({ data: z.array(z.unknown()), paging: pagingSchema });

export const adAccountSchema = z.object({
  id: z.string().regex(/^act_\d+$/),
  account_id: z.string().optional(),
  name: z.string().default(''),
  currency: z.string().length(3),
  timezone_name: z.string().default('UTC'),
  account_status: z.coerce.number().default(1),
  disable_reason: z.coerce.number().optional(),
  spend_cap: optionalMinor,
  amount_spent: optionalMinor,
  business: z
    .object({ id: z.string(), name: z.string().default('') })
    .optional()
    .nullable(),
  user_tasks: z.array(z.string()).optional(),
});
export type PlatformAdAccount = z.infer<typeof adAccountSchema>;

export const AD_ACCOUNT_FIELDS =
  'id,account_id,name,currency,timezone_name,account_status,disable_reason,spend_cap,amount_spent,business,user_tasks';
export const BUSINESS_FIELDS = 'id,name';

/** account_status (research §2.1) → the spec's three states. */
export function accountStatus(code: number): 'active' | 'disabled' | 'closed' {
  if (code === 100 || code === 101 || code === 202) return 'closed';
  if (code === 1 || code === 9 || code === 201) return 'active';
  return 'disabled';
}

/**
 * The tasks (`user_tasks`) that let a token read an account's insights: Admin (MANAGE), Advertiser
 * (ADVERTISE) and Analyst ("view performance", ANALYZE). The app only reads, so any of them will do.
 */
export const READ_TASKS: readonly string[] = ['MANAGE', 'ADVERTISE', 'ANALYZE'];

/** Why this token cannot connect the account, or null when it can. */
export function connectRefusal(account: PlatformAdAccount): string | null {
  const tasks = account.user_tasks ?? [];
  if (tasks.some((task) => READ_TASKS.includes(task))) return null;
  const has = tasks.length > 0 ? `only ${tasks.join(', ')}` : 'no role';
  return `this token has ${has} on ${account.id}: reading performance needs Admin, Advertiser or Analyst access (MANAGE, ADVERTISE or ANALYZE)`;
}

export function canConnect(account: PlatformAdAccount): boolean {
  return connectRefusal(account) === null;
}

/** Admin or Advertiser: the accounts demo provisioning connects by itself (view-only ones are offered). */
export function managesAccount(account: PlatformAdAccount): boolean {
  return (account.user_tasks ?? []).some((task) => task === 'MANAGE' || task === 'ADVERTISE');
}

export const businessSchema = z.object({ id: z.string(), name: z.string().default('') });
export type PlatformBusiness = z.infer<typeof businessSchema>;

/** `debug_token`'s answer (times in unix seconds; 0 = never). */
export const tokenDebugSchema = z.object({
  data: z.object({
    type: z.string().optional(),
    is_valid: z.boolean().default(false),
    expires_at: z.coerce.number().optional(),
    data_access_expires_at: z.coerce.number().optional(),
    scopes: z.array(z.string()).default([]),
    user_id: z.string().optional(),
    profile_id: z.string().optional(),
  }),
});
export type PlatformTokenDebug = z.infer<typeof tokenDebugSchema>['data'];

export const campaignSchema = z.object({
  id: z.string(),
  name: z.string().default(''),
  status: z.string().default('ACTIVE'),
  effective_status: z.string().optional(),
  objective: z.string().default('UNKNOWN'),
  buying_type: z.string().default('AUCTION'),
  bid_strategy: z.string().optional().nullable(),
  daily_budget: optionalMinor,
  lifetime_budget: optionalMinor,
  special_ad_categories: z.array(z.string()).default([]),
  start_time: z.string().optional().nullable(),
  stop_time: z.string().optional().nullable(),
  created_time: z.string(),
  updated_time: z.string().optional(),
  /** AUTOMATED_SHOPPING_ADS / SMART_APP_PROMOTION: an Advantage+ campaign (Meta builds its audience). */
  smart_promotion_type: z.string().optional().nullable(),
});
export type PlatformCampaign = z.infer<typeof campaignSchema>;
export const CAMPAIGN_FIELDS =
  'id,name,status,effective_status,objective,buying_type,bid_strategy,daily_budget,lifetime_budget,special_ad_categories,start_time,stop_time,created_time,updated_time,smart_promotion_type';

/**
 * One of Meta's performance recommendations (Graph /act_{id}/recommendations, the items behind
 * Ads Manager's opportunity score). Read tolerantly: Meta adds types and content fields over time.
 */
export const platformRecommendationSchema = z
  .object({
    type: z.string().default('UNKNOWN'),
    recommendation_content: z
      .object({
        headline: z.string().optional(),
        title: z.string().optional(),
        body: z.string().optional(),
        lift_estimate: z.string().optional(),
        opportunity_score_lift: z.coerce.number().optional(),
      })
      .passthrough()
      .optional(),
    object_ids: z.array(z.coerce.string()).default([]),
    recommendation_signature: z.string().optional(),
  })
  .passthrough();
export type PlatformRecommendation = z.infer<typeof platformRecommendationSchema>;

/** Items of the recommendations edge: each entry is a recommendation, or groups them in `recommendations`. */
export function flattenRecommendations(items: readonly unknown[]): PlatformRecommendation[] {
  const out: PlatformRecommendation[] = [];
  for (const item of items) {
    const nested =
      item &&
      typeof item === 'object' &&
      Array.isArray((item as { recommendations?: unknown }).recommendations)
        ? (item as { recommendations: unknown[] }).recommendations
        : [item];
    for (const r of nested) {
      const parsed = platformRecommendationSchema.safeParse(r);
      if (parsed.success) out.push(parsed.data);
    }
  }
  return out;
}

export const adSetSchema = z.object({
  id: z.string(),
  campaign_id: z.string(),
  name: z.string().default(''),
  status: z.string().default('ACTIVE'),
  effective_status: z.string().optional(),
  daily_budget: optionalMinor,
  lifetime_budget: optionalMinor,
  bid_strategy: z.string().optional().nullable(),
  bid_amount: optionalMinor,
  billing_event: z.string().optional().nullable(),
  optimization_goal: z.string().optional().nullable(),
  promoted_object: z
    .object({
      custom_event_type: z.string().optional(),
      custom_conversion_id: numericString.optional(),
      application_id: numericString.optional(),
      pixel_id: numericString.optional(),
      page_id: numericString.optional(),
    })
    .passthrough()
    .optional()
    .nullable(),
  attribution_spec: z
    .array(z.object({ event_type: z.string(), window_days: z.coerce.number() }).passthrough())
    .optional()
    .nullable(),
  targeting: z.record(z.string(), z.unknown()).optional().nullable(),
  learning_stage_info: z
    .object({
      status: z.string(),
      conversions: z.coerce.number().default(0),
      last_sig_edit_ts: z.coerce.number().optional().nullable(),
    })
    .passthrough()
    .optional()
    .nullable(),
  created_time: z.string(),
  updated_time: z.string().optional(),
});
export type PlatformAdSet = z.infer<typeof adSetSchema>;
export const AD_SET_FIELDS =
  'id,campaign_id,name,status,effective_status,daily_budget,lifetime_budget,bid_strategy,bid_amount,billing_event,optimization_goal,promoted_object,attribution_spec,targeting,learning_stage_info,created_time,updated_time';

/** An ad's review errors and delivery issues as Meta lists them (issues_info). */
export const adIssuesSchema = z
  .array(
    z
      .object({
        error_code: z.coerce.number().optional(),
        error_summary: z.string().optional(),
        error_message: z.string().optional(),
        error_type: z.string().optional(),
        level: z.string().optional(),
      })
      .passthrough(),
  )
  .optional()
  .nullable();
export type PlatformAdIssues = z.infer<typeof adIssuesSchema>;

/** The cheap listing every sync makes of every ad set: status and learning stage only. */
export const AD_SET_STATUS_FIELDS = 'id,campaign_id,status,effective_status,learning_stage_info';

export const adSetStatusSchema = adSetSchema.pick({
  id: true,
  campaign_id: true,
  status: true,
  effective_status: true,
  learning_stage_info: true,
});
export type PlatformAdSetStatus = z.infer<typeof adSetStatusSchema>;

export const AD_STATUS_FIELDS = 'id,status,effective_status,issues_info';
export const adStatusSchema = z.object({
  id: z.string(),
  status: z.string().default('ACTIVE'),
  effective_status: z.string().optional(),
  issues_info: adIssuesSchema,
});
export type PlatformAdStatus = z.infer<typeof adStatusSchema>;

export const CAMPAIGN_STATUS_FIELDS = 'id,status,effective_status';
export const campaignStatusSchema = campaignSchema.pick({ id: true, status: true, effective_status: true });
export type PlatformCampaignStatus = z.infer<typeof campaignStatusSchema>;

/** Custom conversions of an account, for their names (the Results column shows them). */
export const customConversionSchema = z.object({ id: z.string(), name: z.string().default('') });
export type PlatformCustomConversion = z.infer<typeof customConversionSchema>;
export const CUSTOM_CONVERSION_FIELDS = 'id,name';

export const adSchema = z.object({
  id: z.string(),
  adset_id: z.string(),
  campaign_id: z.string(),
  name: z.string().default(''),
  status: z.string().default('ACTIVE'),
  effective_status: z.string().optional(),
  creative: z.object({ id: z.string() }).passthrough().optional().nullable(),
  issues_info: adIssuesSchema,
  created_time: z.string(),
  updated_time: z.string().optional(),
});
export type PlatformAd = z.infer<typeof adSchema>;
export const AD_FIELDS =
  'id,adset_id,campaign_id,name,status,effective_status,creative{id},issues_info,created_time,updated_time';

const actionStat = z.object({ action_type: z.string(), value: numericString });
export type ActionStat = z.infer<typeof actionStat>;

export const insightRowSchema = z.object({
  campaign_id: z.string().optional(),
  adset_id: z.string().optional(),
  ad_id: z.string().optional(),
  date_start: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  spend: numericString.optional(),
  impressions: numericString.optional(),
  clicks: numericString.optional(),
  inline_link_clicks: numericString.optional(),
  reach: numericString.optional(),
  frequency: numericString.optional(),
  actions: z.array(actionStat).optional(),
  action_values: z.array(actionStat).optional(),
  video_thruplay_watched_actions: z.array(actionStat).optional(),
});
export type PlatformInsightRow = z.infer<typeof insightRowSchema>;
export const INSIGHT_FIELDS =
  'campaign_id,adset_id,ad_id,date_start,date_stop,spend,impressions,clicks,inline_link_clicks,reach,frequency,actions,action_values,video_thruplay_watched_actions';

/** A minor-unit budget string → micro-units, or null when the budget lives elsewhere ("0" or absent). */
export function budgetMicros(value: string | null | undefined, currency: string): number | null {
  if (value === null || value === undefined || value === '' || value === '0') return null;
  return minorToMicros(value, currency);
}

/** Unix seconds → ISO timestamp; Graph datetimes (`2026-01-05T09:00:00-0800`) → ISO UTC. */
export function unixToIso(seconds: number | null | undefined): string | null {
  return seconds ? new Date(seconds * 1000).toISOString() : null;
}

export function graphTimeToIso(value: string | null | undefined): string | null {
  if (!value) return null;
  const normalized = value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const time = Date.parse(normalized);
  return Number.isNaN(time) ? value : new Date(time).toISOString();
}

const toInt = (value: string | undefined): number => {
  if (value === undefined) return 0;
  const n = Number(value);
  return Number.isFinite(n) ? Math.round(n) : 0;
};

/**
 * The value of the best alias of the result present in the row (exactly one, never a sum). A result
 * that is unknown (null) counts nothing: guessing purchases or leads would invent a cost per result.
 */
export function pickAction(
  stats: readonly ActionStat[] | undefined,
  result: ResultSpec | null,
): string | undefined {
  if (!stats || stats.length === 0 || !result) return undefined;
  for (const alias of resultAliases(result)) {
    const hit = stats.find((stat) => stat.action_type === alias);
    if (hit) return hit.value;
  }
  return undefined;
}

export interface InsightMetrics {
  date: string;
  spendMicros: number;
  impressions: number;
  clicks: number;
  linkClicks: number;
  conversions: number;
  revenueMicros: number;
  reach: number;
  frequency: number;
}

/** One insight row → stored metrics, with results and their value from a single alias of `result`. */
export function insightMetrics(row: PlatformInsightRow, result: ResultSpec | null): InsightMetrics {
  const revenue = pickAction(row.action_values, result);
  const counted =
    result && resultSource(result) === 'video_thruplay_watched_actions'
      ? row.video_thruplay_watched_actions
      : row.actions;
  return {
    date: row.date_start,
    spendMicros: row.spend === undefined ? 0 : decimalToMicros(row.spend),
    impressions: toInt(row.impressions),
    clicks: toInt(row.clicks),
    linkClicks: toInt(row.inline_link_clicks),
    conversions: toInt(pickAction(counted, result)),
    revenueMicros: revenue === undefined ? 0 : decimalToMicros(revenue),
    reach: toInt(row.reach),
    frequency: row.frequency === undefined ? 0 : Number(row.frequency) || 0,
  };
}
