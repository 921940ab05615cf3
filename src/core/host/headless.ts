import { createApiServer, type ApiServer } from '../api/server';
import { createApp, type App } from '../app';
import { createCore, type Core, type Logger } from '../core';
import { createDashboard, type DashboardHandler } from '../dashboard/index';
import { AppError } from '../errors';
import { listWorkspaces } from '../identity/workspaces';
import { demoSeed, type DemoPlatformEndpoint } from '../sync/embedded-demo';
import type { SyncService } from '../sync/service';
import { acquireDataDirLock, type DataDirLock } from './lock';
import { provisionIfEmpty, syncDemoAccounts } from './provision';

export interface HeadlessOptions {
  dataDir: string;
  /** 0 = an ephemeral port. */
  port: number;
  /** Seed of the embedded demo platform for a new data directory (a provisioned one keeps its own). */
  seed?: number;
  logger?: Logger;
  /** Serve the web dashboard (the built renderer in this folder) at `/` beside /v1. */
  dashboard?: { rendererDir: string };
}

export interface HeadlessHost {
  url: string;
  app: App;
  core: Core;
  sync: SyncService;
  demo: DemoPlatformEndpoint;
  /** Settles when the start-up syncs of demo accounts have finished. */
  initialSync: Promise<void>;
  /** Graceful: stop accepting, stop syncs at a page boundary, close the demo platform and database, release the lock. */
  stop(): Promise<void>;
}

/**
 * Starts a headless server on a data directory: takes the lock (one server per directory), opens the
 * core, starts the embedded demo platform on an ephemeral loopback port, provisions an empty directory
 * demo-first, serves /v1 (and the web dashboard when asked), and syncs demo accounts in the background.
 */
export async function startHeadless(options: HeadlessOptions): Promise<HeadlessHost> {
  const lock: DataDirLock = acquireDataDirLock(options.dataDir, 'headless');
  let core: Core | undefined;
  let app: App | undefined;
  let demoClose: (() => Promise<void>) | undefined;
  let api: ApiServer | undefined;
  let dashboard: DashboardHandler | undefined;
  try {
    core = createCore({ dataDir: options.dataDir, ...(options.logger ? { logger: options.logger } : {}) });
    const fresh = listWorkspaces(core.db).length === 0;
    const seed = fresh ? (options.seed ?? 1) : demoSeed(core.db);
    if (!fresh && options.seed !== undefined && options.seed !== seed) {
      core.logger.warn(`this data directory uses demo seed ${seed}; --seed ${options.seed} is ignored`);
    }
    const { startDemoPlatform } = await import('../demo-platform/index');
    const platform = await startDemoPlatform({ port: 0, seed });
    demoClose = () => platform.close();
    const demo = { url: platform.url, apiVersion: platform.apiVersion };
    app = createApp(core, {
      sync: { demoPlatform: async () => demo },
      host: { demoPlatform: () => demo, apiBaseUrl: () => api?.url ?? null, runsBackgroundWork: true },
    });
    await provisionIfEmpty(core, app.sync, demo, { seed });
    app.start();
    if (options.dashboard) {
      dashboard = createDashboard(app, {
        rendererDir: options.dashboard.rendererDir,
      });
    }
    api = await createApiServer(app, {
      port: options.port,
      ...(dashboard ? { fallback: dashboard } : {}),
    });
    app.reports.setBaseUrl(api.url);
    lock.setUrl(api.url);
    const running = { app, api, dashboard, closeDemo: demoClose };
    const initialSync = syncDemoAccounts(core, app.sync);
    let stopping: Promise<void> | undefined;
    return {
      url: api.url,
      app,
      core,
      sync: app.sync,
      demo,
      initialSync,
      stop: () =>
        (stopping ??= (async () => {
          // Stop accepting, let running syncs end at a page boundary, finish jobs, close the database.
          running.dashboard?.close();
          await running.api.close();
          await running.app.sync.stop();
          await initialSync;
          await running.app.stop();
          await running.closeDemo();
          lock.release();
        })()),
    };
  } catch (error) {
    dashboard?.close();
    await api?.close();
    if (app) await app.stop();
    else core?.close();
    await demoClose?.();
    lock.release();
    throw error instanceof AppError || !(error instanceof Error)
      ? error
      : new AppError('api_error', error.message);
  }
}
