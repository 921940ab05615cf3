// Accounts screen: connection and account status, sync progress, sync now, connect a demo account or
// a pasted token, list what a token reaches and connect many at once, disconnect, and reconnect / re-authenticate. Translation only: the rules are in
// the accounts use cases.
import { GRAPH_URL } from '../platform/graph-client';
import type { HandlerEnv } from './context';
import type { HandlerImpls } from './dispatch';

/** No token: the embedded demo platform; a pasted token without a URL is for Meta's Graph API. */
function platformOf(args: { token?: string | undefined; baseUrl?: string | undefined }): {
  platformUrl?: string;
  token?: string;
} {
  return args.token ? { platformUrl: args.baseUrl ?? GRAPH_URL, token: args.token } : {};
}

export function accountHandlers(
  env: HandlerEnv,
): Pick<
  HandlerImpls,
  | 'accounts.list'
  | 'accounts.sync'
  | 'accounts.demoCandidates'
  | 'accounts.facebookLogin'
  | 'accounts.connectDemo'
  | 'accounts.connectToken'
  | 'accounts.available'
  | 'accounts.connectMany'
  | 'accounts.disconnect'
  | 'accounts.reconnect'
> {
  const accounts = env.app.use.accounts;
  return {
    'accounts.list': (ctx) => accounts.all(ctx),
    'accounts.sync': (ctx, args) => accounts.sync(ctx, args.accountId, 'incremental'),
    'accounts.demoCandidates': (ctx) => accounts.demoCandidates(ctx),
    'accounts.facebookLogin': (ctx, args) => accounts.facebookLogin(ctx, { platform: args.platform }),
    'accounts.connectDemo': (ctx, args) =>
      accounts.connect(ctx, { platformAccountId: args.platformAccountId }),
    'accounts.connectToken': (ctx, args) =>
      accounts.connect(ctx, {
        platformAccountId: args.platformAccountId,
        platform: { baseUrl: args.baseUrl ?? GRAPH_URL, token: args.token },
      }),
    'accounts.available': (ctx, args) => accounts.available(ctx, platformOf(args)),
    'accounts.connectMany': (ctx, args) =>
      accounts.connectMany(ctx, { platformAccountIds: args.platformAccountIds, ...platformOf(args) }),
    'accounts.disconnect': (ctx, args) => accounts.disconnect(ctx, args.accountId),
    'accounts.reconnect': (ctx, args) => accounts.reconnect(ctx, args.accountId, args.token),
  };
}
