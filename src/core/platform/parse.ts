import { z } from 'zod';
import { decimalToMicros, minorToMicros } from '../money';

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
  business: z
    .object({ id: z.string(), name: z.string().default('') })
    .optional()
    .nullable(),
  user_tasks: z.array(z.string()).optional(),
});
export type PlatformAdAccount = z.infer<typeof adAccountSchema>;

export const AD_ACCOUNT_FIELDS =
  'id,account_id,name,currency,timezone_name,account_status,business,user_tasks';

/** account_status (research §2.1) → the spec's three states. */
export function accountStatus(code: number): 'active' | 'disabled' | 'closed' {
  if (code === 100 || code === 101 || code === 202) return 'closed';
  if (code === 1 || code === 9 || code === 201) return 'active';
  return 'disabled';
}

/** Admin or Advertiser access (MANAGE / ADVERTISE) is what connecting requires. */
export function canConnect(account: PlatformAdAccount): boolean {
  return (account.user_tasks ?? []).some((task) => task === 'MANAGE' || task === 'ADVERTISE');
}

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
});
export type PlatformCampaign = z.infer<typeof campaignSchema>;
export const CAMPAIGN_FIELDS =
  'id,name,status,effective_status,objective,buying_type,bid_strategy,daily_budget,lifetime_budget,special_ad_categories,start_time,stop_time,created_time,updated_time';

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
  promoted_object: z.object({ custom_event_type: z.string().optional() }).passthrough().optional().nullable(),
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
  'id,campaign_id,name,status,effective_status,daily_budget,lifetime_budget,bid_strategy,bid_amount,billing_event,optimization_goal,promoted_object,targeting,learning_stage_info,created_time,updated_time';

export const adSchema = z.object({
  id: z.string(),
  adset_id: z.string(),
  campaign_id: z.string(),
  name: z.string().default(''),
  status: z.string().default('ACTIVE'),
  effective_status: z.string().optional(),
  creative: z.object({ id: z.string() }).passthrough().optional().nullable(),
  created_time: z.string(),
  updated_time: z.string().optional(),
});
export type PlatformAd = z.infer<typeof adSchema>;
export const AD_FIELDS =
  'id,adset_id,campaign_id,name,status,effective_status,creative{id},created_time,updated_time';

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
  reach: numericString.optional(),
  frequency: numericString.optional(),
  actions: z.array(actionStat).optional(),
  action_values: z.array(actionStat).optional(),
});
export type PlatformInsightRow = z.infer<typeof insightRowSchema>;
export const INSIGHT_FIELDS =
  'campaign_id,adset_id,ad_id,date_start,date_stop,spend,impressions,clicks,reach,frequency,actions,action_values';

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
 * Aliases of one optimization event, best first (research §3.3). Exactly one is used per row, never a
 * sum: `omni_*` is de-duplicated across channels, the plain name across Pixel and CAPI, and the
 * channel-specific names are only a fallback.
 */
export const CONVERSION_ALIASES: Record<string, readonly string[]> = {
  PURCHASE: [
    'omni_purchase',
    'purchase',
    'offsite_conversion.fb_pixel_purchase',
    'onsite_web_purchase',
    'onsite_web_app_purchase',
    'web_in_store_purchase',
    'web_app_in_store_purchase',
    'app_custom_event.fb_mobile_purchase',
    'onsite_conversion.purchase',
  ],
  LEAD: ['omni_lead', 'lead', 'offsite_conversion.fb_pixel_lead', 'onsite_conversion.lead_grouped'],
  COMPLETE_REGISTRATION: [
    'omni_complete_registration',
    'complete_registration',
    'offsite_conversion.fb_pixel_complete_registration',
  ],
  ADD_TO_CART: ['omni_add_to_cart', 'add_to_cart', 'offsite_conversion.fb_pixel_add_to_cart'],
  INITIATED_CHECKOUT: [
    'omni_initiated_checkout',
    'initiate_checkout',
    'offsite_conversion.fb_pixel_initiate_checkout',
  ],
  APP_INSTALL: ['omni_app_install', 'mobile_app_install', 'app_install'],
};

/** The conversion event an ad set optimizes for (promoted_object.custom_event_type), normalized. */
export function conversionEvent(event: string | null | undefined): string | null {
  if (!event) return null;
  const upper = event.toUpperCase();
  if (upper === 'INITIATE_CHECKOUT') return 'INITIATED_CHECKOUT';
  return upper in CONVERSION_ALIASES ? upper : null;
}

/** The value of the best alias present for the event; an unknown event tries purchase, then lead. */
export function pickAction(
  stats: readonly ActionStat[] | undefined,
  event: string | null,
): string | undefined {
  if (!stats || stats.length === 0) return undefined;
  const families = event ? [event] : ['PURCHASE', 'LEAD'];
  for (const family of families) {
    for (const alias of CONVERSION_ALIASES[family] ?? []) {
      const hit = stats.find((stat) => stat.action_type === alias);
      if (hit) return hit.value;
    }
  }
  return undefined;
}

export interface InsightMetrics {
  date: string;
  spendMicros: number;
  impressions: number;
  clicks: number;
  conversions: number;
  revenueMicros: number;
  reach: number;
  frequency: number;
}

/** One insight row → stored metrics, with conversions and revenue from a single alias of `event`. */
export function insightMetrics(row: PlatformInsightRow, event: string | null): InsightMetrics {
  const revenue = pickAction(row.action_values, event);
  return {
    date: row.date_start,
    spendMicros: row.spend === undefined ? 0 : decimalToMicros(row.spend),
    impressions: toInt(row.impressions),
    clicks: toInt(row.clicks),
    conversions: toInt(pickAction(row.actions, event)),
    revenueMicros: revenue === undefined ? 0 : decimalToMicros(revenue),
    reach: toInt(row.reach),
    frequency: row.frequency === undefined ? 0 : Number(row.frequency) || 0,
  };
}
