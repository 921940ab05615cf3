import {
  CreateDiagnosticBodySchema,
  DiagnosticCreatedSchema,
  DiagnosticDetailSchema,
  DiagnosticListItemSchema,
  ListDiagnosticsQuerySchema,
} from '../../../shared/api/diagnostics';
import {
  AccountIdParam,
  CampaignIdParam,
  dataEnvelope,
  DiagnosticIdParam,
  listEnvelope,
  pagination,
} from '../../../shared/api/common';
import { AppError } from '../../errors';
import { defineRoute, json } from '../route';

/** Format checks the shared schemas leave to the API layer (400 on a malformed ID). */
export function checkIdFormat(value: string | undefined, schema: typeof AccountIdParam, name: string): void {
  if (value === undefined) return;
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new AppError(
      'invalid_request',
      `Invalid ${name} "${value}": ${parsed.error.issues[0]?.message ?? 'malformed'}.`,
    );
  }
}

export const diagnosticRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/diagnostics',
    operationId: 'listDiagnostics',
    summary: 'List diagnostics of the workspace, newest first',
    description:
      'Filters: account_id, risk_level, date_start/date_end (the period in which diagnostics were created, UTC dates; with both, start ≤ end and at most 90 days, else 400 invalid_date_range), and the extra filters status and campaign_id.',
    tag: 'Diagnostics',
    counters: ['reads'],
    query: ListDiagnosticsQuerySchema,
    response: { status: 200, name: 'DiagnosticList', schema: listEnvelope(DiagnosticListItemSchema) },
    errors: ['invalid_request', 'invalid_date_range', 'permission_error', 'not_found'],
    async handle({ app, ctx, query }) {
      checkIdFormat(query.account_id, AccountIdParam, 'account_id');
      checkIdFormat(query.campaign_id, CampaignIdParam, 'campaign_id');
      const list = await app.use.diagnostics.list(ctx, {
        accountId: query.account_id,
        campaignId: query.campaign_id,
        riskLevel: query.risk_level,
        status: query.status,
        dateStart: query.date_start,
        dateEnd: query.date_end,
        page: query.page,
        pageSize: query.page_size,
      });
      return json(list.items, 200, pagination(list.total, list.page, list.pageSize));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/diagnostics/{id}',
    operationId: 'getDiagnostic',
    summary: 'Get a diagnostic (poll every 2-3 seconds until completed or failed)',
    tag: 'Diagnostics',
    counters: ['reads'],
    pathParams: { id: DiagnosticIdParam },
    response: { status: 200, name: 'DiagnosticResponse', schema: dataEnvelope(DiagnosticDetailSchema) },
    errors: ['invalid_request', 'not_found'],
    async handle({ app, ctx, params }) {
      return json(await app.use.diagnostics.get(ctx, params.id as string));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/diagnostics',
    operationId: 'createDiagnostic',
    summary: 'Start an asynchronous diagnostic of a campaign, or of a whole account without campaign_id',
    description:
      "account_id: service or platform account ID. date_start defaults to 7 days ago and date_end to today, in the account's timezone; at most 90 days. Returns 202 with status pending; poll GET /v1/diagnostics/{id}.",
    tag: 'Diagnostics',
    counters: ['writes', 'diagnostics'],
    body: CreateDiagnosticBodySchema,
    response: {
      status: 202,
      name: 'DiagnosticCreatedResponse',
      schema: dataEnvelope(DiagnosticCreatedSchema),
    },
    errors: [
      'invalid_request',
      'invalid_date_range',
      'permission_error',
      'not_found',
      'diagnostic_in_progress',
      'campaign_not_synced',
    ],
    async handle({ app, ctx, body }) {
      checkIdFormat(body.account_id, AccountIdParam, 'account_id');
      checkIdFormat(body.campaign_id, CampaignIdParam, 'campaign_id');
      const created = await app.use.diagnostics.start(ctx, {
        accountId: body.account_id,
        campaignId: body.campaign_id,
        dateStart: body.date_start,
        dateEnd: body.date_end,
      });
      return json(created, 202);
    },
  }),
];
