// Accounts screen: connection and account status, sync progress, sync now, connect a demo account or
// a pasted token, disconnect, and reconnect / re-authenticate. Translation only: the rules are in
// the accounts use cases.
import { GRAPH_URL } from '../accounts/use-cases';
import type { HandlerEnv } from './context';
import type { HandlerImpls } from './dispatch';

export function accountHandlers(
  env: HandlerEnv,
): Pick<
  HandlerImpls,
  | 'accounts.list'
  | 'accounts.sync'
  | 'accounts.demoCandidates'
  | 'accounts.connectDemo'
  | 'accounts.connectToken'
  | 'accounts.disconnect'
  | 'accounts.reconnect'
> {
  const accounts = env.app.use.accounts;
  return {
    'accounts.list': (ctx) => accounts.all(ctx),
    'accounts.sync': (ctx, args) => accounts.sync(ctx, args.accountId, 'incremental'),
    'accounts.demoCandidates': (ctx) => accounts.demoCandidates(ctx),
    'accounts.connectDemo': (ctx, args) =>
      accounts.connect(ctx, { platformAccountId: args.platformAccountId }),
    'accounts.connectToken': (ctx, args) =>
      accounts.connect(ctx, {
        platformAccountId: args.platformAccountId,
        platform: { baseUrl: args.baseUrl ?? GRAPH_URL, token: args.token },
      }),
    'accounts.disconnect': (ctx, args) => accounts.disconnect(ctx, args.accountId),
    'accounts.reconnect': (ctx, args) => accounts.reconnect(ctx, args.accountId, args.token),
  };
}
