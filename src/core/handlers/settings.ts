// Settings screen: workspace and plan, API keys, the Andromeda profile, white-label defaults and the
// local API address. Translation only: the rules are in the identity, settings and diagnostics use cases.
import type { ApiKeyInfo } from '../identity/api-keys';
import type { AndromedaProfile, ApiKeyView } from '../../shared/ipc/types';
import type { HandlerEnv } from './context';
import type { HandlerImpls } from './dispatch';

export { API_PORT_SETTING, DEFAULT_API_PORT } from '../settings/use-cases';

const keyView = (k: ApiKeyInfo): ApiKeyView => ({
  id: k.id,
  name: k.name,
  mode: k.mode,
  hint: k.hint,
  createdAt: k.createdAt,
  expiresAt: k.expiresAt,
  revokedAt: k.revokedAt,
  lastUsedAt: k.lastUsedAt,
});

const profileView = (p: AndromedaProfile): AndromedaProfile => ({
  riskAppetite: p.riskAppetite,
  focusMetric: p.focusMetric,
  updatedAt: p.updatedAt,
});

export function settingsHandlers(
  env: HandlerEnv,
): Pick<
  HandlerImpls,
  | 'keys.list'
  | 'keys.create'
  | 'keys.revoke'
  | 'profile.get'
  | 'profile.update'
  | 'settings.get'
  | 'settings.update'
> {
  const { identity, settings, diagnostics } = env.app.use;
  return {
    'keys.list': async (ctx) => (await identity.listKeys(ctx)).map(keyView),
    'keys.create': async (ctx, args) => {
      const created = await identity.createKey(ctx, { mode: args.mode, name: args.name });
      return { key: created.key, apiKey: keyView(created.apiKey) };
    },
    'keys.revoke': async (ctx, args) => keyView(await identity.revokeKey(ctx, args.id)),
    'profile.get': async (ctx) => profileView(await diagnostics.profile(ctx)),
    'profile.update': async (ctx, args) =>
      profileView(
        await diagnostics.setProfile(ctx, { riskAppetite: args.riskAppetite, focusMetric: args.focusMetric }),
      ),
    'settings.get': (ctx) => settings.get(ctx, env.host.kind),
    'settings.update': (ctx, args) =>
      settings.update(ctx, env.host.kind, {
        apiPort: args.apiPort,
        whiteLabelDefaults: args.whiteLabelDefaults,
        metaAppId: args.metaAppId,
        metaAppSecret: args.metaAppSecret,
        keepRunningInTray: args.keepRunningInTray,
        openAtLogin: args.openAtLogin,
        reportingCurrency: args.reportingCurrency,
      }),
  };
}
