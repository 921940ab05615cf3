import { InsightsSummaryQuery, InsightsSummaryResponse } from '../../../shared/api/insights';
import { defineRoute, json } from '../route';

export const insightsRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/insights/summary',
    operationId: 'getInsightsSummary',
    cacheable: true,
    summary: 'Totals, trends, daily time series and a breakdown per campaign or per account',
    description:
      "Defaults: the 7 days ending today (today = the latest calendar day among the selected accounts' timezones); with only date_start, the range ends today; with only date_end, it starts 6 days earlier. Filters: account_id (service or platform ID), campaign_ids (comma-separated campaign IDs; unknown or foreign → 404). Breakdown: one line per account (entity.type `account`) when the summary spans several accounts, else one per campaign; `breakdown=campaign|account` chooses (`account` with campaign_ids → 400). Amounts are never added across currencies: when the selected accounts use several, `currencies` gives one total per currency, and the spec's fields are converted into the agency's reporting currency when it has set rates for all of them (`conversion`), else `currency` is XXX with money fields empty (docs/api.md).",
    tag: 'Insights',
    counters: ['reads'],
    query: InsightsSummaryQuery,
    response: { status: 200, name: 'InsightsSummaryResponse', schema: InsightsSummaryResponse },
    errors: ['invalid_request', 'invalid_date_range', 'permission_error', 'not_found'],
    async handle({ app, ctx, query }) {
      return json(
        await app.use.insights.summary(ctx, {
          accountId: query.account_id,
          campaignIds: query.campaign_ids,
          dateStart: query.date_start,
          dateEnd: query.date_end,
          breakdown: query.breakdown,
        }),
      );
    },
  }),
];
