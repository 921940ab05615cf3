// The portfolio home and an account's overview, and a diagnostic's history, changes and dated
// evidence. Translation only: the read models are in the portfolio and diagnostics use cases.
import type { HandlerEnv } from './context';
import type { HandlerImpls } from './dispatch';

export function portfolioHandlers(
  env: HandlerEnv,
): Pick<
  HandlerImpls,
  | 'portfolio.home'
  | 'portfolio.overview'
  | 'diagnostics.history'
  | 'diagnostics.changes'
  | 'diagnostics.evidence'
> {
  const { portfolio, diagnostics } = env.app.use;
  return {
    'portfolio.home': (ctx) => portfolio.home(ctx),
    'portfolio.overview': (ctx, args) =>
      portfolio.overview(ctx, { accountId: args.accountId, days: args.days }),
    'diagnostics.history': (ctx, args) =>
      diagnostics.history(ctx, { accountId: args.accountId, campaignId: args.campaignId }),
    'diagnostics.changes': (ctx, args) => diagnostics.changes(ctx, args.id),
    'diagnostics.evidence': (ctx, args) => diagnostics.evidence(ctx, args.id),
  };
}
