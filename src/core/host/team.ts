// The team server's host start (`serve --database-url`): one of any number of stateless processes on
// one PostgreSQL database (DESIGN.md §2, "Solo and team"). Like startHost without a data directory:
// the core is a pool (team-core.ts: the key file, migrations, events, jobs on leases, report files as
// rows); rate limits and Meta's pacing are counted in the database; the first process to start
// provisions the demo workspace while the others wait, then find it done; every process runs the jobs
// it claims; and one of them, the leader, watches the accounts (scheduled syncs, automatic diagnosis,
// digests and alert deliveries).
import { createApiServer, type ApiServer } from '../api/server';
import { PgRateLimiter } from '../api/rate-limit-pg';
import { createApp, type App } from '../app';
import type { Logger } from '../core';
import { createDashboard, type DashboardHandler } from '../dashboard/index';
import { AppError } from '../errors';
import { listWorkspaces } from '../identity/workspaces';
import { PgPacing } from '../platform/pacing-pg';
import { seekLeadership, type Leadership } from '../store/pg/leadership';
import { withSessionLock } from '../store/pg/session-lock';
import { demoSeed, type DemoPlatformEndpoint } from '../sync/embedded-demo';
import { openTeamCore, type TeamCore } from '../team-core';
import { startDemoPlatformThread, type HostedDemoPlatform } from './demo-thread';
import { keepHeapNearLiveSet } from './heap';
import { provisionIfEmpty, syncDemoAccounts } from './provision';

export interface TeamHostOptions {
  databaseUrl: string;
  /** 0 = an ephemeral port. */
  port: number;
  /** Seed of the embedded demo platform for an empty database (a provisioned one keeps its own). */
  seed?: number;
  dashboard?: { rendererDir: string };
  logger?: Logger;
  /** Where ADLENS_SECRET_KEY_FILE is read (the process's environment by default). */
  env?: NodeJS.ProcessEnv;
  /** Connections this process holds at most. */
  poolSize?: number;
  /** How often a follower tries to become the watcher's leader (default 15 s). */
  leaderRetryMs?: number;
  /** Lease length and idle poll of the job runners (tests shorten them). */
  jobTimings?: { leaseMs?: number; pollMs?: number };
  /** The embedded demo platform answers each request this much later (a slow network: tests, demos). */
  demoLatencyMs?: number;
  /** Let the leader watch the accounts (default); benches of generated accounts without tokens turn it off. */
  watch?: boolean;
  /** The origin analysts reach the team server by (its reverse proxy): the base of every link. */
  publicUrl?: string;
}

export interface TeamHost {
  url: string;
  app: App;
  core: TeamCore;
  demo: DemoPlatformEndpoint;
  /** The start-up syncs of the demo accounts (only the process that provisioned runs them). */
  initialSync: Promise<void>;
  /** True while this process watches the accounts for all of them. */
  readonly leading: boolean;
  /** Graceful: stop accepting, hand leadership on, stop syncs at a page boundary, close the pool. */
  stop(): Promise<void>;
}

/** The advisory locks the processes of one database share. */
const PROVISIONING_LOCK = 'adlens:provisioning';
const WATCHER_LOCK = 'adlens:watcher';

export async function startTeamHost(opts: TeamHostOptions): Promise<TeamHost> {
  keepHeapNearLiveSet();
  const core = await openTeamCore({
    databaseUrl: opts.databaseUrl,
    ...(opts.logger ? { logger: opts.logger } : {}),
    ...(opts.env ? { env: opts.env } : {}),
    ...(opts.poolSize ? { poolSize: opts.poolSize } : {}),
    ...(opts.jobTimings ? { jobTimings: opts.jobTimings } : {}),
  });
  // What is started so far, for the clean-up of a start that fails half-way.
  const parts: { app?: App; platform?: HostedDemoPlatform } = {};
  let api: ApiServer | undefined;
  let dashboard: DashboardHandler | undefined;
  let leadership: Leadership | undefined;
  try {
    // One process provisions an empty database; the others wait here, then find it done.
    const composed = await withSessionLock(core.pool, PROVISIONING_LOCK, async () => {
      const fresh = (await listWorkspaces(core.sql)).length === 0;
      const seed = fresh ? (opts.seed ?? 1) : await demoSeed(core.sql);
      if (!fresh && opts.seed !== undefined && opts.seed !== seed) {
        core.logger.warn(`this database uses demo seed ${seed}; --seed ${opts.seed} is ignored`);
      }
      // Every process runs the same demo platform (same seed), so any of them can sync a demo account.
      const platform = await startDemoPlatformThread({ port: 0, seed });
      parts.platform = platform;
      if (opts.demoLatencyMs) await platform.controls.setLatency(opts.demoLatencyMs);
      const demo = { url: platform.url, apiVersion: platform.apiVersion };
      const app = createApp(core, {
        // Worker threads open a data directory; a team process runs its jobs on the pool instead.
        offThread: false,
        renderReportsInWorker: false,
        watch: false,
        sync: { demoPlatform: async () => demo, sharedPacing: new PgPacing(core.pool) },
        host: {
          demoPlatform: () => demo,
          apiBaseUrl: () => api?.linkBase ?? null,
          runsBackgroundWork: true,
          openInBrowser: null,
        },
      });
      parts.app = app;
      const done = (await provisionIfEmpty(core, app.sync, demo, { seed })) !== null;
      return { app, platform, demo, provisioned: done };
    });
    const { app: started, platform: hosted, demo } = composed;
    if (opts.dashboard) dashboard = createDashboard(started, { rendererDir: opts.dashboard.rendererDir });
    api = await createApiServer(started, {
      port: opts.port,
      // A take is one PL/pgSQL call of keyed statements: where plans are kept they are planned once,
      // not on every request (0.2 ms a take).
      rateLimits: new PgRateLimiter(core.keptPlans, core.clock),
      ...(dashboard ? { fallback: dashboard } : {}),
      ...(opts.publicUrl ? { publicUrl: opts.publicUrl } : {}),
    });
    started.start();
    leadership =
      opts.watch === false
        ? { leading: false, stop: async () => {} }
        : seekLeadership(core.pool, WATCHER_LOCK, {
            lead: () => {
              core.logger.info('this process now watches the accounts for the team server');
              started.watcher.start();
            },
            follow: () => started.watcher.stop(),
            logger: core.logger,
            ...(opts.leaderRetryMs ? { retryMs: opts.leaderRetryMs } : {}),
          });
    const initialSync = composed.provisioned ? syncDemoAccounts(core, started.sync) : Promise.resolve();
    const running = { app: started, api, dashboard, platform: hosted, leadership };
    let stopping: Promise<void> | undefined;
    return {
      url: api.url,
      app: started,
      core,
      demo,
      initialSync,
      get leading() {
        return running.leadership.leading;
      },
      stop: () =>
        (stopping ??= (async () => {
          running.dashboard?.close();
          await running.api.close();
          running.app.watcher.stop();
          await running.leadership.stop();
          await running.app.sync.stop();
          await initialSync;
          await running.app.stop();
          await running.platform.close();
        })()),
    };
  } catch (error) {
    dashboard?.close();
    await api?.close();
    await leadership?.stop();
    if (parts.app) await parts.app.stop();
    else await core.close();
    await parts.platform?.close();
    throw error instanceof AppError || !(error instanceof Error)
      ? error
      : new AppError('api_error', error.message);
  }
}
