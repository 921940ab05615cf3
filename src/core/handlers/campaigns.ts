// Campaigns table and campaign detail screens, and the target CPA. Translation only: the rules and
// the read models are in the campaigns use cases.
import type { HandlerEnv } from './context';
import type { HandlerImpls } from './dispatch';

export function campaignHandlers(
  env: HandlerEnv,
): Pick<HandlerImpls, 'campaigns.list' | 'campaigns.get' | 'campaigns.setTargetCpa' | 'campaigns.changes'> {
  const { campaigns } = env.app.use;
  return {
    'campaigns.setTargetCpa': (ctx, args) => campaigns.setTargetCpa(ctx, args.campaignId, args.targetCpa),
    'campaigns.list': (ctx, args) =>
      campaigns.table(ctx, { accountId: args.accountId, range: args.range, dateRange: args.dateRange }),
    'campaigns.get': (ctx, args) => campaigns.screen(ctx, args.campaignId, args.range, args.dateRange),
    'campaigns.changes': (ctx, args) => campaigns.changes(ctx, args.campaignId),
  };
}
