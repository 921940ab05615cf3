// The diagnostic resource as the spec defines it (camelCase on the wire), plus the POST body (snake_case).
// One schema per shape gives the TypeScript type, request validation and the OpenAPI document.
import { z } from 'zod';
import { PageQueryWithDefaults } from './common';

export const RISK_LEVELS = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
export const RiskLevelSchema = z.enum(RISK_LEVELS);
export type RiskLevel = z.infer<typeof RiskLevelSchema>;

export const DIAGNOSTIC_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export const DiagnosticStatusSchema = z.enum(DIAGNOSTIC_STATUSES);
export type DiagnosticStatus = z.infer<typeof DiagnosticStatusSchema>;

/** The six tuning detectors (measured for accuracy against the demo platform's injected problems). */
export const DETECTOR_ISSUE_TYPES = [
  'CREATIVE_FATIGUE',
  'LEARNING_PHASE_STALL',
  'AUCTION_OVERLAP',
  'PACING_ISSUE',
  'CPA_DEGRADATION',
  'AUDIENCE_SATURATION',
] as const;
/**
 * Every issue type. DELIVERY_BLOCKED (addition to the spec): a campaign that does not deliver because
 * of a disapproved ad, a disabled account or a reached spend cap; fixing it comes before any tuning.
 */
/**
 * Account-level context (additions to the spec), read across the account before any campaign is blamed:
 * TRACKING_BREAK (results collapse account-wide from one day on while clicks and impressions hold) and
 * MARKET_SHIFT (CPM moves by a similar share across most of the account's spend, CTR and conversion
 * rate holding). Their affected entity is the account; they carry no campaignId.
 */
export const ACCOUNT_ISSUE_TYPES = ['TRACKING_BREAK', 'MARKET_SHIFT'] as const;
/**
 * GOAL_MISSED (addition to the spec): a campaign below its goal (target CPA or ROAS, its own or the
 * account's; without one, a sales campaign clearly below break-even), judged on pooled days when the
 * range alone has too few results.
 */
export const GOAL_ISSUE_TYPES = ['GOAL_MISSED'] as const;
export const ISSUE_TYPES = [
  ...DETECTOR_ISSUE_TYPES,
  'DELIVERY_BLOCKED',
  ...ACCOUNT_ISSUE_TYPES,
  ...GOAL_ISSUE_TYPES,
] as const;
export const IssueTypeSchema = z.enum(ISSUE_TYPES);
export type IssueType = z.infer<typeof IssueTypeSchema>;

export const RISK_APPETITES = ['LOW', 'MEDIUM', 'HIGH'] as const;
export const RiskAppetiteSchema = z.enum(RISK_APPETITES);
export type RiskAppetite = z.infer<typeof RiskAppetiteSchema>;

export const FOCUS_METRICS = ['ROAS', 'CPA', 'CTR', 'CONVERSIONS'] as const;
export const FocusMetricSchema = z.enum(FOCUS_METRICS);
export type FocusMetric = z.infer<typeof FocusMetricSchema>;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const CalendarDateSchema = z
  .string()
  .regex(DATE, 'expected a YYYY-MM-DD date')
  .refine(
    (value) =>
      !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
      new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    'not a calendar date',
  );

const TIMESTAMP = z.string();

export const AffectedEntitySchema = z.object({
  /** 'account' (addition): account-level context issues (TRACKING_BREAK, MARKET_SHIFT). */
  type: z.enum(['adSet', 'campaign', 'account']),
  id: z.string(),
  name: z.string(),
});

const Trend = z.array(z.number());

export const CreativeFatigueEvidenceSchema = z.object({
  frequencyTrend: Trend,
  ctrTrend: Trend,
  /** The ad whose creative wore out (the entity is its ad set, as the spec's entity types allow). */
  ad: z.object({ id: z.string(), name: z.string() }).optional(),
  /** Further fatigued ads of the same ad set. */
  otherAds: z.array(z.object({ id: z.string(), name: z.string() })).optional(),
  ctrChange: z.number().optional(),
  frequencyChange: z.number().optional(),
});
export const CpaDegradationEvidenceSchema = z.object({
  targetCpa: z.number(),
  actualCpa: z.number(),
  cpaTrend: Trend,
  targetSource: z.enum(['cost_cap', 'analyst_target', 'baseline']).optional(),
});
export const LearningPhaseStallEvidenceSchema = z.object({
  daysInLearning: z.number().int(),
  conversionsInLearning: z.number().int(),
  requiredConversions: z.number().int(),
  learningStatus: z.string().optional(),
  /** Addition: the ad set's result (optimisation event) as Ads Manager names it, e.g. "Purchases". */
  resultEvent: z.string().optional(),
});
export const AuctionOverlapEvidenceSchema = z.object({
  overlappingAdSets: z.array(z.object({ id: z.string(), name: z.string() })),
  targetingOverlap: z.number().min(0).max(1),
  cpmTrend: Trend,
  /** Addition: the other campaigns whose ad sets overlap (absent when all are in one campaign). */
  overlappingCampaigns: z.array(z.object({ id: z.string(), name: z.string() })).optional(),
});
export const PacingIssueEvidenceSchema = z.object({
  direction: z.enum(['UNDER', 'OVER']),
  dailyBudget: z.number(),
  avgDailySpend: z.number(),
  pacingRate: z.number(),
  spendTrend: Trend,
});
export const AudienceSaturationEvidenceSchema = z.object({
  frequencyTrend: Trend,
  reachTrend: Trend,
  newReachShare: z.number().min(0).max(1),
  cpmTrend: Trend,
});

export const DELIVERY_BLOCKER_KINDS = ['AD_DISAPPROVED', 'ACCOUNT_DISABLED', 'SPEND_CAP_REACHED'] as const;
export const DeliveryBlockedEvidenceSchema = z.object({
  /** Each cause, in Meta's words where Meta gave them (the ad's error message, the disable reason). */
  blockers: z.array(
    z.object({
      kind: z.enum(DELIVERY_BLOCKER_KINDS),
      ad: z.object({ id: z.string(), name: z.string() }).optional(),
      errorCode: z.number().int().nullable().optional(),
      /** Meta's name for it: the issue summary or the disable reason (e.g. RISK_PAYMENT). */
      reason: z.string(),
      message: z.string(),
    }),
  ),
  /** Average daily spend over the last days of the range, and the daily budget it falls short of. */
  recentDailySpend: z.number(),
  dailyBudget: z.number().nullable(),
  /** Days at the end of the range without any spend. */
  daysWithoutDelivery: z.number().int(),
  spendTrend: Trend,
});

/** Results per day before and after the break, with the clicks and impressions that held. */
export const TrackingBreakEvidenceSchema = z.object({
  /** The first day results collapsed. */
  startDate: CalendarDateSchema,
  resultsPerDayBefore: z.number(),
  resultsPerDayAfter: z.number(),
  linkClicksPerDayBefore: z.number(),
  linkClicksPerDayAfter: z.number(),
  impressionsPerDayBefore: z.number(),
  impressionsPerDayAfter: z.number(),
  /** Results per link click before and after. */
  conversionRateBefore: z.number(),
  conversionRateAfter: z.number(),
  /** Account results per day over the range. */
  resultsTrend: Trend,
  affectedCampaigns: z.number().int(),
  campaignsJudged: z.number().int(),
  /** Share of the judged campaigns' spend in campaigns whose results collapsed. */
  affectedSpendShare: z.number().min(0).max(1),
});
/** CPM before (baseline) and now across the account, with CTR and conversion rate that held. */
export const MarketShiftEvidenceSchema = z.object({
  direction: z.enum(['UP', 'DOWN']),
  cpmBefore: z.number(),
  cpmAfter: z.number(),
  cpmChange: z.number(),
  ctrChange: z.number(),
  conversionRateChange: z.number().nullable(),
  /** Account CPM per day over the range. */
  cpmTrend: Trend,
  affectedCampaigns: z.number().int(),
  campaignsJudged: z.number().int(),
  affectedSpendShare: z.number().min(0).max(1),
});

/** What a campaign is judged against: its own goal, the account's, or break-even when none is set. */
export const JudgedGoalSchema = z.object({
  kind: z.enum(['CPA', 'ROAS']),
  target: z.number(),
  source: z.enum(['campaign', 'account', 'break_even']),
});
export const GoalMissedEvidenceSchema = z.object({
  goal: JudgedGoalSchema,
  /** Cost per result (account currency) or ROAS over the judged days. */
  actual: z.number().nullable(),
  /** Share short of the goal (0.625: ROAS 0.75 against 2). */
  gap: z.number(),
  /** Spend that did not earn the goal: spend × shortfall (account currency). */
  moneyAtRisk: z.number(),
  /** The campaign's own value over the baseline days before the range, and the account's median. */
  baseline: z.number().nullable(),
  accountMedian: z.number().nullable(),
  results: z.number().int(),
  /** The days judged: the range, or more days pooled when the range alone had too few results. */
  dateRange: z.object({ from: CalendarDateSchema, to: CalendarDateSchema }),
});

const issueBase = {
  id: z.string().regex(/^issue_\d+$/),
  severity: RiskLevelSchema,
  title: z.string(),
  description: z.string(),
  affectedEntity: AffectedEntitySchema,
  /** Account-level diagnostics: the campaign the issue belongs to (null/absent for a campaign diagnostic). */
  campaignId: z.string().optional(),
};

export const IssueSchema = z.discriminatedUnion('type', [
  z.object({ ...issueBase, type: z.literal('CREATIVE_FATIGUE'), evidence: CreativeFatigueEvidenceSchema }),
  z.object({ ...issueBase, type: z.literal('CPA_DEGRADATION'), evidence: CpaDegradationEvidenceSchema }),
  z.object({
    ...issueBase,
    type: z.literal('LEARNING_PHASE_STALL'),
    evidence: LearningPhaseStallEvidenceSchema,
  }),
  z.object({ ...issueBase, type: z.literal('AUCTION_OVERLAP'), evidence: AuctionOverlapEvidenceSchema }),
  z.object({ ...issueBase, type: z.literal('PACING_ISSUE'), evidence: PacingIssueEvidenceSchema }),
  z.object({
    ...issueBase,
    type: z.literal('AUDIENCE_SATURATION'),
    evidence: AudienceSaturationEvidenceSchema,
  }),
  z.object({ ...issueBase, type: z.literal('DELIVERY_BLOCKED'), evidence: DeliveryBlockedEvidenceSchema }),
  z.object({ ...issueBase, type: z.literal('TRACKING_BREAK'), evidence: TrackingBreakEvidenceSchema }),
  z.object({ ...issueBase, type: z.literal('MARKET_SHIFT'), evidence: MarketShiftEvidenceSchema }),
  z.object({ ...issueBase, type: z.literal('GOAL_MISSED'), evidence: GoalMissedEvidenceSchema }),
]);
export type Issue = z.infer<typeof IssueSchema>;

/** Addition: one Ads Manager edit a recommendation makes (money in major units). */
export const AdsManagerChangeSchema = z.object({
  level: z.enum(['account', 'campaign', 'adSet', 'ad']),
  id: z.string(),
  name: z.string(),
  field: z.string(),
  from: z.union([z.number(), z.string()]).nullable(),
  to: z.union([z.number(), z.string()]).nullable(),
});
export type AdsManagerChange = z.infer<typeof AdsManagerChangeSchema>;

export const RecommendationSchema = z.object({
  id: z.string().regex(/^rec_\d+$/),
  priority: z.number().int().min(1),
  action: z.string(),
  rationale: z.string(),
  expectedImpact: z.string(),
  riskLevel: RiskLevelSchema,
  relatedIssues: z.array(z.string()),
  /** Addition: the Ads Manager edits it makes, each checked against the campaign's structure. */
  changes: z.array(AdsManagerChangeSchema).optional(),
});
export type Recommendation = z.infer<typeof RecommendationSchema>;

export const DiagnosticMetricsSchema = z.object({
  spend: z.number(),
  impressions: z.number().int(),
  clicks: z.number().int(),
  conversions: z.number().int(),
  /** Zero denominators give null rather than Infinity. */
  cpa: z.number().nullable(),
  roas: z.number().nullable(),
  ctr: z.number().nullable(),
  cpm: z.number().nullable(),
  currency: z.string(),
});
export type DiagnosticMetrics = z.infer<typeof DiagnosticMetricsSchema>;

export const AndromedaContextSchema = z.object({
  riskAppetite: RiskAppetiteSchema,
  focusMetric: FocusMetricSchema,
  adaptations: z.string(),
});
export type AndromedaContext = z.infer<typeof AndromedaContextSchema>;

/**
 * Each judged campaign against its goal (addition to the spec): the goal next to the actual, the
 * campaign's own baseline and the account's median, and "not enough data" with what is missing.
 */
export const GOAL_CHECK_STATUSES = ['MET', 'MISSED', 'NOT_ENOUGH_DATA', 'NO_GOAL'] as const;
export const GoalCheckSchema = z.object({
  campaignId: z.string(),
  campaignName: z.string(),
  /** What is judged: the goal's kind; without a goal, ROAS when the campaign tracks revenue, else CPA. */
  metric: z.enum(['CPA', 'ROAS']),
  goal: JudgedGoalSchema.nullable(),
  status: z.enum(GOAL_CHECK_STATUSES),
  actual: z.number().nullable(),
  baseline: z.number().nullable(),
  accountMedian: z.number().nullable(),
  gap: z.number().nullable(),
  moneyAtRisk: z.number(),
  results: z.number().int(),
  resultsNeeded: z.number().int(),
  dateRange: z.object({ from: CalendarDateSchema, to: CalendarDateSchema }),
  /** NOT_ENOUGH_DATA: what is missing, e.g. "7 of 10 results needed; about 9 more days at this rate". */
  notEnoughData: z.string().nullable(),
});
export type GoalCheck = z.infer<typeof GoalCheckSchema>;

export const DiagnosticListItemSchema = z.object({
  id: z.string(),
  campaignId: z.string().nullable(),
  campaignName: z.string().nullable(),
  /** Addition to the spec: the account diagnosed (whole-account diagnostics have no campaign to name). */
  accountId: z.string(),
  accountName: z.string(),
  status: DiagnosticStatusSchema,
  riskLevel: RiskLevelSchema.nullable(),
  summary: z.string().nullable(),
  issuesDetected: z.number().int(),
  recommendationCount: z.number().int(),
  createdAt: TIMESTAMP,
  completedAt: TIMESTAMP.nullable(),
});
export type DiagnosticListItem = z.infer<typeof DiagnosticListItemSchema>;

export const DiagnosticErrorSchema = z.object({ type: z.string(), message: z.string() });

/** Addition: one of Meta's own recommendations for the account (Graph /act_{id}/recommendations). */
export const MetaRecommendationSchema = z.object({
  type: z.string(),
  title: z.string(),
  body: z.string(),
  liftEstimate: z.string().nullable(),
  /** Opportunity score points Meta gives it. */
  points: z.number().nullable(),
  campaignId: z.string().nullable(),
  campaignName: z.string().nullable(),
});
export type MetaRecommendation = z.infer<typeof MetaRecommendationSchema>;

/** Addition: Meta's recommendations as last synced, shown beside ours; null where Meta offers none. */
export const MetaRecommendationsSchema = z.object({
  opportunityScore: z.number().nullable(),
  readAt: TIMESTAMP,
  items: z.array(MetaRecommendationSchema),
});
export type MetaRecommendations = z.infer<typeof MetaRecommendationsSchema>;

export const DiagnosticDetailSchema = DiagnosticListItemSchema.extend({
  platformCampaignId: z.string().nullable(),
  dateRange: z.object({ from: CalendarDateSchema, to: CalendarDateSchema }),
  /** Null until the diagnostic has completed. */
  metrics: DiagnosticMetricsSchema.nullable(),
  issues: z.array(IssueSchema),
  recommendations: z.array(RecommendationSchema),
  andromedaContext: AndromedaContextSchema.nullable(),
  processingTimeMs: z.number().int().nullable(),
  /** Account-level diagnostics: how many campaigns with delivery were covered. */
  campaignsAnalyzed: z.number().int().optional(),
  /** Addition: Meta's own recommendations for the account (campaign: the campaign's and account-wide ones). */
  metaRecommendations: MetaRecommendationsSchema.nullable().optional(),
  /** Addition: each judged campaign against its goal (absent on diagnostics made before goals). */
  goalChecks: z.array(GoalCheckSchema).optional(),
  error: DiagnosticErrorSchema.optional(),
});
export type DiagnosticDetail = z.infer<typeof DiagnosticDetailSchema>;

export const DiagnosticCreatedSchema = z.object({
  id: z.string(),
  campaignId: z.string().nullable(),
  status: z.literal('pending'),
  createdAt: TIMESTAMP,
  estimatedCompletionSeconds: z.number().int().min(1),
});
export type DiagnosticCreated = z.infer<typeof DiagnosticCreatedSchema>;

/** POST /v1/diagnostics body. IDs are resolved by the API layer; dates default there (7 days ago → today). */
export const CreateDiagnosticBodySchema = z
  .object({
    account_id: z.string().min(1),
    campaign_id: z.string().min(1).optional(),
    date_start: CalendarDateSchema.optional(),
    date_end: CalendarDateSchema.optional(),
  })
  .strict();
export type CreateDiagnosticBody = z.infer<typeof CreateDiagnosticBodySchema>;

/** GET /v1/diagnostics query (snake_case per the spec; `status` and `campaign_id` are our extra filters). */
export const ListDiagnosticsQuerySchema = z
  .object({
    account_id: z.string().min(1).optional(),
    risk_level: RiskLevelSchema.optional(),
    date_start: CalendarDateSchema.optional(),
    date_end: CalendarDateSchema.optional(),
    status: DiagnosticStatusSchema.optional(),
    campaign_id: z.string().min(1).optional(),
    ...PageQueryWithDefaults,
  })
  .strict();
export type ListDiagnosticsQuery = z.infer<typeof ListDiagnosticsQuerySchema>;

/** Andromeda profile as the app and CLI edit it. */
export const AndromedaProfileSchema = z.object({
  userId: z.string(),
  riskAppetite: RiskAppetiteSchema,
  focusMetric: FocusMetricSchema,
  updatedAt: TIMESTAMP.nullable(),
});
export type AndromedaProfile = z.infer<typeof AndromedaProfileSchema>;

export const UpdateAndromedaProfileSchema = z
  .object({ riskAppetite: RiskAppetiteSchema.optional(), focusMetric: FocusMetricSchema.optional() })
  .strict();

export const RecommendationFeedbackSchema = z
  .object({
    diagnosticId: z.string(),
    recommendationId: z.string().regex(/^rec_\d+$/),
    feedback: z.enum(['applied', 'dismissed']),
  })
  .strict();
export type RecommendationFeedbackInput = z.infer<typeof RecommendationFeedbackSchema>;
