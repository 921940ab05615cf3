// Saved views of the campaigns table. Translation only: the rules are in the saved-views use cases.
import type { HandlerEnv } from './context';
import type { HandlerImpls } from './dispatch';

export function savedViewHandlers(
  env: HandlerEnv,
): Pick<HandlerImpls, 'views.list' | 'views.save' | 'views.remove'> {
  const { views } = env.app.use;
  return {
    'views.list': (ctx, args) => views.list(ctx, args.screen),
    'views.save': (ctx, args) => views.save(ctx, args),
    'views.remove': (ctx, args) => views.remove(ctx, args.id),
  };
}
