// Diagnostics screens: list with filters, detail with the feedback already given, run, feedback.
// Translation only: the rules are in the diagnostics use cases.
import type { HandlerEnv } from './context';
import type { HandlerImpls } from './dispatch';

export function diagnosticHandlers(
  env: HandlerEnv,
): Pick<HandlerImpls, 'diagnostics.list' | 'diagnostics.get' | 'diagnostics.run' | 'diagnostics.feedback'> {
  const { diagnostics } = env.app.use;
  return {
    'diagnostics.list': (ctx, args) => diagnostics.list(ctx, args),
    'diagnostics.get': (ctx, args) => diagnostics.screen(ctx, args.id),
    'diagnostics.run': (ctx, args) =>
      diagnostics.start(ctx, {
        accountId: args.accountId,
        campaignId: args.campaignId,
        dateStart: args.dateFrom,
        dateEnd: args.dateTo,
      }),
    'diagnostics.feedback': async (ctx, args) => {
      const given = await diagnostics.feedback(ctx, args);
      return { recommendationId: given.recommendationId, feedback: given.feedback };
    },
  };
}
