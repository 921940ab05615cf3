import { ReportingCurrencySchema } from './reporting-currency';
import { z } from 'zod';
import { AccountIdParam, dataEnvelope, DateParam, DateRange } from './common';
import { ResultGroupSchema } from './portfolio';

const nullableRatio = z.number().nullable();

const Totals = z.object({
  spend: z.number(),
  impressions: z.number().int(),
  clicks: z.number().int(),
  conversions: z.number().int(),
  cpa: nullableRatio,
  roas: nullableRatio,
  ctr: nullableRatio,
  cpm: nullableRatio,
  frequency: nullableRatio,
  reach: z.number().int(),
});

const Trends = z.object({
  spendChange: nullableRatio,
  conversionsChange: nullableRatio,
  cpaChange: nullableRatio,
  roasChange: nullableRatio,
});

export const InsightsSummary = z.object({
  dateRange: DateRange,
  granularity: z.literal('daily'),
  currency: z.string(),
  totals: Totals,
  /** Percent change against the previous period of equal length; null when the previous value is 0. */
  trends: Trends,
  timeSeries: z.array(
    z.object({
      date: z.iso.date(),
      spend: z.number(),
      conversions: z.number().int(),
      cpa: nullableRatio,
      roas: nullableRatio,
    }),
  ),
  breakdown: z.array(
    z.object({
      entity: z.object({ type: z.string(), id: z.string(), name: z.string() }),
      spend: z.number(),
      conversions: z.number().int(),
      cpa: nullableRatio,
      roas: nullableRatio,
      /**
       * Addition to the spec: the campaign over the period the trends compare with (null when the
       * app asked for no comparison).
       */
      previous: z
        .object({ spend: z.number(), conversions: z.number().int(), cpa: nullableRatio, roas: nullableRatio })
        .nullable()
        .optional(),
      /** Addition: what `conversions` counts (see docs/api.md, result type) and the purchase value. */
      resultType: z.string().nullable().optional(),
      resultName: z.string().nullable().optional(),
      revenue: z.number().optional(),
      /** Addition, across currencies without exchange rates: the line's own currency. */
      currency: z.string().optional(),
    }),
  ),
  /**
   * Addition to the spec: results and cost per result per result type (never added across types),
   * ROAS only where there is purchase value; `previous` over the comparison period (null for none).
   */
  resultsByType: z
    .array(
      ResultGroupSchema.extend({
        previous: z
          .object({ results: z.number().int(), costPerResult: nullableRatio, roas: nullableRatio })
          .nullable(),
      }),
    )
    .optional(),
  /**
   * Addition, when the selected accounts use several currencies: one total per currency (money in
   * that currency). The spec's fields are then in the reporting currency (`conversion`) when the
   * agency has set rates for every one of them, else `currency` is XXX and money fields are empty.
   */
  currencies: z
    .array(
      z.object({
        currency: z.string(),
        accounts: z.number().int(),
        totals: Totals,
        trends: Trends,
      }),
    )
    .optional(),
  conversion: ReportingCurrencySchema.nullable().optional(),
});
export type InsightsSummary = z.infer<typeof InsightsSummary>;

export const InsightsSummaryQuery = z.strictObject({
  date_start: DateParam.optional(),
  date_end: DateParam.optional(),
  account_id: AccountIdParam.optional(),
  /** Comma-separated service campaign IDs. */
  campaign_ids: z
    .string()
    .regex(
      /^camp_[0-9A-Za-z]{16}(,camp_[0-9A-Za-z]{16})*$/,
      'campaign_ids must be comma-separated campaign IDs',
    )
    .transform((value) => [...new Set(value.split(','))])
    .optional(),
  /**
   * Addition: one breakdown line per `campaign` or per `account`. Default: per account when the
   * summary spans several accounts (no account_id, no campaign_ids), else per campaign.
   */
  breakdown: z.enum(['campaign', 'account']).optional(),
});

export const InsightsSummaryResponse = dataEnvelope(InsightsSummary);
