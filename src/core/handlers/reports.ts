// Reports screen: create once or on a weekly/monthly schedule (campaign picker, format, white-label),
// list with status, schedules with cancel, and the file itself for the web bridge's download route
// and the desktop's save dialog.
import { AppError } from '../errors';
import { resolveAccount, visibleAccounts } from '../identity/access';
import type { ReportSchedule } from '../../shared/api/reports';
import type { Page, ReportScheduleView, ReportView } from '../../shared/ipc/types';
import type { HandlerContext, HandlerEnv } from './context';
import type { HandlerImpls } from './dispatch';

type ReportHandlerName =
  'reports.list' | 'reports.create' | 'reports.schedule' | 'reports.schedules' | 'reports.unschedule';

export function reportHandlers(env: HandlerEnv): Pick<HandlerImpls, ReportHandlerName> {
  const { db } = env.app.core;
  const withAccountName = (ctx: HandlerContext, schedules: ReportSchedule[]): ReportScheduleView[] => {
    const names = new Map(visibleAccounts(db, ctx).map((a) => [a.id, a.name]));
    return schedules.map((s) => ({ ...s, accountName: names.get(s.accountId) ?? s.accountId }));
  };
  return {
    'reports.list': async (ctx, args): Promise<Page<ReportView>> => {
      const result = await env.app.reports.list(ctx, {
        accountIds: visibleAccounts(db, ctx).map((a) => a.id),
        page: args.page,
        pageSize: args.pageSize,
        ...(args.status ? { status: args.status } : {}),
      });
      return {
        items: result.items as ReportView[],
        total: result.total,
        page: args.page,
        pageSize: args.pageSize,
      };
    },
    'reports.create': async (ctx, args) => {
      const account = resolveAccount(db, ctx, args.accountId);
      const created = (await env.app.reports.create(ctx, {
        accountId: account.id,
        title: args.title,
        dateFrom: args.dateFrom,
        dateTo: args.dateTo,
        format: args.format,
        ...(args.campaignIds && args.campaignIds.length > 0 ? { campaignIds: args.campaignIds } : {}),
        ...(args.whiteLabel ? { whiteLabel: args.whiteLabel } : {}),
      })) as { id: string };
      const report = (await env.app.reports.get(ctx, created.id)) as ReportView | undefined;
      if (!report) throw new AppError('not_found', `Report ${created.id} was not found.`);
      return report;
    },
    'reports.schedule': async (ctx, args) => {
      const account = resolveAccount(db, ctx, args.accountId);
      const schedule = await env.app.reports.schedule(ctx, {
        accountId: account.id,
        title: args.title,
        cadence: args.cadence,
        format: args.format,
        ...(args.campaignIds && args.campaignIds.length > 0 ? { campaignIds: args.campaignIds } : {}),
        ...(args.whiteLabel ? { whiteLabel: args.whiteLabel } : {}),
      });
      return withAccountName(ctx, [schedule])[0] as ReportScheduleView;
    },
    'reports.schedules': async (ctx, args) => {
      const all = await env.app.reports.listSchedules(ctx);
      return withAccountName(
        ctx,
        all.filter((s) => args.includeCancelled || s.cancelledAt === null),
      );
    },
    'reports.unschedule': async (ctx, args) =>
      withAccountName(ctx, [await env.app.reports.cancelSchedule(ctx, args.id)])[0] as ReportScheduleView,
  };
}

/** A completed report's file, read through the service with the signature of its own download link. */
export async function reportFile(
  env: HandlerEnv,
  ctx: HandlerContext,
  reportId: string,
): Promise<{ contentType: string; fileName: string; body: Buffer }> {
  const report = (await env.app.reports.get(ctx, reportId)) as ReportView | undefined;
  if (!report) throw new AppError('not_found', `Report ${reportId} was not found.`);
  if (report.status !== 'completed' || !report.downloadUrl) {
    throw new AppError('conflict', 'This report is not ready yet.');
  }
  if (env.app.reports.openFile) return env.app.reports.openFile(ctx, reportId);
  const url = new URL(report.downloadUrl);
  return env.app.reports.download(ctx, reportId, {
    expires: url.searchParams.get('expires') ?? '',
    signature: url.searchParams.get('signature') ?? '',
  });
}
