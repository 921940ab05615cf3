// Issues and sync schedules in the app: list, acknowledge and snooze issues; read and set how often
// accounts sync. Translation only: the rules are in the issues and watch use cases.
import type { HandlerEnv } from './context';
import type { HandlerImpls } from './dispatch';

export function watchHandlers(
  env: HandlerEnv,
): Pick<
  HandlerImpls,
  'issues.list' | 'issues.acknowledge' | 'issues.snooze' | 'watch.schedules' | 'watch.setInterval'
> {
  const { issues, watch } = env.app.use;
  return {
    'issues.list': (ctx, args) =>
      issues.list(ctx, {
        accountId: args.accountId,
        campaignId: args.campaignId,
        states: args.states,
        minSeverity: args.minSeverity,
        page: args.page,
        pageSize: args.pageSize,
      }),
    'issues.acknowledge': (ctx, args) => issues.acknowledge(ctx, args.id),
    'issues.snooze': (ctx, args) =>
      issues.snooze(ctx, args.id, {
        ...(args.until ? { until: args.until } : {}),
        ...(args.untilWorse !== undefined ? { untilWorse: args.untilWorse } : {}),
      }),
    'watch.schedules': (ctx) => watch.schedules(ctx),
    'watch.setInterval': (ctx, args) => watch.setInterval(ctx, args),
  };
}
