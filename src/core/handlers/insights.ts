// Insights screen: the coordinator's insights summary over the accounts the user sees (or one account).
import { AppError } from '../errors';
import { resolveAccount, visibleAccounts } from '../identity/access';
import { insightsSummary } from '../insights';
import type { HandlerEnv } from './context';
import type { HandlerImpls } from './dispatch';
import { resolveRange } from './ranges';

export function insightHandlers(env: HandlerEnv): Pick<HandlerImpls, 'insights.summary'> {
  const { db, clock } = env.app.core;
  return {
    'insights.summary': (ctx, args) => {
      const accounts = args.accountId ? [resolveAccount(db, ctx, args.accountId)] : visibleAccounts(db, ctx);
      const first = accounts[0];
      if (!first) throw new AppError('not_found', 'Connect an ad account to see insights.');
      const { from, to } = resolveRange(clock, args.range, first.timezone, 7);
      return insightsSummary(db, {
        accountIds: accounts.map((a) => a.id),
        from,
        to,
        currency: first.currency,
      });
    },
  };
}
