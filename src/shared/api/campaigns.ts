import { z } from 'zod';
import { COMPARE_MODES, DATE_PRESETS } from '../date-ranges';
import { DiagnosticListItemSchema, RiskLevelSchema } from './diagnostics';
import {
  AccountIdParam,
  dataEnvelope,
  INSIGHTS_DATE_RANGES,
  listEnvelope,
  PageQuery,
  Timestamp,
} from './common';

export const CAMPAIGN_STATUSES = ['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED'] as const;
export const CAMPAIGN_SORTS = [
  'name',
  '-name',
  'spend',
  '-spend',
  'createdAt',
  '-createdAt',
  'updatedAt',
  '-updatedAt',
] as const;
export const CAMPAIGN_INCLUDES = ['adSets', 'ads', 'diagnostics', 'insights'] as const;
export type CampaignInclude = (typeof CAMPAIGN_INCLUDES)[number];

/** Ratios are null when their denominator is zero (no conversions, no spend, no impressions). */
export const CampaignInsights = z.object({
  spend: z.number(),
  impressions: z.number().int(),
  clicks: z.number().int(),
  conversions: z.number().int(),
  cpa: z.number().nullable(),
  roas: z.number().nullable(),
  ctr: z.number().nullable(),
  cpm: z.number().nullable(),
  dateRange: z.enum(INSIGHTS_DATE_RANGES),
});

export const CampaignDailyPoint = z.object({
  date: z.iso.date(),
  spend: z.number(),
  conversions: z.number().int(),
  cpa: z.number().nullable(),
});

export const CampaignDetailInsights = CampaignInsights.extend({ daily: z.array(CampaignDailyPoint) });

export const LatestDiagnostic = z.object({
  id: z.string(),
  riskLevel: RiskLevelSchema.nullable(),
  issuesDetected: z.number().int().min(0),
  completedAt: Timestamp.nullable(),
});

const campaignBase = {
  id: z.string(),
  platformCampaignId: z.string(),
  accountId: z.string(),
  name: z.string(),
  status: z.string(),
  objective: z.string(),
  buyingType: z.string(),
  dailyBudget: z.number().nullable(),
  lifetimeBudget: z.number().nullable(),
  currency: z.string(),
  /** Null when the platform has none at campaign level (bidding set per ad set). */
  bidStrategy: z.string().nullable(),
  lastSyncedAt: Timestamp.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  /**
   * Addition to the spec: what the campaign's results are (its ad sets' optimization event, as Ads
   * Manager counts it): PURCHASE, LEAD_FORM, APP_INSTALL, CUSTOM_CONVERSION, … MIXED or UNKNOWN (no
   * cost per result is judged); null before the first sync that read it.
   */
  resultType: z.string().nullable(),
  /** Ads Manager's name for it: "Purchases", "Leads (form)", "Custom conversion: <name>"… */
  resultName: z.string().nullable(),
};

/** One review error or delivery issue of an ad, as Meta's issues_info gives it. */
export const AdIssue = z.object({
  adId: z.string(),
  adName: z.string(),
  /** DISAPPROVED, WITH_ISSUES, PENDING_REVIEW… */
  effectiveStatus: z.string(),
  errorCode: z.number().int().nullable(),
  summary: z.string(),
  message: z.string(),
  level: z.string(),
});
export type AdIssue = z.infer<typeof AdIssue>;

/** Addition to the spec: ads that cannot deliver (disapproved) or deliver with issues. */
export const DeliveryIssues = z.object({
  disapprovedAds: z.number().int().min(0),
  adsWithIssues: z.number().int().min(0),
});
export type DeliveryIssues = z.infer<typeof DeliveryIssues>;

const Period = z.object({ from: z.iso.date(), to: z.iso.date() });

/**
 * Addition to the spec: with `date_preset` or `date_start`/`date_end` the list's insights cover that
 * range (`dateRange: "custom"`, `period` the account's dates), and with `compare` each item also
 * carries `comparisonInsights` over the comparison period.
 */
export const CampaignListInsights = CampaignInsights.extend({
  dateRange: z.enum([...INSIGHTS_DATE_RANGES, 'custom']),
  period: Period.optional(),
});

export const CampaignListItem = z.object({
  ...campaignBase,
  deliveryIssues: DeliveryIssues,
  adSetCount: z.number().int().min(0),
  adCount: z.number().int().min(0),
  insights: CampaignListInsights,
  comparisonInsights: CampaignListInsights.optional(),
  latestDiagnostic: LatestDiagnostic.nullable(),
});
export type CampaignListItem = z.infer<typeof CampaignListItem>;

export const AdSet = z.object({
  id: z.string(),
  platformAdSetId: z.string(),
  name: z.string(),
  status: z.string(),
  learningPhaseStatus: z.enum(['EXITED', 'IN_LEARNING']),
  /** Null when the budget is set at campaign level (campaign budget optimization). */
  dailyBudget: z.number().nullable(),
  targeting: z.object({
    geoLocations: z.array(z.string()),
    ageMin: z.number().int(),
    ageMax: z.number().int(),
    genders: z.array(z.string()),
  }),
  optimization: z.string().nullable(),
  adCount: z.number().int().min(0),
  /** Addition to the spec: the ad set's result type and Ads Manager's name for it (as on campaigns). */
  resultType: z.string().nullable(),
  resultName: z.string().nullable(),
});
export type AdSet = z.infer<typeof AdSet>;

/** The ad record (its fields are not in the spec; these are ours). */
export const Ad = z.object({
  id: z.string(),
  platformAdId: z.string(),
  adSetId: z.string(),
  name: z.string(),
  status: z.string(),
  creativeId: z.string().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Ad = z.infer<typeof Ad>;

export const CampaignDetail = z.object({
  ...campaignBase,
  specialAdCategories: z.array(z.string()),
  deliveryIssues: DeliveryIssues,
  /** Addition to the spec: every review error and issue of the campaign's ads (issues_info). */
  adIssues: z.array(AdIssue),
  insights: CampaignDetailInsights.optional(),
  adSets: z.array(AdSet).optional(),
  ads: z.array(Ad).optional(),
  /** Up to the 20 most recent diagnostics of the campaign, newest first. */
  diagnostics: z.array(DiagnosticListItemSchema).optional(),
});
export type CampaignDetail = z.infer<typeof CampaignDetail>;

const upper = (values: readonly [string, ...string[]]) =>
  z
    .string()
    .transform((value) => value.toUpperCase())
    .pipe(z.enum(values));

export const CampaignListQuery = z
  .strictObject({
    account_id: AccountIdParam.optional(),
    status: upper(CAMPAIGN_STATUSES).optional(),
    sort: z.enum(CAMPAIGN_SORTS).optional(),
    ...PageQuery,
    /** Additions: Meta's date presets (last_7d ends yesterday), or dates, and a comparison period. */
    date_preset: z.enum(DATE_PRESETS).optional(),
    date_start: z.iso.date().optional(),
    date_end: z.iso.date().optional(),
    compare: z.enum(COMPARE_MODES).optional(),
  })
  .refine((q) => (q.date_start === undefined) === (q.date_end === undefined), {
    message: 'give both date_start and date_end, or neither',
  })
  .refine((q) => q.date_preset === undefined || q.date_start === undefined, {
    message: 'give date_preset or date_start/date_end, not both',
  });

export const CampaignDetailQuery = z.strictObject({
  include: z
    .string()
    .transform((value, ctx) => {
      const parts = value.split(',').map((part) => part.trim());
      const bad = parts.filter((part) => !(CAMPAIGN_INCLUDES as readonly string[]).includes(part));
      if (bad.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `include accepts ${CAMPAIGN_INCLUDES.join(', ')} (got ${bad.map((b) => JSON.stringify(b)).join(', ')})`,
        });
        return z.NEVER;
      }
      return new Set(parts as CampaignInclude[]);
    })
    .optional(),
  insightsDateRange: z.enum(INSIGHTS_DATE_RANGES).optional(),
});

export const CampaignListResponse = listEnvelope(CampaignListItem);
export const CampaignDetailResponse = dataEnvelope(CampaignDetail);
