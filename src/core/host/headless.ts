// The headless server (`npm run serve`): the one host start with the headless lock, on a port.
import type { App } from '../app';
import type { Core, Logger } from '../core';
import type { DemoPlatformEndpoint } from '../sync/embedded-demo';
import type { SyncService } from '../sync/service';
import { startHost } from './start';

export interface HeadlessOptions {
  dataDir: string;
  /** 0 = an ephemeral port. */
  port: number;
  /** Seed of the embedded demo platform for a new data directory (a provisioned one keeps its own). */
  seed?: number;
  logger?: Logger;
  /** Serve the web dashboard (the built renderer in this folder) at `/` beside /v1. */
  dashboard?: { rendererDir: string };
  /** The origin clients reach the server by, behind a reverse proxy: the base of every link. */
  publicUrl?: string;
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

export async function startHeadless(options: HeadlessOptions): Promise<HeadlessHost> {
  const host = await startHost({
    dataDir: options.dataDir,
    kind: 'headless',
    port: options.port,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.dashboard ? { dashboard: options.dashboard } : {}),
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
  });
  return {
    url: host.url,
    app: host.app,
    core: host.core,
    sync: host.app.sync,
    demo: host.demo,
    initialSync: host.initialSync,
    stop: host.stop,
  };
}
