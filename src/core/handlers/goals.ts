// Goals in the app: the account's target CPA or ROAS and each campaign's own. Translation only: the
// rules are in the goals use cases.
import type { HandlerEnv } from './context';
import type { HandlerImpls } from './dispatch';

export function goalHandlers(
  env: HandlerEnv,
): Pick<HandlerImpls, 'goals.list' | 'goals.campaign' | 'goals.set' | 'goals.clear'> {
  const { goals } = env.app.use;
  return {
    'goals.list': (ctx, args) => goals.list(ctx, args.accountId),
    'goals.campaign': (ctx, args) => goals.campaign(ctx, args.campaignId),
    'goals.set': (ctx, args) => goals.set(ctx, args),
    // The goals left, so the screen shows the account goal and the campaign goals after clearing.
    'goals.clear': async (ctx, args) => {
      await goals.clear(ctx, args);
      return goals.list(ctx, args.accountId);
    },
  };
}
