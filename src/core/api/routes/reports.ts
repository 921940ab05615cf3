import {
  AccountIdParam,
  CampaignIdParam,
  dataEnvelope,
  listEnvelope,
  MAX_REPORT_CAMPAIGNS,
  pagination,
  ReportIdParam,
} from '../../../shared/api/common';
import {
  CreateReportBodySchema,
  DownloadReportQuerySchema,
  ListReportsQuerySchema,
  ReportCreatedSchema,
  ReportSchema,
} from '../../../shared/api/reports';
import { AppError } from '../../errors';
import {
  canSeeReport,
  resolveAccount,
  resolveCampaign,
  visibleAccounts,
  WHITE_LABEL_PLANS,
} from '../../identity/access';
import { checkFilterRange, checkWindow } from '../../windows';
import { defineRoute, json } from '../route';
import { checkIdFormat } from './diagnostics';

export const reportRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/reports',
    operationId: 'listReports',
    summary: 'List reports, newest first (poll this list, or GET /v1/reports/{id}, for completion)',
    description:
      'Filters (camelCase, as the spec says): campaignId, accountId, status, format, and from/to bounding the creation time (ISO 8601 timestamp or date; a date `to` covers its whole day). With both from and to, the period must not end before it starts nor be longer than 90 days (400 invalid_date_range).',
    tag: 'Reports',
    counters: ['reads'],
    query: ListReportsQuerySchema,
    response: { status: 200, name: 'ReportList', schema: listEnvelope(ReportSchema) },
    errors: ['invalid_request', 'invalid_date_range', 'permission_error', 'not_found'],
    async handle({ app, ctx, query }) {
      const db = app.core.db;
      checkIdFormat(query.accountId, AccountIdParam, 'accountId');
      checkIdFormat(query.campaignId, CampaignIdParam, 'campaignId');
      checkFilterRange(query.from, query.to, ['from', 'to']);
      const account = query.accountId ? resolveAccount(db, ctx, query.accountId) : undefined;
      const accountIds = account ? [account.id] : visibleAccounts(db, ctx).map((a) => a.id);
      const campaignId = query.campaignId ? resolveCampaign(db, ctx, query.campaignId).id : undefined;
      const list =
        accountIds.length === 0
          ? { items: [], total: 0 }
          : await app.reports.list(ctx, {
              accountIds,
              accountId: account?.id,
              campaignId,
              status: query.status,
              format: query.format,
              from: query.from,
              to: query.to,
              page: query.page,
              pageSize: query.page_size,
            });
      return json(list.items, 200, pagination(list.total, query.page, query.page_size));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/reports/{id}',
    operationId: 'getReport',
    summary: 'Get one report (an addition to the spec, for polling one report)',
    tag: 'Reports',
    counters: ['reads'],
    pathParams: { id: ReportIdParam },
    response: { status: 200, name: 'ReportResponse', schema: dataEnvelope(ReportSchema) },
    errors: ['invalid_request', 'not_found'],
    async handle({ app, ctx, params }) {
      const id = params.id as string;
      const report = canSeeReport(app.core.db, ctx, id) ? await app.reports.get(ctx, id) : undefined;
      if (!report) throw new AppError('not_found', `Report ${id} was not found.`);
      return json(report);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/reports',
    operationId: 'createReport',
    summary: 'Start asynchronous report generation',
    description:
      "Body: account_id, title, date_start, date_end (required, at most 90 days); campaign_ids (at most 20; default the account's top 20 campaigns by spend); format json, pdf or markdown (default pdf); whiteLabel {companyName, logo (PNG/JPEG data URI ≤ 256 KB), primaryColor #RRGGBB, footerText} on the Agency plan only.",
    tag: 'Reports',
    counters: ['writes', 'reports'],
    body: CreateReportBodySchema,
    response: { status: 202, name: 'ReportCreatedResponse', schema: dataEnvelope(ReportCreatedSchema) },
    errors: [
      'invalid_request',
      'invalid_date_range',
      'too_many_campaigns',
      'permission_error',
      'white_label_not_available',
      'not_found',
    ],
    async handle({ app, ctx, body }) {
      const db = app.core.db;
      if (body.campaign_ids && body.campaign_ids.length > MAX_REPORT_CAMPAIGNS) {
        throw new AppError(
          'too_many_campaigns',
          `A report covers at most ${MAX_REPORT_CAMPAIGNS} campaigns; ${body.campaign_ids.length} were given.`,
        );
      }
      if (body.whiteLabel && !WHITE_LABEL_PLANS.includes(ctx.plan)) {
        throw new AppError(
          'white_label_not_available',
          `White-label reports need the Agency plan; this workspace is on the ${ctx.plan} plan.`,
        );
      }
      checkIdFormat(body.account_id, AccountIdParam, 'account_id');
      for (const id of body.campaign_ids ?? []) checkIdFormat(id, CampaignIdParam, 'campaign_ids entry');
      const account = resolveAccount(db, ctx, body.account_id);
      const campaignIds = body.campaign_ids
        ? [...new Set(body.campaign_ids)].map((id) => {
            const campaign = resolveCampaign(db, ctx, id);
            if (campaign.accountId !== account.id) {
              throw new AppError('not_found', `Campaign ${id} was not found in account ${body.account_id}.`);
            }
            return campaign.id;
          })
        : undefined;
      const window = checkWindow(body.date_start, body.date_end);
      const created = await app.reports.create(ctx, {
        accountId: account.id,
        title: body.title,
        dateFrom: window.from,
        dateTo: window.to,
        ...(campaignIds ? { campaignIds } : {}),
        ...(body.format ? { format: body.format } : {}),
        ...(body.whiteLabel ? { whiteLabel: body.whiteLabel } : {}),
      });
      return json(created, 202);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/reports/{id}/download',
    operationId: 'downloadReport',
    summary: 'Download a completed report file (the signed downloadUrl; send x-api-key too)',
    description:
      'Returns the file itself with Content-Disposition: attachment. An expired link or a bad signature is 404 not_found.',
    tag: 'Reports',
    counters: ['reads'],
    pathParams: { id: ReportIdParam },
    query: DownloadReportQuerySchema,
    response: {
      status: 200,
      contentTypes: ['application/pdf', 'text/markdown; charset=utf-8', 'application/json'],
    },
    errors: ['invalid_request', 'not_found'],
    async handle({ app, ctx, params, query }) {
      const id = params.id as string;
      if (!canSeeReport(app.core.db, ctx, id)) throw new AppError('not_found', `Report ${id} was not found.`);
      const file = await app.reports.download(ctx, id, query);
      return {
        kind: 'file',
        status: 200,
        contentType: file.contentType,
        fileName: file.fileName,
        ...(file.contentDisposition ? { contentDisposition: file.contentDisposition } : {}),
        body: file.body,
      };
    },
  }),
];
