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
import { addDays, dateInZone } from '../../clock';
import { AppError } from '../../errors';
import { canSeeDiagnostic, resolveAccount, resolveCampaign, visibleAccounts } from '../../identity/access';
import { checkFilterRange, checkWindow } from '../../windows';
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
      const db = app.core.db;
      checkIdFormat(query.account_id, AccountIdParam, 'account_id');
      checkIdFormat(query.campaign_id, CampaignIdParam, 'campaign_id');
      checkFilterRange(query.date_start, query.date_end, ['date_start', 'date_end']);
      const accountIds = query.account_id
        ? [resolveAccount(db, ctx, query.account_id).id]
        : visibleAccounts(db, ctx).map((a) => a.id);
      const campaignId = query.campaign_id ? resolveCampaign(db, ctx, query.campaign_id).id : undefined;
      const list =
        accountIds.length === 0
          ? { items: [], total: 0 }
          : await app.diagnostics.list(ctx, {
              accountIds,
              riskLevel: query.risk_level,
              dateStart: query.date_start,
              dateEnd: query.date_end,
              status: query.status,
              campaignId,
              page: query.page,
              pageSize: query.page_size,
            });
      return json(list.items, 200, pagination(list.total, query.page, query.page_size));
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
      const id = params.id as string;
      const detail = canSeeDiagnostic(app.core.db, ctx, id) ? await app.diagnostics.get(ctx, id) : undefined;
      if (!detail) throw new AppError('not_found', `Diagnostic ${id} was not found.`);
      return json(detail);
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
      const db = app.core.db;
      checkIdFormat(body.account_id, AccountIdParam, 'account_id');
      checkIdFormat(body.campaign_id, CampaignIdParam, 'campaign_id');
      const account = resolveAccount(db, ctx, body.account_id);
      let campaignId: string | null = null;
      if (body.campaign_id) {
        const campaign = resolveCampaign(db, ctx, body.campaign_id);
        if (campaign.accountId !== account.id) {
          throw new AppError(
            'not_found',
            `Campaign ${campaign.id} was not found in account ${body.account_id}.`,
          );
        }
        campaignId = campaign.id;
      }
      const today = dateInZone(app.core.clock.now(), account.timezone);
      const to = body.date_end ?? today;
      const from = body.date_start ?? addDays(to > today ? today : to, -7);
      const window = checkWindow(from, to);
      const created = await app.diagnostics.create(ctx, {
        accountId: account.id,
        campaignId,
        dateFrom: window.from,
        dateTo: window.to,
      });
      return json(created, 202);
    },
  }),
];
