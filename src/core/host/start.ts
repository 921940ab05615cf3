// One host start for every process that runs the product: the Electron main process, `npm run
// serve`, and the end-to-end test server. It takes the data-directory lock, opens the core, starts the
// embedded demo platform and injects it, provisions, composes the App, serves /v1 (and the web
// dashboard when asked), syncs the demo accounts, and stops all of it in one graceful order.
import { createApiServer, type ApiServer } from '../api/server';
import { createApp, type App } from '../app';
import { createCore, type Core, type Logger } from '../core';
import { createDashboard, type DashboardHandler } from '../dashboard/index';
import { AppError } from '../errors';
import { createUser } from '../identity/users';
import { createWorkspace, listWorkspaces } from '../identity/workspaces';
import type { TokenCipher } from '../secrets';
import { demoSeed, type DemoPlatformEndpoint } from '../sync/embedded-demo';
import { startDemoPlatformThread, type HostedDemoPlatform } from './demo-thread';
import { keepHeapNearLiveSet } from './heap';
import { acquireDataDirLock, type DataDirLock } from './lock';
import { LOCAL_OWNER_EMAIL, provisionIfEmpty, syncDemoAccounts, TRIAL_WORKSPACE_NAME } from './provision';

export interface HostOptions {
  dataDir: string;
  /** Who holds the data directory (shown to a second server that is refused). */
  kind: 'headless' | 'desktop';
  /** The /v1 port (0 = any free one), or a function of the opened core (the desktop's setting). */
  port: number | ((core: Core) => number | Promise<number>);
  /** When the port is taken, serve on a free one instead of failing (the desktop). */
  portFallback?: boolean;
  /** Seed of the embedded demo platform for a new data directory (a provisioned one keeps its own). */
  seed?: number;
  /** A larger demo account (tests and benches of big lists). */
  largeAccountCampaigns?: number;
  /** 'demo' (default): demo-first; 'bare': a trial workspace and its owner, nothing connected. */
  provision?: 'demo' | 'bare';
  /** 'background' (default), or 'await' to finish the start-up syncs before the host is returned. */
  initialSync?: 'background' | 'await';
  /** Serve the built renderer as the web dashboard at `/`. */
  dashboard?: { rendererDir: string };
  /** Seals platform tokens (the desktop's keychain); made once the data directory is locked. */
  tokenCipher?: (dataDir: string) => TokenCipher;
  logger?: Logger;
  /** Syncs and diagnoses on worker threads (default), or inline (tests that pin the clock exactly). */
  offThread?: boolean;
  /** Watch the accounts: scheduled syncs and automatic diagnosis (default on). */
  watch?: boolean;
  /** Opens a URL in the user's browser (the desktop: Electron's shell.openExternal). */
  openInBrowser?: (url: string) => Promise<void>;
  /** The /v1 response cache (default on); benches turn it off to time every answer's computation. */
  cacheResponses?: boolean;
  /** The origin clients reach the server by, behind a reverse proxy: the base of every link. */
  publicUrl?: string;
}

export interface Host {
  url: string;
  app: App;
  core: Core;
  demo: DemoPlatformEndpoint;
  /** The embedded demo platform on its thread (its controls simulate expiry and throttling in tests). */
  platform: HostedDemoPlatform;
  /** Settles when the start-up syncs of demo accounts have finished. */
  initialSync: Promise<void>;
  /** Graceful: stop accepting, stop syncs at a page boundary, finish jobs, close everything, unlock. */
  stop(): Promise<void>;
}

async function listen(
  app: App,
  opts: HostOptions,
  dashboard: DashboardHandler | undefined,
): Promise<ApiServer> {
  const port = typeof opts.port === 'function' ? await opts.port(app.core) : opts.port;
  const fallback = {
    ...(dashboard ? { fallback: dashboard } : {}),
    ...(opts.cacheResponses === false ? { cacheResponses: false } : {}),
    ...(opts.publicUrl ? { publicUrl: opts.publicUrl } : {}),
  };
  try {
    return await createApiServer(app, { port, ...fallback });
  } catch (error) {
    if (!opts.portFallback || port === 0) throw error;
    app.core.logger.warn('configured API port unavailable, using an ephemeral one', { error: String(error) });
    return createApiServer(app, { port: 0, ...fallback });
  }
}

export async function startHost(opts: HostOptions): Promise<Host> {
  keepHeapNearLiveSet();
  const lock: DataDirLock = acquireDataDirLock(opts.dataDir, opts.kind);
  let core: Core | undefined;
  let app: App | undefined;
  let platform: HostedDemoPlatform | undefined;
  let api: ApiServer | undefined;
  let dashboard: DashboardHandler | undefined;
  try {
    core = createCore({
      dataDir: opts.dataDir,
      ...(opts.logger ? { logger: opts.logger } : {}),
      ...(opts.tokenCipher ? { tokenCipher: opts.tokenCipher(opts.dataDir) } : {}),
    });
    const fresh = (await listWorkspaces(core.sql)).length === 0;
    const seed = fresh ? (opts.seed ?? 1) : await demoSeed(core.sql);
    if (!fresh && opts.seed !== undefined && opts.seed !== seed) {
      core.logger.warn(`this data directory uses demo seed ${seed}; --seed ${opts.seed} is ignored`);
    }
    // The demo platform is the host's: started here on its own thread and injected, never imported by sync.
    platform = await startDemoPlatformThread({
      port: 0,
      seed,
      ...(opts.largeAccountCampaigns ? { largeAccountCampaigns: opts.largeAccountCampaigns } : {}),
    });
    const demo = { url: platform.url, apiVersion: platform.apiVersion };
    app = createApp(core, {
      offThread: opts.offThread ?? true,
      watch: opts.watch ?? true,
      sync: { demoPlatform: async () => demo },
      host: {
        demoPlatform: () => demo,
        apiBaseUrl: () => api?.linkBase ?? null,
        runsBackgroundWork: true,
        openInBrowser: opts.openInBrowser ?? null,
      },
    });
    if (opts.provision === 'bare') {
      if (fresh) {
        const workspace = await createWorkspace(core.sql, { name: TRIAL_WORKSPACE_NAME, plan: 'trial' });
        await createUser(core.sql, {
          workspaceId: workspace.id,
          email: LOCAL_OWNER_EMAIL,
          name: 'Local owner',
          role: 'owner',
        });
      }
    } else {
      await provisionIfEmpty(core, app.sync, demo, { seed });
    }
    if (opts.dashboard) dashboard = createDashboard(app, { rendererDir: opts.dashboard.rendererDir });
    api = await listen(app, opts, dashboard);
    lock.setUrl(api.url);
    app.start();
    const initialSync = opts.provision === 'bare' ? Promise.resolve() : syncDemoAccounts(core, app.sync);
    if (opts.initialSync === 'await') await initialSync;
    const running = { app, api, dashboard, platform };
    let stopping: Promise<void> | undefined;
    return {
      url: api.url,
      app,
      core,
      demo,
      platform,
      initialSync,
      stop: () =>
        (stopping ??= (async () => {
          running.dashboard?.close();
          await running.api.close();
          await running.app.sync.stop();
          await initialSync;
          await running.app.stop();
          await running.platform.close();
          lock.release();
        })()),
    };
  } catch (error) {
    dashboard?.close();
    await api?.close();
    if (app) await app.stop();
    else core?.close();
    await platform?.close();
    lock.release();
    throw error instanceof AppError || !(error instanceof Error)
      ? error
      : new AppError('api_error', error.message);
  }
}
