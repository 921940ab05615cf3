// Issues with a lifecycle and sync schedules: additions to the spec (docs/api.md), in its envelopes.
import { z } from 'zod';
import {
  AccountIdParam,
  CampaignIdParam,
  dataEnvelope,
  listEnvelope,
  pagination,
} from '../../../shared/api/common';
import {
  IssueIdParam,
  ListIssuesQuerySchema,
  SnoozeIssueBodySchema,
  TrackedIssueSchema,
  type IssueState,
} from '../../../shared/api/issues';
import { SyncScheduleSchema } from '../../../shared/api/watch';
import { defineRoute, json } from '../route';
import { checkIdFormat } from './diagnostics';

const issuePath = { id: IssueIdParam };

export const issueRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/issues',
    operationId: 'listIssues',
    summary: 'List issues with their state, the worst and most recently changed first',
    description:
      'An issue is one problem across diagnoses (the same type on the same ad set or campaign): opened, updated when it worsens or improves, resolved when a diagnosis no longer finds it. Filters: account_id, campaign_id, state (comma-separated; default the live ones: open, acknowledged, snoozed), min_severity.',
    tag: 'Issues',
    counters: ['reads'],
    query: ListIssuesQuerySchema,
    response: { status: 200, name: 'IssueList', schema: listEnvelope(TrackedIssueSchema) },
    errors: ['invalid_request', 'permission_error', 'not_found'],
    async handle({ app, ctx, query }) {
      checkIdFormat(query.account_id, AccountIdParam, 'account_id');
      checkIdFormat(query.campaign_id, CampaignIdParam, 'campaign_id');
      const list = await app.use.issues.list(ctx, {
        accountId: query.account_id,
        campaignId: query.campaign_id,
        states: query.state ? (query.state.split(',') as IssueState[]) : undefined,
        minSeverity: query.min_severity,
        page: query.page,
        pageSize: query.page_size,
      });
      return json(list.items, 200, pagination(list.total, list.page, list.pageSize));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/issues/{id}',
    operationId: 'getIssue',
    summary: 'Get one issue with its history',
    tag: 'Issues',
    counters: ['reads'],
    pathParams: issuePath,
    response: { status: 200, name: 'IssueResponse', schema: dataEnvelope(TrackedIssueSchema) },
    errors: ['invalid_request', 'not_found'],
    async handle({ app, ctx, params }) {
      return json(await app.use.issues.get(ctx, params.id as string));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/issues/{id}/acknowledge',
    operationId: 'acknowledgeIssue',
    summary: 'Acknowledge an issue (it stays listed; it is open again if it gets worse)',
    tag: 'Issues',
    counters: ['writes'],
    pathParams: issuePath,
    body: z.strictObject({}).optional(),
    response: { status: 200, name: 'IssueAcknowledged', schema: dataEnvelope(TrackedIssueSchema) },
    errors: ['invalid_request', 'not_found'],
    async handle({ app, ctx, params }) {
      return json(await app.use.issues.acknowledge(ctx, params.id as string));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/issues/{id}/snooze',
    operationId: 'snoozeIssue',
    summary: 'Snooze an issue until a date (inclusive) and/or until it gets worse',
    tag: 'Issues',
    counters: ['writes'],
    pathParams: issuePath,
    body: SnoozeIssueBodySchema,
    response: { status: 200, name: 'IssueSnoozed', schema: dataEnvelope(TrackedIssueSchema) },
    errors: ['invalid_request', 'not_found'],
    async handle({ app, ctx, params, body }) {
      return json(await app.use.issues.snooze(ctx, params.id as string, body));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/accounts/{id}/schedule',
    operationId: 'getSyncSchedule',
    summary: 'When the account syncs next on its own, at what interval, and whether it is backing off',
    tag: 'Accounts',
    counters: ['reads'],
    pathParams: { id: AccountIdParam },
    response: { status: 200, name: 'SyncScheduleResponse', schema: dataEnvelope(SyncScheduleSchema) },
    errors: ['invalid_request', 'permission_error', 'not_found'],
    async handle({ app, ctx, params }) {
      return json(await app.use.watch.schedule(ctx, params.id as string));
    },
  }),
];
