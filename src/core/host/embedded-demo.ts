// A demo platform started on first use, for hosts that do not run one all the time (a CLI
// command that syncs a demo account with no server around). The host owns it and injects its
// endpoint into the App; product code never imports the simulator.
import { z } from 'zod';
import type { Sql } from '../store/sql';
import { demoSeed, type DemoPlatformEndpoint, type DemoPlatformSource } from '../sync/embedded-demo';

/**
 * ADLENS_DEMO_LATENCY_MS: the demo platform answers each request this much later (a slow network, so
 * a sync lasts long enough to watch or interrupt: tests and demos). Undefined when unset or 0.
 */
export function demoLatencyFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const ms = z.coerce
    .number()
    .int()
    .min(0)
    .max(10_000)
    .optional()
    .parse(env.ADLENS_DEMO_LATENCY_MS || undefined);
  return ms || undefined;
}

/**
 * Starts an in-process demo platform on an ephemeral loopback port the first time it is needed (a CLI
 * `sync` of a demo account with no server around), with the data directory's seed.
 */
export function lazyEmbeddedDemo(
  sql: Sql,
  options: { latencyMs?: number } = {},
): { source: DemoPlatformSource; close(): Promise<void> } {
  let started: Promise<{ endpoint: DemoPlatformEndpoint; close(): Promise<void> }> | null = null;
  return {
    source: async () => {
      started ??= import('../demo-platform/index').then(async ({ startDemoPlatform }) => {
        const platform = await startDemoPlatform({ port: 0, seed: await demoSeed(sql) });
        if (options.latencyMs) platform.controls.setLatency(options.latencyMs);
        return {
          endpoint: { url: platform.url, apiVersion: platform.apiVersion },
          close: () => platform.close(),
        };
      });
      return (await started).endpoint;
    },
    close: async () => {
      if (started) await (await started).close();
      started = null;
    },
  };
}
