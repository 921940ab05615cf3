// Reports: list, read, create, download, open and schedule, the same for every transport. Access and
// ID resolution (an account of the workspace, campaigns of that account), the size and plan rules (at
// most 20 distinct campaigns, white-label on its plans) and the date window are decided here once.
import {
  WhiteLabelSchema,
  type Report,
  type ReportContent,
  type ReportCreated,
  type ReportDelivery,
  type ReportFormat,
  type ReportLocale,
  type ReportSections,
  type WhiteLabel,
} from '../../shared/api/reports';
import { WHITE_LABEL_PLANS } from '../identity/access';
import { clientBranding, deleteClientBranding, saveClientBranding } from './store';
import { whiteLabelDefaults } from '../settings/use-cases';
import type { ClientBrandingView, ReportScheduleView } from '../../shared/ipc/types';
import type { AppServices } from '../app-services';
import { AppError } from '../errors';
import {
  canSeeReport,
  resolveAccount,
  resolveCampaign,
  visibleAccounts,
  type RequestContext,
} from '../identity/access';
import { checkFilterRange, checkWindow } from '../windows';

export interface ReportRequest {
  accountId: string;
  title: string;
  campaignIds?: readonly string[] | undefined;
  format?: ReportFormat | undefined;
  whiteLabel?: WhiteLabel | undefined;
  /** The report's language (default en). */
  locale?: ReportLocale | undefined;
  sections?: ReportSections | undefined;
  commentary?: string | undefined;
  delivery?: ReportDelivery | undefined;
}

export interface ReportFilter {
  accountId?: string | undefined;
  campaignId?: string | undefined;
  status?: Report['status'] | undefined;
  format?: ReportFormat | undefined;
  from?: string | undefined;
  to?: string | undefined;
  page: number;
  pageSize: number;
}

export interface ReportFileView {
  contentType: string;
  fileName: string;
  contentDisposition?: string | undefined;
  body: Buffer;
}

export function reportUseCases(services: AppServices) {
  const { core, reports } = services;
  const { sql } = core;

  /** The account and campaigns of a request, after the size and plan rules. */
  async function resolveRequest(ctx: RequestContext, input: ReportRequest) {
    reports.checkLimits(ctx, input.campaignIds, input.whiteLabel);
    const account = await resolveAccount(sql, ctx, input.accountId);
    const campaignIds = input.campaignIds
      ? await Promise.all(
          [...new Set(input.campaignIds)].map(async (id) => {
            const campaign = await resolveCampaign(sql, ctx, id);
            if (campaign.accountId !== account.id) {
              throw new AppError('not_found', `Campaign ${id} was not found in account ${input.accountId}.`);
            }
            return campaign.id;
          }),
        )
      : undefined;
    return {
      accountId: account.id,
      title: input.title,
      ...(campaignIds && campaignIds.length > 0 ? { campaignIds } : {}),
      ...(input.format ? { format: input.format } : {}),
      ...(input.whiteLabel ? { whiteLabel: input.whiteLabel } : {}),
      ...(input.locale ? { locale: input.locale } : {}),
      ...(input.sections ? { sections: input.sections } : {}),
      ...(input.commentary ? { commentary: input.commentary } : {}),
      ...(input.delivery ? { delivery: input.delivery } : {}),
    };
  }

  async function brandingView(ctx: RequestContext, accountId: string): Promise<ClientBrandingView> {
    const row = await clientBranding(sql, ctx.workspaceId, accountId);
    return {
      accountId,
      branding: row
        ? {
            companyName: row.company_name,
            ...(row.logo ? { logo: row.logo } : {}),
            ...(row.primary_color ? { primaryColor: row.primary_color } : {}),
            ...(row.footer_text ? { footerText: row.footer_text } : {}),
          }
        : null,
      workspaceDefault: await whiteLabelDefaults(sql, ctx.workspaceId),
      allowed: WHITE_LABEL_PLANS.includes(ctx.plan),
    };
  }

  async function visible(ctx: RequestContext, id: string): Promise<Report> {
    await reports.ready();
    const report = (await canSeeReport(sql, ctx, id)) ? await reports.get(ctx, id) : undefined;
    if (!report) throw new AppError('not_found', `Report ${id} was not found.`);
    return report;
  }

  async function withAccountNames(
    ctx: RequestContext,
    schedules: Awaited<ReturnType<typeof reports.listSchedules>>,
  ) {
    const names = new Map((await visibleAccounts(sql, ctx)).map((a) => [a.id, a.name]));
    return schedules.map((s): ReportScheduleView => ({
      ...s,
      accountName: names.get(s.accountId) ?? s.accountId,
    }));
  }

  return {
    async list(
      ctx: RequestContext,
      filter: ReportFilter,
    ): Promise<{ items: Report[]; total: number; page: number; pageSize: number }> {
      checkFilterRange(filter.from, filter.to, ['from', 'to']);
      const account = filter.accountId ? await resolveAccount(sql, ctx, filter.accountId) : undefined;
      const accountIds = account ? [account.id] : (await visibleAccounts(sql, ctx)).map((a) => a.id);
      const campaignId = filter.campaignId
        ? (await resolveCampaign(sql, ctx, filter.campaignId)).id
        : undefined;
      const { page, pageSize } = filter;
      if (accountIds.length === 0) return { items: [], total: 0, page, pageSize };
      await reports.ready();
      const list = await reports.list(ctx, {
        accountIds,
        accountId: account?.id,
        campaignId,
        status: filter.status,
        format: filter.format,
        from: filter.from,
        to: filter.to,
        page,
        pageSize,
      });
      return { items: list.items, total: list.total, page, pageSize };
    },

    get: visible,

    /** Starts generation (202 in /v1): poll `get` until completed or failed. */
    async create(
      ctx: RequestContext,
      input: ReportRequest & { dateStart: string; dateEnd: string },
    ): Promise<ReportCreated> {
      const request = await resolveRequest(ctx, input);
      const window = checkWindow(input.dateStart, input.dateEnd);
      return await reports.create(ctx, { ...request, dateFrom: window.from, dateTo: window.to });
    },

    /** The content a report would have, for the preview beside the form (nothing is stored). */
    async preview(
      ctx: RequestContext,
      input: ReportRequest & { dateStart: string; dateEnd: string },
    ): Promise<ReportContent> {
      const request = await resolveRequest(ctx, input);
      const window = checkWindow(input.dateStart, input.dateEnd);
      return await reports.preview(ctx, { ...request, dateFrom: window.from, dateTo: window.to });
    },

    /** A client's (ad account's) report branding and the workspace default. */
    async branding(ctx: RequestContext, accountIdText: string): Promise<ClientBrandingView> {
      return await brandingView(ctx, (await resolveAccount(sql, ctx, accountIdText)).id);
    },

    /** Sets a client's branding (Agency plan only, like white-label); null clears it. */
    async setBranding(
      ctx: RequestContext,
      input: { accountId: string; branding: WhiteLabel | null },
    ): Promise<ClientBrandingView> {
      const account = await resolveAccount(sql, ctx, input.accountId);
      if (input.branding === null) {
        await deleteClientBranding(sql, ctx.workspaceId, account.id);
        return await brandingView(ctx, account.id);
      }
      reports.checkLimits(ctx, undefined, input.branding);
      const parsed = WhiteLabelSchema.safeParse(input.branding);
      if (!parsed.success) {
        throw new AppError('invalid_request', parsed.error.issues.map((i) => i.message).join('; '));
      }
      await saveClientBranding(sql, {
        workspace_id: ctx.workspaceId,
        account_id: account.id,
        company_name: parsed.data.companyName,
        logo: parsed.data.logo ?? null,
        primary_color: parsed.data.primaryColor?.toUpperCase() ?? null,
        footer_text: parsed.data.footerText ?? null,
        updated_at: core.clock.now().toISOString(),
      });
      return await brandingView(ctx, account.id);
    },

    /** Generates a report and waits for it (the command line): the report and its file's path. */
    async generateNow(
      ctx: RequestContext,
      input: ReportRequest & { dateStart: string; dateEnd: string },
      onStarted?: (id: string) => void,
    ): Promise<{ report: Report; path: string | null }> {
      const request = await resolveRequest(ctx, input);
      const window = checkWindow(input.dateStart, input.dateEnd);
      const created = await reports.create(ctx, { ...request, dateFrom: window.from, dateTo: window.to });
      onStarted?.(created.id);
      const report = await reports.waitFor(ctx, created.id);
      return { report, path: await reports.localPath(ctx, created.id) };
    },

    /** The file behind a signed link (every refusal is 404, DESIGN §5). */
    async download(ctx: RequestContext, id: string, link: { expires: string; signature: string }) {
      if (!(await canSeeReport(sql, ctx, id))) throw new AppError('not_found', `Report ${id} was not found.`);
      return (await reports.download(ctx, id, link)) as ReportFileView;
    },

    /** A completed report's file for a signed-in person (the desktop's save dialog, the dashboard). */
    async file(ctx: RequestContext, id: string): Promise<ReportFileView> {
      const report = await visible(ctx, id);
      if (report.status !== 'completed') throw new AppError('conflict', 'This report is not ready yet.');
      return await reports.openFile(ctx, id);
    },

    async schedule(
      ctx: RequestContext,
      input: ReportRequest & { cadence: 'weekly' | 'monthly' },
    ): Promise<ReportScheduleView> {
      const schedule = await reports.schedule(ctx, {
        ...(await resolveRequest(ctx, input)),
        cadence: input.cadence,
      });
      return (await withAccountNames(ctx, [schedule]))[0] as ReportScheduleView;
    },

    async schedules(
      ctx: RequestContext,
      input: { includeCancelled?: boolean } = {},
    ): Promise<ReportScheduleView[]> {
      const all = await reports.listSchedules(ctx);
      return await withAccountNames(
        ctx,
        all.filter((s) => input.includeCancelled || s.cancelledAt === null),
      );
    },

    async unschedule(ctx: RequestContext, id: string): Promise<ReportScheduleView> {
      return (await withAccountNames(ctx, [await reports.cancelSchedule(ctx, id)]))[0] as ReportScheduleView;
    },
  };
}

export type ReportUseCases = ReturnType<typeof reportUseCases>;
