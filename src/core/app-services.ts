// What the use cases are built from: the core, the domain services (engines and their jobs) and the
// few facts only the host knows. Kept apart from app.ts so a domain's use cases can import the type
// without importing every other domain.
import type { AlertsService } from './alerts/service';
import type { Core } from './core';
import type { DiagnosticsService } from './diagnostics/service';
import type { ReportsService } from './reports/service';
import type { DemoPlatformEndpoint } from './sync/embedded-demo';
import type { SyncService } from './sync/service';

/** What the host running the App tells it: where /v1 listens and which demo platform it runs. */
export interface HostPorts {
  /** The /v1 server's base URL, once it listens (null in hosts without one, e.g. the CLI). */
  apiBaseUrl(): string | null;
  /** The embedded demo platform this host runs, if any. */
  demoPlatform(): DemoPlatformEndpoint | null;
  /**
   * False for short-lived hosts (a CLI command): work that would outlive the call, such as the first
   * sync after connecting an account, is left for a later `sync` instead of being cut off at exit.
   */
  runsBackgroundWork: boolean;
  /** Opens a URL in the user's browser (the desktop app: Facebook Login); null where none can be opened. */
  openInBrowser: ((url: string) => Promise<void>) | null;
}

export const NO_HOST: HostPorts = {
  apiBaseUrl: () => null,
  demoPlatform: () => null,
  runsBackgroundWork: false,
  openInBrowser: null,
};

export interface AppServices {
  readonly core: Core;
  readonly sync: SyncService;
  readonly diagnostics: DiagnosticsService;
  readonly reports: ReportsService;
  readonly host: HostPorts;
  readonly alerts: AlertsService;
}
