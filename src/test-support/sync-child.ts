// A sync in a separate process, for the resume-after-kill test and the memory bench:
//   node --import tsx src/core/sync/testing/sync-child.ts DATA_DIR ACCOUNT_ID DEMO_URL API_VERSION
// Prints one JSON line per progress event, then the outcome with the process's peak RSS.
import { createCore } from '../core/core';
import { SyncService } from '../core/sync/service';

async function main(): Promise<number> {
  const [dataDir, accountId, url, apiVersion = 'v25.0'] = process.argv.slice(2);
  if (!dataDir || !accountId || !url) {
    console.error('usage: sync-child.ts DATA_DIR ACCOUNT_ID DEMO_URL [API_VERSION]');
    return 2;
  }
  const core = createCore({ dataDir });
  const sync = new SyncService(core, { demoPlatform: async () => ({ url, apiVersion }) });
  core.events.on('sync.progress', (p) =>
    console.log(JSON.stringify({ event: 'progress', phase: p.phase, percent: p.percent })),
  );
  const started = performance.now();
  const outcome = await sync.syncAccount(accountId, { kind: 'full' });
  console.log(
    JSON.stringify({
      event: 'done',
      status: outcome.status,
      error: outcome.error,
      ms: performance.now() - started,
      maxRssKb: process.resourceUsage().maxRSS,
      stats: outcome.stats,
    }),
  );
  await sync.stop();
  core.close();
  return outcome.status === 'completed' ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
