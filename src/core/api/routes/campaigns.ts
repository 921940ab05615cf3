import {
  CampaignDetailQuery,
  CampaignDetailResponse,
  CampaignListQuery,
  CampaignListResponse,
} from '../../../shared/api/campaigns';
import { CampaignChangesQuery, CampaignChangesResponse } from '../../../shared/api/changes';
import { CampaignIdParam, pagination } from '../../../shared/api/common';
import { defineRoute, json } from '../route';

export const campaignRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/campaigns',
    operationId: 'listCampaigns',
    cacheable: true,
    summary: 'List campaigns across connected accounts, with last-7-day insights',
    description:
      'Filters: account_id (service or platform ID), status (ACTIVE, PAUSED, DELETED, ARCHIVED). Sort: name (default), spend, createdAt, updatedAt; prefix "-" for descending. Spend for sorting and insights cover the last 7 days ending today in each account\'s timezone. Additions: date_preset (today, yesterday, last_7d, last_14d, last_28d, last_30d, this_week, last_week, this_month, last_month, maximum; as in Ads Manager, last_Nd ends yesterday) or date_start/date_end (YYYY-MM-DD, up to 37 months), resolved in each account\'s timezone; compare (previous_period, same_period_last_year, none) adds comparisonInsights to each item.',
    tag: 'Campaigns',
    counters: ['reads'],
    query: CampaignListQuery,
    response: { status: 200, name: 'CampaignList', schema: CampaignListResponse },
    errors: ['invalid_request', 'permission_error', 'not_found'],
    async handle({ app, ctx, query }) {
      const list = await app.use.campaigns.list(ctx, {
        accountId: query.account_id,
        status: query.status,
        sort: query.sort,
        page: query.page,
        pageSize: query.page_size,
        datePreset: query.date_preset,
        dateStart: query.date_start,
        dateEnd: query.date_end,
        compare: query.compare,
      });
      return json(list.items, 200, pagination(list.total, list.page, list.pageSize));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/campaigns/{id}',
    operationId: 'getCampaign',
    cacheable: true,
    summary: 'Get one campaign, optionally with ad sets, ads, diagnostics and insights',
    tag: 'Campaigns',
    counters: ['reads'],
    pathParams: { id: CampaignIdParam },
    query: CampaignDetailQuery,
    response: { status: 200, name: 'CampaignDetailResponse', schema: CampaignDetailResponse },
    errors: ['invalid_request', 'permission_error', 'not_found'],
    async handle({ app, ctx, params, query }) {
      return json(
        await app.use.campaigns.get(ctx, params.id as string, {
          include: query.include,
          insightsDateRange: query.insightsDateRange,
        }),
      );
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/campaigns/{id}/changes',
    operationId: 'listCampaignChanges',
    cacheable: true,
    summary: "A campaign's change history (addition to the spec)",
    description:
      "The synced activity log entries of the campaign, its ad sets and its ads, newest first (at most 500, the last 90 days and whatever later syncs added): budget, bid, schedule, status, targeting, attribution and creative edits (changeType), with Meta's event type, old and new values where the log has them, the actor and the time.",
    tag: 'Campaigns',
    counters: ['reads'],
    pathParams: { id: CampaignIdParam },
    query: CampaignChangesQuery,
    response: { status: 200, name: 'CampaignChanges', schema: CampaignChangesResponse },
    errors: ['invalid_request', 'permission_error', 'not_found'],
    async handle({ app, ctx, params }) {
      return json(await app.use.campaigns.changes(ctx, params.id as string));
    },
  }),
];
