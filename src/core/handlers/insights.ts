// Insights screen: the summary over the accounts the user sees (or one account). Translation only.
import type { HandlerEnv } from './context';
import type { HandlerImpls } from './dispatch';

export function insightHandlers(env: HandlerEnv): Pick<HandlerImpls, 'insights.summary'> {
  return {
    'insights.summary': (ctx, args) =>
      env.app.use.insights.summary(ctx, {
        accountId: args.accountId,
        dateStart: args.range?.from,
        dateEnd: args.range?.to,
        days: args.range?.days,
        dateRange: args.dateRange,
        breakdown: args.breakdown,
      }),
  };
}
