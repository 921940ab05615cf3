// Alert destinations in the app (Settings): list, add (the webhook's secret shown once), remove, and
// send a test. Translation only: the rules are in the alerts use cases.
import type { HandlerEnv } from './context';
import type { HandlerImpls } from './dispatch';

export function alertHandlers(
  env: HandlerEnv,
): Pick<HandlerImpls, 'alerts.list' | 'alerts.add' | 'alerts.remove' | 'alerts.test'> {
  const { alerts } = env.app.use;
  return {
    'alerts.list': (ctx) => alerts.list(ctx),
    'alerts.add': (ctx, args) => alerts.add(ctx, args),
    'alerts.remove': (ctx, args) => alerts.remove(ctx, args.id),
    'alerts.test': (ctx, args) => alerts.test(ctx, args.id),
  };
}
