// Reports screen: create once or on a weekly/monthly schedule (campaign picker, format, white-label),
// list with status, schedules with cancel. Translation only: the rules are in the reports use cases.
import type { HandlerContext, HandlerEnv } from './context';
import type { HandlerImpls } from './dispatch';

type ReportHandlerName =
  | 'reports.list'
  | 'reports.create'
  | 'reports.schedule'
  | 'reports.schedules'
  | 'reports.unschedule'
  | 'reports.preview'
  | 'reports.branding'
  | 'reports.setBranding';

export function reportHandlers(env: HandlerEnv): Pick<HandlerImpls, ReportHandlerName> {
  const { reports } = env.app.use;
  return {
    'reports.list': (ctx, args) => reports.list(ctx, args),
    'reports.create': async (ctx, args) => {
      const created = await reports.create(ctx, {
        accountId: args.accountId,
        title: args.title,
        dateStart: args.dateFrom,
        dateEnd: args.dateTo,
        format: args.format,
        campaignIds: args.campaignIds,
        whiteLabel: args.whiteLabel,
        locale: args.locale,
        sections: args.sections,
        commentary: args.commentary,
        delivery: args.delivery,
      });
      return reports.get(ctx, created.id);
    },
    'reports.preview': (ctx, args) =>
      reports.preview(ctx, {
        accountId: args.accountId,
        title: args.title,
        dateStart: args.dateFrom,
        dateEnd: args.dateTo,
        campaignIds: args.campaignIds,
        whiteLabel: args.whiteLabel,
        locale: args.locale,
        sections: args.sections,
        commentary: args.commentary,
      }),
    'reports.branding': (ctx, args) => reports.branding(ctx, args.accountId),
    'reports.setBranding': (ctx, args) =>
      reports.setBranding(ctx, { accountId: args.accountId, branding: args.branding }),
    'reports.schedule': (ctx, args) =>
      reports.schedule(ctx, {
        accountId: args.accountId,
        title: args.title,
        cadence: args.cadence,
        format: args.format,
        campaignIds: args.campaignIds,
        whiteLabel: args.whiteLabel,
        locale: args.locale,
        sections: args.sections,
        commentary: args.commentary,
        delivery: args.delivery,
      }),
    'reports.schedules': (ctx, args) => reports.schedules(ctx, { includeCancelled: args.includeCancelled }),
    'reports.unschedule': (ctx, args) => reports.unschedule(ctx, args.id),
  };
}

/** A completed report's file, for the web bridge's download route and the desktop's save dialog. */
export function reportFile(env: HandlerEnv, ctx: HandlerContext, reportId: string) {
  return env.app.use.reports.file(ctx, reportId);
}
