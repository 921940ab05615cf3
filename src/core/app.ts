import { NO_HOST, type HostPorts } from './app-services';
import type { Core } from './core';
import { SERVER_URL_SETTING } from './identity/invitations';
import { readSetting } from './settings/store';
import { DiagnosticsService } from './diagnostics/service';
import { ReportsService } from './reports/service';
import { SyncService, type SyncServiceOptions } from './sync/service';
import { trackIssues } from './issues/tracker';
import { Watcher } from './watch/watcher';
import { AlertsService } from './alerts/service';
import { createUseCases, type UseCases } from './use-cases';

/** The composed product: one core and the services every host (desktop, headless, tests) runs. */
export interface App {
  readonly core: Core;
  readonly sync: SyncService;
  readonly diagnostics: DiagnosticsService;
  readonly reports: ReportsService;
  /** Scheduled syncs and automatic diagnosis (started by hosts that watch). */
  readonly watcher: Watcher;
  /** Alerts: webhooks, e-mail, the desktop's `alert.raised`, digests (pumped by the watcher's tick). */
  readonly alerts: AlertsService;
  /** The application layer: the use cases every transport calls. */
  readonly use: UseCases;
  /** Resumes jobs (syncs, diagnostics, reports) a previous process left unfinished, and starts schedules. */
  start(): void;
  /** No new work; running work finishes; then the database is closed. */
  stop(): Promise<void>;
}

export interface AppOptions {
  sync?: SyncServiceOptions;
  /** Render reports on a worker thread (default) or inline (some tests). */
  renderReportsInWorker?: boolean;
  /**
   * Syncs and diagnoses on worker threads, so the host's thread (the Electron main process, a server)
   * never stalls on them; hosts set it, the CLI and most tests run them inline.
   */
  offThread?: boolean;
  /**
   * Watch the accounts (scheduled syncs, automatic diagnosis after new data) once started: hosts
   * that stay up set it; the CLI does not.
   */
  watch?: boolean;
  /** What the host knows (its /v1 URL, its demo platform); default: a host with neither (the CLI). */
  host?: Partial<HostPorts>;
}

export function createApp(core: Core, options: AppOptions = {}): App {
  const offThread = options.offThread ?? false;
  const sync = new SyncService(core, { inWorker: offThread, ...options.sync });
  const diagnostics = new DiagnosticsService(core, { inWorker: offThread });
  const reports = new ReportsService(core, { renderInWorker: options.renderReportsInWorker ?? true });
  const host: HostPorts = { ...NO_HOST, ...options.host };
  // A host without its own /v1 server (the CLI) signs download links for the server that last ran
  // on this store, so every transport shows the same links; a server sets its own URL when it listens.
  reports.useRecordedBaseUrl(readSetting(core.sql, SERVER_URL_SETTING));
  const alerts = new AlertsService(core, host);
  // Every process queues the alerts of what it saw; one that exits early leaves them in the outbox
  // for the running host's next tick.
  alerts.listen();
  const use = createUseCases({ core, sync, diagnostics, reports, host, alerts });
  const watcher = new Watcher(core, sync, diagnostics, alerts);
  // Issues follow every diagnosis of the current window, whoever started it.
  const untrack = trackIssues(core);
  let stopping: Promise<void> | undefined;
  return {
    core,
    sync,
    diagnostics,
    reports,
    watcher,
    alerts,
    use,
    start() {
      sync.resume().catch((error: unknown) => {
        core.logger.error('interrupted syncs not resumed', { error: String(error) });
      });
      diagnostics
        .resume()
        .catch((error: unknown) => core.logger.error('diagnostics resume failed', { error: String(error) }));
      void reports.resume();
      if (options.watch) watcher.start();
    },
    stop() {
      stopping ??= (async () => {
        watcher.stop();
        untrack();
        await Promise.all([sync.stop(), diagnostics.stop(), reports.stop()]);
        await watcher.whenIdle();
        await alerts.stop();
        await core.close();
      })();
      return stopping;
    },
  };
}
