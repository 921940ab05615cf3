import { z } from 'zod';
import {
  AccountListQuery,
  AccountListResponse,
  AccountResponse,
  SyncStartedResponse,
  toApiAccount,
} from '../../../shared/api/accounts';
import { AccountIdParam, pagination } from '../../../shared/api/common';
import { defineRoute, json } from '../route';

const accountPath = { id: AccountIdParam };

export const accountRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/accounts',
    operationId: 'listAccounts',
    cacheable: true,
    summary: 'List connected ad accounts of the workspace',
    tag: 'Accounts',
    counters: ['reads'],
    query: AccountListQuery,
    response: { status: 200, name: 'AccountList', schema: AccountListResponse },
    errors: ['invalid_request'],
    async handle({ app, ctx, query }) {
      const list = await app.use.accounts.list(ctx, {
        connectionStatus: query.status,
        page: query.page,
        pageSize: query.page_size,
      });
      return json(list.items.map(toApiAccount), 200, pagination(list.total, list.page, list.pageSize));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/accounts/{id}',
    operationId: 'getAccount',
    cacheable: true,
    summary: 'Get one ad account (service ID or platform ID)',
    tag: 'Accounts',
    counters: ['reads'],
    pathParams: accountPath,
    response: { status: 200, name: 'AccountResponse', schema: AccountResponse },
    errors: ['invalid_request', 'permission_error', 'not_found'],
    async handle({ app, ctx, params }) {
      return json(toApiAccount(await app.use.accounts.get(ctx, params.id as string)));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/accounts/{id}/sync',
    operationId: 'syncAccount',
    summary: 'Start a sync of the account (idempotent while one runs)',
    description:
      'Returns 202 with the running sync. When a sync of the account is already running, returns that sync instead of starting another. An account whose connection is not active (token_expired, disconnected) cannot sync: 400 invalid_request; re-authenticate it in the dashboard.',
    tag: 'Accounts',
    counters: ['writes'],
    pathParams: accountPath,
    body: z.strictObject({}).optional(),
    response: { status: 202, name: 'SyncStartedResponse', schema: SyncStartedResponse },
    errors: ['invalid_request', 'permission_error', 'not_found'],
    async handle({ app, ctx, params }) {
      return json(await app.use.accounts.sync(ctx, params.id as string), 202);
    },
  }),
];
