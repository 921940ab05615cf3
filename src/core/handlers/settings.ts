// Settings screen: workspace and plan, API keys (H3's identity module), the Andromeda profile,
// white-label defaults and the local API address.
import { AppError } from '../errors';
import { API_PLANS, WHITE_LABEL_PLANS } from '../identity/access';
import { createApiKey, getApiKey, listApiKeys, revokeApiKey, type ApiKeyInfo } from '../identity/api-keys';
import { getUser } from '../identity/users';
import { getWorkspace } from '../identity/workspaces';
import { WhiteLabelSchema } from '../../shared/api/reports';
import type { AndromedaProfile, ApiKeyView, SettingsView, WhiteLabel } from '../../shared/ipc/types';
import type { HandlerContext, HandlerEnv } from './context';
import type { HandlerImpls } from './dispatch';

export const API_PORT_SETTING = 'api_port';
export const DEFAULT_API_PORT = 4477;
const whiteLabelKey = (workspaceId: string): string => `white_label_defaults:${workspaceId}`;

function readSetting(env: HandlerEnv, key: string): string | undefined {
  const row = env.app.core.db.prepare(`SELECT value FROM settings WHERE key = ?`).get(key) as
    { value: string } | undefined;
  return row?.value;
}

function writeSetting(env: HandlerEnv, key: string, value: string | null): void {
  if (value === null) env.app.core.db.prepare(`DELETE FROM settings WHERE key = ?`).run(key);
  else
    env.app.core.db
      .prepare(
        `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
      )
      .run(key, value);
}

/** The port the desktop host starts /v1 on (settings key `api_port`, default 4477). */
export function configuredApiPort(env: Pick<HandlerEnv, 'app'>): number {
  const row = env.app.core.db.prepare(`SELECT value FROM settings WHERE key = ?`).get(API_PORT_SETTING) as
    { value: string } | undefined;
  const value = Number(row?.value ?? DEFAULT_API_PORT);
  return Number.isInteger(value) && value > 0 && value < 65536 ? value : DEFAULT_API_PORT;
}

function whiteLabelDefaults(env: HandlerEnv, ctx: HandlerContext): WhiteLabel | null {
  const text = readSetting(env, whiteLabelKey(ctx.workspaceId));
  if (!text) return null;
  const parsed = WhiteLabelSchema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : null;
}

function settingsView(env: HandlerEnv, ctx: HandlerContext): SettingsView {
  const workspace = getWorkspace(env.app.core.db, ctx.workspaceId);
  const user = getUser(env.app.core.db, ctx.userId);
  if (!workspace || !user) throw new AppError('not_found', 'Your workspace or user no longer exists.');
  return {
    host: env.host.kind,
    workspace: {
      id: workspace.id,
      name: workspace.name,
      plan: workspace.plan,
      apiAllowed: API_PLANS.includes(workspace.plan),
      whiteLabelAllowed: WHITE_LABEL_PLANS.includes(workspace.plan),
    },
    user: { id: user.id, email: user.email, name: user.name, role: user.role },
    api: { baseUrl: env.host.apiBaseUrl(), port: configuredApiPort(env) },
    whiteLabelDefaults: whiteLabelDefaults(env, ctx),
  };
}

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

function profileOf(env: HandlerEnv, ctx: HandlerContext): AndromedaProfile {
  const { riskAppetite, focusMetric, updatedAt } = env.app.diagnostics.getProfile(ctx);
  return { riskAppetite, focusMetric, updatedAt };
}

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
  const { db, clock } = env.app.core;
  return {
    'keys.list': (ctx) => listApiKeys(db, ctx.workspaceId).map(keyView).reverse(),
    'keys.create': (ctx, args) => {
      if (!API_PLANS.includes(ctx.plan)) {
        throw new AppError('plan_insufficient', 'API keys need the Agency plan.');
      }
      const created = createApiKey(db, clock, {
        workspaceId: ctx.workspaceId,
        userId: ctx.userId,
        mode: args.mode,
        name: args.name,
      });
      return { key: created.key, apiKey: keyView(created.apiKey) };
    },
    'keys.revoke': (ctx, args) => {
      const existing = getApiKey(db, args.id);
      if (!existing || existing.workspaceId !== ctx.workspaceId) {
        throw new AppError('not_found', `API key ${args.id} was not found.`);
      }
      return keyView(revokeApiKey(db, clock, args.id));
    },
    'profile.get': (ctx) => profileOf(env, ctx),
    'profile.update': (ctx, args) => {
      env.app.diagnostics.setProfile(ctx, { riskAppetite: args.riskAppetite, focusMetric: args.focusMetric });
      return profileOf(env, ctx);
    },
    'settings.get': (ctx) => settingsView(env, ctx),
    'settings.update': (ctx, args) => {
      if (args.apiPort !== undefined) writeSetting(env, API_PORT_SETTING, String(args.apiPort));
      if (args.whiteLabelDefaults !== undefined) {
        if (args.whiteLabelDefaults && !WHITE_LABEL_PLANS.includes(ctx.plan)) {
          throw new AppError('white_label_not_available', 'White-label reports need the Agency plan.');
        }
        writeSetting(
          env,
          whiteLabelKey(ctx.workspaceId),
          args.whiteLabelDefaults ? JSON.stringify(args.whiteLabelDefaults) : null,
        );
      }
      return settingsView(env, ctx);
    },
  };
}
