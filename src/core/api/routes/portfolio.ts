// GET /v1/portfolio and GET /v1/accounts/{id}/overview (additions to the spec, docs/api.md): the same
// read models as the app's portfolio home and account overview.
import { AccountIdParam } from '../../../shared/api/common';
import {
  AccountOverviewQuery,
  AccountOverviewResponse,
  PortfolioQuery,
  PortfolioResponse,
} from '../../../shared/api/portfolio';
import { defineRoute, json } from '../route';

export const portfolioRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/portfolio',
    operationId: 'getPortfolio',
    cacheable: true,
    summary: 'Every account the key sees, sorted by what needs attention',
    description:
      "Per account: this month's spend (in the account's time zone and currency) against its daily budgets and spend cap with the pace, results per result type (never added across types) with the goal, live issues by severity, money at risk (last 7 days' spend on campaigns with a live HIGH or CRITICAL issue), last sync and token expiry, and the attention score the list is sorted by (highest first).",
    tag: 'Accounts',
    counters: ['reads'],
    query: PortfolioQuery,
    response: { status: 200, name: 'PortfolioResponse', schema: PortfolioResponse },
    errors: ['invalid_request'],
    async handle({ app, ctx }) {
      return json(await app.use.portfolio.home(ctx));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/accounts/{id}/overview',
    operationId: 'getAccountOverview',
    cacheable: true,
    summary: "One account's KPIs against the previous period, trend, top issues and recent changes",
    description:
      'days: the window (7-90, default 30) ending today in the account time zone, compared with the same number of days before it.',
    tag: 'Accounts',
    counters: ['reads'],
    pathParams: { id: AccountIdParam },
    query: AccountOverviewQuery,
    response: { status: 200, name: 'AccountOverviewResponse', schema: AccountOverviewResponse },
    errors: ['invalid_request', 'permission_error', 'not_found'],
    async handle({ app, ctx, params, query }) {
      return json(
        await app.use.portfolio.overview(ctx, { accountId: params.id as string, days: query.days }),
      );
    },
  }),
];
