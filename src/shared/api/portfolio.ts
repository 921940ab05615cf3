// The portfolio (an addition to the spec): every connected account on one line, sorted by what needs
// the analyst first, and one account's overview. Amounts are in each account's own currency (major
// units), never converted or added across accounts; results are per result type, never added across
// types.
import { z } from 'zod';
import { ChangeEventSchema } from './changes';
import { dataEnvelope, Timestamp } from './common';
import { CalendarDateSchema, RiskLevelSchema } from './diagnostics';
import { TrackedIssueSchema } from './issues';

export const PACES = ['on_track', 'behind', 'ahead', 'unknown'] as const;
export const PaceSchema = z.enum(PACES);
export type Pace = z.infer<typeof PaceSchema>;

/** Results of one result type (and name: custom conversions differ by name). */
export const ResultGroupSchema = z.object({
  resultType: z.string().nullable(),
  resultName: z.string().nullable(),
  campaigns: z.number().int(),
  results: z.number().int(),
  spend: z.number(),
  /** Null for MIXED/UNKNOWN result types and when there are no results. */
  costPerResult: z.number().nullable(),
  revenue: z.number(),
  /** Null without spend or without any purchase value. */
  roas: z.number().nullable(),
});
export type ResultGroup = z.infer<typeof ResultGroupSchema>;

export const GoalStatusSchema = z.object({
  kind: z.enum(['CPA', 'ROAS']),
  target: z.number(),
  /** CPA: cost per result of the result type with the most spend; ROAS: revenue / spend of campaigns with purchase value. */
  actual: z.number().nullable(),
  resultName: z.string().nullable(),
  status: z.enum(['met', 'missed', 'no_data']),
});
export type GoalStatus = z.infer<typeof GoalStatusSchema>;

export const IssueCountsSchema = z.object({
  CRITICAL: z.number().int(),
  HIGH: z.number().int(),
  MEDIUM: z.number().int(),
  LOW: z.number().int(),
});

export const PortfolioRowSchema = z.object({
  accountId: z.string(),
  platformAccountId: z.string(),
  name: z.string(),
  businessName: z.string(),
  currency: z.string(),
  timezone: z.string(),
  status: z.enum(['active', 'disabled', 'closed']),
  connectionStatus: z.enum(['active', 'disconnected', 'token_expired']),
  /** Why the account cannot deliver or sync right now (token expired, disabled, spend cap reached); null when it can. */
  blocked: z.string().nullable(),
  /** The calendar month so far, in the account's time zone. */
  month: z.object({ from: CalendarDateSchema, to: CalendarDateSchema, daysInMonth: z.number().int() }),
  spendThisMonth: z.number(),
  /** Daily budgets in force (active campaigns' CBO budgets and active ad sets' own), null without any. */
  dailyBudget: z.number().nullable(),
  /** The daily budgets over the whole month. */
  monthlyBudget: z.number().nullable(),
  /** Spend through yesterday over the daily budgets of the days elapsed (null on the 1st or without budgets). */
  paceRatio: z.number().nullable(),
  pace: PaceSchema,
  spendCap: z
    .object({
      cap: z.number(),
      spent: z.number(),
      remaining: z.number(),
      /** The day the cap runs out at this month's average daily spend, when that is before the month ends. */
      runsOutOn: CalendarDateSchema.nullable(),
    })
    .nullable(),
  results: z.array(ResultGroupSchema),
  goal: GoalStatusSchema.nullable(),
  /** Live issues (open or acknowledged; snoozed ones are left out) by severity. */
  issues: IssueCountsSchema,
  /** Spend of the last 7 days on campaigns with a live HIGH or CRITICAL issue (the whole account for account-wide ones). */
  moneyAtRisk: z.number(),
  lastSyncedAt: Timestamp.nullable(),
  syncError: z.string().nullable(),
  tokenExpiresAt: Timestamp.nullable(),
  tokenWarning: z.string().nullable(),
  /** Higher = needs the analyst sooner (docs/portfolio.md), with the reasons in words. */
  attention: z.object({ score: z.number().int(), reasons: z.array(z.string()) }),
});
export type PortfolioRow = z.infer<typeof PortfolioRowSchema>;

export const PortfolioSchema = z.object({
  generatedAt: Timestamp,
  items: z.array(PortfolioRowSchema),
});
export type Portfolio = z.infer<typeof PortfolioSchema>;

const Kpi = z.object({
  value: z.number().nullable(),
  previous: z.number().nullable(),
  /** Percent change against the previous period; null when the previous value is 0 or missing. */
  change: z.number().nullable(),
});

export const AccountOverviewSchema = z.object({
  account: PortfolioRowSchema,
  range: z.object({ from: CalendarDateSchema, to: CalendarDateSchema }),
  previousRange: z.object({ from: CalendarDateSchema, to: CalendarDateSchema }),
  kpis: z.object({ spend: Kpi, impressions: Kpi, ctr: Kpi, cpm: Kpi }),
  results: z.array(
    ResultGroupSchema.extend({
      previousResults: z.number().int(),
      previousCostPerResult: z.number().nullable(),
      resultsChange: z.number().nullable(),
      costPerResultChange: z.number().nullable(),
    }),
  ),
  trend: z.array(
    z.object({
      date: CalendarDateSchema,
      spend: z.number(),
      impressions: z.number().int(),
      clicks: z.number().int(),
    }),
  ),
  topIssues: z.array(TrackedIssueSchema),
  recentChanges: z.array(ChangeEventSchema),
});
export type AccountOverview = z.infer<typeof AccountOverviewSchema>;

export const PortfolioQuery = z.strictObject({});
export const AccountOverviewQuery = z.strictObject({
  days: z.coerce.number().int().min(7).max(90).optional(),
});

export const PortfolioResponse = dataEnvelope(PortfolioSchema);
export const AccountOverviewResponse = dataEnvelope(AccountOverviewSchema);

export { RiskLevelSchema };
