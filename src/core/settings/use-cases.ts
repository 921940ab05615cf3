// Settings: the workspace, plan and user as the Settings screen shows them, the desktop's /v1 port
// and the workspace's white-label defaults (a plan rule: white-label needs a white-label plan).
import { WhiteLabelSchema } from '../../shared/api/reports';
import { ReportingCurrencySchema, type ReportingCurrency } from '../../shared/api/reporting-currency';
import type { SettingsView, WhiteLabel } from '../../shared/ipc/types';
import type { AppServices } from '../app-services';
import { AppError } from '../errors';
import { API_PLANS, WHITE_LABEL_PLANS, type RequestContext } from '../identity/access';
import { getUser } from '../identity/users';
import { getWorkspace } from '../identity/workspaces';
import type { TokenCipher } from '../secrets';
import type { Sql } from '../store/sql';
import { readSetting, writeSetting } from './store';

export const API_PORT_SETTING = 'api_port';
export const DEFAULT_API_PORT = 4477;
const whiteLabelKey = (workspaceId: string): string => `white_label_defaults:${workspaceId}`;
const reportingCurrencyKey = (workspaceId: string): string => `reporting_currency:${workspaceId}`;

/** The agency's reporting currency and exchange rates (whole-workspace insights), if set. */
export async function reportingCurrencyOf(sql: Sql, workspaceId: string): Promise<ReportingCurrency | null> {
  const text = await readSetting(sql, reportingCurrencyKey(workspaceId));
  if (!text) return null;
  try {
    const parsed = ReportingCurrencySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The port the desktop host starts /v1 on (settings key `api_port`, default 4477). */
export async function configuredApiPort(sql: Sql): Promise<number> {
  const value = Number((await readSetting(sql, API_PORT_SETTING)) ?? DEFAULT_API_PORT);
  return Number.isInteger(value) && value > 0 && value < 65536 ? value : DEFAULT_API_PORT;
}

export async function whiteLabelDefaults(sql: Sql, workspaceId: string): Promise<WhiteLabel | null> {
  const text = await readSetting(sql, whiteLabelKey(workspaceId));
  if (!text) return null;
  try {
    const parsed = WhiteLabelSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export interface SettingsChange {
  apiPort?: number | undefined;
  whiteLabelDefaults?: WhiteLabel | null | undefined;
  metaAppId?: string | null | undefined;
  metaAppSecret?: string | null | undefined;
  keepRunningInTray?: boolean | undefined;
  openAtLogin?: boolean | undefined;
  /** The reporting currency and rates (checked again here: the CLI and tests call in directly). */
  reportingCurrency?: ReportingCurrency | null | undefined;
}

const KEEP_RUNNING_IN_TRAY = 'desktop_keep_running_in_tray';
const OPEN_AT_LOGIN = 'desktop_open_at_login';

/** The desktop app's watch preferences: keep running in the tray when the window closes, open at login. */
export async function desktopPreferences(
  sql: Sql,
): Promise<{ keepRunningInTray: boolean; openAtLogin: boolean }> {
  return {
    keepRunningInTray: (await readSetting(sql, KEEP_RUNNING_IN_TRAY)) === '1',
    openAtLogin: (await readSetting(sql, OPEN_AT_LOGIN)) === '1',
  };
}

const META_APP_ID = 'meta_app_id';
/** Sealed like platform tokens; a store copy re-seals it (store/copy/sealed.ts). */
export const META_APP_SECRET = 'meta_app_secret_sealed';

/** The agency's own Meta app (Facebook Login): its ID and its secret, unsealed; null when not set. */
export async function metaApp(
  sql: Sql,
  cipher: TokenCipher,
): Promise<{ appId: string; appSecret: string } | null> {
  const appId = await readSetting(sql, META_APP_ID);
  const sealed = await readSetting(sql, META_APP_SECRET);
  if (!appId || !sealed) return null;
  try {
    return { appId, appSecret: cipher.decrypt(Buffer.from(sealed, 'base64')) };
  } catch {
    return null; // sealed with a key this install no longer has: set it again
  }
}

/** A reporting currency as given (null clears it), or a 400 naming what is wrong with it. */
function checkedReportingCurrency(value: unknown): ReportingCurrency | null {
  if (value === null) return null;
  const parsed = ReportingCurrencySchema.safeParse(value);
  if (!parsed.success) {
    throw new AppError(
      'invalid_request',
      `reportingCurrency: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'value'}: ${issue.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

export function settingsUseCases(services: AppServices) {
  const { sql, tokenCipher } = services.core;

  const writeReportingCurrency = (workspaceId: string, reporting: ReportingCurrency | null): Promise<void> =>
    writeSetting(sql, reportingCurrencyKey(workspaceId), reporting ? JSON.stringify(reporting) : null);

  async function view(ctx: RequestContext, host: SettingsView['host']): Promise<SettingsView> {
    const workspace = await getWorkspace(sql, ctx.workspaceId);
    const user = ctx.userId ? await getUser(sql, ctx.userId) : undefined;
    if (!workspace || !user) throw new AppError('not_found', 'Your workspace or user no longer exists.');
    return {
      host,
      workspace: {
        id: workspace.id,
        name: workspace.name,
        plan: workspace.plan,
        apiAllowed: API_PLANS.includes(workspace.plan),
        whiteLabelAllowed: WHITE_LABEL_PLANS.includes(workspace.plan),
      },
      user: { id: user.id, email: user.email, name: user.name, role: user.role },
      api: { baseUrl: services.host.apiBaseUrl(), port: await configuredApiPort(sql) },
      whiteLabelDefaults: await whiteLabelDefaults(sql, ctx.workspaceId),
      reportingCurrency: await reportingCurrencyOf(sql, ctx.workspaceId),
      desktop: await desktopPreferences(sql),
      metaApp: {
        appId: (await readSetting(sql, META_APP_ID)) ?? null,
        hasSecret: (await readSetting(sql, META_APP_SECRET)) !== undefined,
      },
    };
  }

  return {
    /** The agency's reporting currency and rates (the CLI's `currency show`); null when not set. */
    async reportingCurrency(ctx: RequestContext): Promise<ReportingCurrency | null> {
      return await reportingCurrencyOf(sql, ctx.workspaceId);
    },

    /** Sets (or, with null, clears) the reporting currency alone; the same check as `update`. */
    async setReportingCurrency(ctx: RequestContext, value: unknown): Promise<ReportingCurrency | null> {
      const reporting = checkedReportingCurrency(value);
      await writeReportingCurrency(ctx.workspaceId, reporting);
      return reporting;
    },

    /** `host`: which window asks (the desktop's or the web dashboard's), shown in the screen. */
    async get(ctx: RequestContext, host: SettingsView['host']): Promise<SettingsView> {
      return view(ctx, host);
    },

    async update(
      ctx: RequestContext,
      host: SettingsView['host'],
      change: SettingsChange,
    ): Promise<SettingsView> {
      if (change.whiteLabelDefaults && !WHITE_LABEL_PLANS.includes(ctx.plan)) {
        throw new AppError('white_label_not_available', 'White-label reports need the Agency plan.');
      }
      // Checked before anything is written, so a bad rate leaves every setting as it was.
      const reporting =
        change.reportingCurrency === undefined
          ? undefined
          : checkedReportingCurrency(change.reportingCurrency);
      if (change.apiPort !== undefined) await writeSetting(sql, API_PORT_SETTING, String(change.apiPort));
      if (change.metaAppId !== undefined) await writeSetting(sql, META_APP_ID, change.metaAppId);
      if (
        (change.keepRunningInTray !== undefined || change.openAtLogin !== undefined) &&
        host !== 'desktop'
      ) {
        throw new AppError(
          'invalid_request',
          'The tray and start-at-login settings belong to the desktop app.',
        );
      }
      if (change.keepRunningInTray !== undefined)
        await writeSetting(sql, KEEP_RUNNING_IN_TRAY, change.keepRunningInTray ? '1' : '0');
      if (change.openAtLogin !== undefined)
        await writeSetting(sql, OPEN_AT_LOGIN, change.openAtLogin ? '1' : '0');
      if (change.metaAppSecret !== undefined) {
        // The secret signs the code exchange: sealed at rest like platform tokens.
        await writeSetting(
          sql,
          META_APP_SECRET,
          change.metaAppSecret === null ? null : tokenCipher.encrypt(change.metaAppSecret).toString('base64'),
        );
      }
      if (change.whiteLabelDefaults !== undefined) {
        await writeSetting(
          sql,
          whiteLabelKey(ctx.workspaceId),
          change.whiteLabelDefaults ? JSON.stringify(change.whiteLabelDefaults) : null,
        );
      }
      if (reporting !== undefined) await writeReportingCurrency(ctx.workspaceId, reporting);
      return view(ctx, host);
    },
  };
}

export type SettingsUseCases = ReturnType<typeof settingsUseCases>;
