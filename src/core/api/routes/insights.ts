import { InsightsSummaryQuery, InsightsSummaryResponse } from '../../../shared/api/insights';
import { addDays, dateInZone } from '../../clock';
import { AppError } from '../../errors';
import { resolveAccount, resolveCampaign, visibleAccounts, type VisibleAccount } from '../../identity/access';
import { insightsSummary } from '../../insights';
import { checkWindow } from '../dates';
import { defineRoute, json } from '../route';

/** Shown when nothing is selected (no visible account): the summary is all zeros anyway. */
const EMPTY_CURRENCY = 'USD';

export const insightsRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/insights/summary',
    operationId: 'getInsightsSummary',
    cacheable: true,
    summary: 'Totals, trends, daily time series and per-campaign breakdown',
    description:
      "Defaults: the 7 days ending today (today = the latest calendar day among the selected accounts' timezones); with only date_start, the range ends today; with only date_end, it starts 6 days earlier. Filters: account_id (service or platform ID), campaign_ids (comma-separated campaign IDs; unknown or foreign → 404). Amounts are never converted between currencies: when the selected accounts use several currencies, narrow the selection with account_id or campaign_ids (400 invalid_request otherwise).",
    tag: 'Insights',
    counters: ['reads'],
    query: InsightsSummaryQuery,
    response: { status: 200, name: 'InsightsSummaryResponse', schema: InsightsSummaryResponse },
    errors: ['invalid_request', 'invalid_date_range', 'permission_error', 'not_found'],
    handle({ app, ctx, query }) {
      const db = app.core.db;
      // An explicit range is checked first: its error type (invalid_date_range) must not be hidden by
      // the currency refusal below, which depends on the selection rather than on the dates.
      if (query.date_start !== undefined && query.date_end !== undefined) {
        checkWindow(query.date_start, query.date_end);
      }
      let accounts: VisibleAccount[] = query.account_id
        ? [resolveAccount(db, ctx, query.account_id)]
        : visibleAccounts(db, ctx);
      let campaignIds: string[] | undefined;
      if (query.campaign_ids) {
        if (query.campaign_ids.length > 100) {
          throw new AppError('invalid_request', 'campaign_ids accepts at most 100 campaign IDs.');
        }
        const campaigns = query.campaign_ids.map((id) => resolveCampaign(db, ctx, id));
        const allowed = new Set(accounts.map((a) => a.id));
        const outside = campaigns.find((c) => !allowed.has(c.accountId));
        if (outside)
          throw new AppError(
            'not_found',
            `Campaign ${outside.id} was not found in account ${query.account_id}.`,
          );
        const used = new Set(campaigns.map((c) => c.accountId));
        accounts = accounts.filter((a) => used.has(a.id));
        campaignIds = campaigns.map((c) => c.id);
      }
      const currencies = [...new Set(accounts.map((a) => a.currency))].sort();
      if (currencies.length > 1) {
        throw new AppError(
          'invalid_request',
          `The selected accounts use several currencies (${currencies.join(', ')}); pass account_id or campaign_ids to summarize one currency.`,
        );
      }
      const now = app.core.clock.now();
      const today = accounts.reduce(
        (latest, a) => {
          const day = dateInZone(now, a.timezone);
          return day > latest ? day : latest;
        },
        accounts.length > 0 ? '0000-01-01' : dateInZone(now, 'UTC'),
      );
      const to = query.date_end ?? today;
      const from = query.date_start ?? addDays(to, -6);
      const window = checkWindow(from, to);
      return json(
        insightsSummary(db, {
          accountIds: accounts.map((a) => a.id),
          campaignIds,
          from: window.from,
          to: window.to,
          currency: currencies[0] ?? EMPTY_CURRENCY,
        }),
      );
    },
  }),
];
