// `npm run serve -- --data-dir DIR --port N [--seed S]`: the headless server. Prints a line with
// http://127.0.0.1:N once it accepts requests; SIGINT/SIGTERM shut it down cleanly (exit 0).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { consoleLogger } from '../core/core';
import { isAppError } from '../core/errors';
import { startHeadless } from '../core/host/headless';
import { onShutdownSignals } from '../core/host/shutdown';
import { listWorkspaces } from '../core/identity/workspaces';
import { listAdAccounts } from '../core/sync/accounts';
import { showSyncProgress } from './progress';

const argsSchema = z.object({
  'data-dir': z.string({ error: '--data-dir DIR is required' }).min(1),
  port: z.coerce.number({ error: '--port N is required' }).int().min(0).max(65_535),
  seed: z.coerce.number().int().min(0).optional(),
});

async function main(): Promise<number> {
  let values: Record<string, unknown>;
  try {
    values = parseArgs({
      args: process.argv.slice(2),
      options: { 'data-dir': { type: 'string' }, port: { type: 'string' }, seed: { type: 'string' } },
      strict: true,
    }).values;
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    return 2;
  }
  const args = argsSchema.safeParse({
    ...values,
    'data-dir': values['data-dir'] ?? process.env.ADLENS_DATA_DIR,
  });
  if (!args.success) {
    console.error(`error: ${args.error.issues.map((issue) => issue.message).join('; ')}`);
    return 2;
  }
  const dataDir = args.data['data-dir'];
  const rendererDir = join(import.meta.dirname, '..', '..', 'out', 'renderer');
  const withDashboard = existsSync(join(rendererDir, 'index.html'));
  if (!withDashboard) console.error('note: no built renderer (run `npm run build`): serving /v1 only');
  const host = await startHeadless({
    dataDir,
    port: args.data.port,
    ...(withDashboard ? { dashboard: { rendererDir } } : {}),
    ...(args.data.seed === undefined ? {} : { seed: args.data.seed }),
    logger: { ...consoleLogger, info: () => {} },
  });
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
  console.log(`AdLens API listening on ${host.url} (data ${dataDir}; demo platform ${host.demo.url})`);
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
