import {
  AccountIdParam,
  CampaignIdParam,
  dataEnvelope,
  listEnvelope,
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
      checkIdFormat(query.accountId, AccountIdParam, 'accountId');
      checkIdFormat(query.campaignId, CampaignIdParam, 'campaignId');
      const list = await app.use.reports.list(ctx, {
        accountId: query.accountId,
        campaignId: query.campaignId,
        status: query.status,
        format: query.format,
        from: query.from,
        to: query.to,
        page: query.page,
        pageSize: query.page_size,
      });
      return json(list.items, 200, pagination(list.total, list.page, list.pageSize));
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
      return json(await app.use.reports.get(ctx, params.id as string));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/reports',
    operationId: 'createReport',
    summary: 'Start asynchronous report generation',
    description:
      "Body: account_id, title, date_start, date_end (required, at most 90 days); campaign_ids (at most 20; default the account's top 20 campaigns by spend); format json, pdf or markdown (default pdf); whiteLabel {companyName, logo (PNG/JPEG data URI ≤ 256 KB), primaryColor #RRGGBB, footerText} on the Agency plan only; locale en (default) or ja; sections {commentary, kpis, summary, goals, trend, campaigns, diagnostics: false to leave out}; commentary (Markdown-light, at most 4,000 characters) (additions).",
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
      checkIdFormat(body.account_id, AccountIdParam, 'account_id');
      for (const id of body.campaign_ids ?? []) checkIdFormat(id, CampaignIdParam, 'campaign_ids entry');
      const created = await app.use.reports.create(ctx, {
        accountId: body.account_id,
        title: body.title,
        dateStart: body.date_start,
        dateEnd: body.date_end,
        campaignIds: body.campaign_ids,
        format: body.format,
        whiteLabel: body.whiteLabel,
        locale: body.locale,
        sections: body.sections,
        commentary: body.commentary,
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
      const file = await app.use.reports.download(ctx, params.id as string, query);
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
