// Alert destinations in the app (Settings): list, add (the webhook's secret shown once), remove, and
// send a test; the SMTP server (with a test e-mail), quiet hours and one's own morning digest. Translation only: the rules are in the alerts use cases.
import type { HandlerEnv } from './context';
import type { HandlerImpls } from './dispatch';

export function alertHandlers(
  env: HandlerEnv,
): Pick<
  HandlerImpls,
  | 'alerts.list'
  | 'alerts.add'
  | 'alerts.remove'
  | 'alerts.test'
  | 'alerts.smtp'
  | 'alerts.setSmtp'
  | 'alerts.testSmtp'
  | 'alerts.preferences'
  | 'alerts.setPreferences'
  | 'alerts.digest'
  | 'alerts.setDigest'
> {
  const { alerts } = env.app.use;
  return {
    'alerts.list': (ctx) => alerts.list(ctx),
    'alerts.add': (ctx, args) => alerts.add(ctx, args),
    'alerts.remove': (ctx, args) => alerts.remove(ctx, args.id),
    'alerts.test': (ctx, args) => alerts.test(ctx, args.id),
    'alerts.smtp': (ctx) => alerts.smtp(ctx),
    'alerts.setSmtp': (ctx, args) => alerts.setSmtp(ctx, args),
    'alerts.testSmtp': (ctx, args) => alerts.testSmtp(ctx, args),
    'alerts.preferences': (ctx) => alerts.preferences(ctx),
    'alerts.setPreferences': (ctx, args) => alerts.setPreferences(ctx, args),
    'alerts.digest': (ctx) => alerts.digest(ctx),
    // One's own digest: the user is the signed-in one (the CLI names any user of the workspace).
    'alerts.setDigest': (ctx, args) => alerts.setDigest(ctx, { ...args, userId: ctx.userId ?? '' }),
  };
}
