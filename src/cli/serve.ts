// `npm run serve -- --data-dir DIR --port N [--seed S]`: the headless server on a data directory (solo),
// or `--database-url postgres://… --port N`: one process of a team server on PostgreSQL (any number of
// them may serve one database). Prints a line with http://127.0.0.1:N once it accepts requests;
// SIGINT/SIGTERM shut it down cleanly (exit 0). `--public-url https://…` (or ADLENS_PUBLIC_URL): the
// address analysts reach it by through a reverse proxy, the base of the links it hands out.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { consoleLogger, type Core } from '../core/core';
import { isAppError } from '../core/errors';
import { demoLatencyFromEnv } from '../core/host/embedded-demo';
import { startHeadless } from '../core/host/headless';
import { onShutdownSignals } from '../core/host/shutdown';
import { startTeamHost } from '../core/host/team';
import { listWorkspaces } from '../core/identity/workspaces';
import { describeDatabase } from '../core/store/pg/connect';
import { listAdAccounts } from '../core/sync/accounts';
import { showSyncProgress } from './progress';

const argsSchema = z
  .object({
    'data-dir': z.string().min(1).optional(),
    'database-url': z.string().min(1).optional(),
    port: z.coerce.number({ error: '--port N is required' }).int().min(0).max(65_535),
    seed: z.coerce.number().int().min(0).optional(),
    'public-url': z
      .url({
        protocol: /^https?$/,
        error: '--public-url must be an http:// or https:// URL (the address the reverse proxy serves)',
      })
      .refine((url) => !/[?#]/.test(url), { message: '--public-url takes an origin and path, no query' })
      .optional(),
  })
  .refine((a) => (a['data-dir'] === undefined) !== (a['database-url'] === undefined), {
    message:
      'give either --data-dir DIR (a solo install) or --database-url postgres://… (a team server), not both',
  });

/** What the ready line and the shutdown need of either host. */
interface Served {
  url: string;
  core: Core;
  demoUrl: string;
  store: string;
  initialSync: Promise<void>;
  stop(): Promise<void>;
}

async function start(args: z.infer<typeof argsSchema>, dashboard: { rendererDir: string } | undefined) {
  const common = {
    port: args.port,
    ...(dashboard ? { dashboard } : {}),
    ...(args.seed === undefined ? {} : { seed: args.seed }),
    ...(args['public-url'] === undefined ? {} : { publicUrl: args['public-url'] }),
    logger: { ...consoleLogger, info: () => {} },
  };
  const databaseUrl = args['database-url'];
  if (databaseUrl !== undefined) {
    const demoLatencyMs = demoLatencyFromEnv();
    const host = await startTeamHost({
      databaseUrl,
      ...common,
      ...(demoLatencyMs ? { demoLatencyMs } : {}),
    });
    return {
      ...host,
      demoUrl: host.demo.url,
      store: `database ${describeDatabase(databaseUrl)}`,
    } satisfies Served;
  }
  const dataDir = args['data-dir'] as string;
  const host = await startHeadless({ dataDir, ...common });
  return { ...host, demoUrl: host.demo.url, store: `data ${dataDir}` } satisfies Served;
}

async function main(): Promise<number> {
  let values: Record<string, unknown>;
  try {
    values = parseArgs({
      args: process.argv.slice(2),
      options: {
        'data-dir': { type: 'string' },
        'database-url': { type: 'string' },
        port: { type: 'string' },
        seed: { type: 'string' },
        'public-url': { type: 'string' },
      },
      strict: true,
    }).values;
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    return 2;
  }
  // The environment fills in what the command line leaves out; a flag given wins over both variables.
  const flagged = values['data-dir'] !== undefined || values['database-url'] !== undefined;
  const args = argsSchema.safeParse({
    'public-url': process.env.ADLENS_PUBLIC_URL || undefined,
    ...values,
    ...(flagged
      ? {}
      : {
          'data-dir': process.env.ADLENS_DATABASE_URL ? undefined : process.env.ADLENS_DATA_DIR,
          'database-url': process.env.ADLENS_DATABASE_URL || undefined,
        }),
  });
  if (!args.success) {
    console.error(`error: ${args.error.issues.map((issue) => issue.message).join('; ')}`);
    return 2;
  }
  const rendererDir = join(import.meta.dirname, '..', '..', 'out', 'renderer');
  const withDashboard = existsSync(join(rendererDir, 'index.html'));
  if (!withDashboard) console.error('note: no built renderer (run `npm run build`): serving /v1 only');
  const host = await start(args.data, withDashboard ? { rendererDir } : undefined);
  const labels = new Map<string, string>();
  for (const workspace of await listWorkspaces(host.core.sql)) {
    for (const account of await listAdAccounts(host.core.sql, workspace.id))
      labels.set(account.id, account.platformAccountId);
  }
  const stopProgress = showSyncProgress(host.core.events, labels);
  onShutdownSignals(async (signal) => {
    console.error(`${signal}: shutting down (finishing open work)`);
    stopProgress();
    await host.stop();
    console.error('stopped cleanly');
  });
  console.log(`AdLens API listening on ${host.url} (${host.store}; demo platform ${host.demoUrl})`);
  if (args.data['public-url']) console.log(`Links point to ${args.data['public-url']}`);
  if (withDashboard)
    console.log(`Web dashboard: ${host.url}/ (sign in with an invitation: npm run cli -- user invite)`);
  void host.initialSync.then(() => console.error('start-up sync finished'));
  return -1; // keep running until a signal
}

main().then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    console.error(`error: ${isAppError(error) || error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
