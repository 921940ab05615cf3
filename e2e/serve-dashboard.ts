// The e2e server: the headless core with the dashboard mounted, on an ephemeral port, for one test's
// fresh data directory. Prints `READY <url>` once it accepts requests (the readiness signal), then
// `INVITE <url>` for --invite. Reads test controls on stdin ("expire-token" → "OK expire-token",
// "restore-token" → "OK restore-token").
//   node --import tsx e2e/serve-dashboard.ts --data-dir DIR [--bare] [--invite EMAIL] [--campaigns N]
// --bare: a trial workspace and its owner, no account connected (the connect tests start there).
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createApiServer } from '../src/core/api/server';
import { createApp } from '../src/core/app';
import { createCore } from '../src/core/core';
import { createDashboard } from '../src/core/dashboard';
import { startDemoPlatform } from '../src/core/demo-platform';
import { provisionIfEmpty } from '../src/core/host/provision';
import { createInvitation } from '../src/core/identity/invitations';
import { createUser } from '../src/core/identity/users';
import { createWorkspace, listWorkspaces } from '../src/core/identity/workspaces';
import { listAdAccounts } from '../src/core/sync/accounts';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      bare: { type: 'boolean', default: false },
      invite: { type: 'string' },
      port: { type: 'string', default: '0' },
      campaigns: { type: 'string' },
    },
  });
  const dataDir = values['data-dir'];
  if (!dataDir) throw new Error('--data-dir DIR is required');
  const core = createCore({ dataDir });
  const platform = await startDemoPlatform({
    port: 0,
    seed: 1,
    ...(values.campaigns ? { largeAccountCampaigns: Number(values.campaigns) } : {}),
  });
  const demo = { url: platform.url, apiVersion: platform.apiVersion };
  let apiUrl: string | null = null;
  const app = createApp(core, {
    sync: { demoPlatform: async () => demo },
    host: { demoPlatform: () => demo, apiBaseUrl: () => apiUrl, runsBackgroundWork: true },
  });
  const { sync } = app;
  if (values.bare) {
    if (listWorkspaces(core.db).length === 0) {
      const ws = createWorkspace(core.db, { name: 'Demo Agency', plan: 'trial' });
      createUser(core.db, {
        workspaceId: ws.id,
        email: 'owner@adlens.local',
        name: 'Local owner',
        role: 'owner',
      });
    }
  } else {
    await provisionIfEmpty(core, sync, demo, { seed: 1 });
    for (const ws of listWorkspaces(core.db)) {
      for (const account of listAdAccounts(core.db, ws.id)) {
        const outcome = await sync.syncAccount(account.id);
        if (outcome.status !== 'completed')
          console.error(
            `sync of ${account.platformAccountId}: ${outcome.status} ${JSON.stringify(outcome.error)}`,
          );
      }
    }
  }
  const dashboard = createDashboard(app, { rendererDir: resolve(import.meta.dirname, '../out/renderer') });
  const server = await createApiServer(app, { port: Number(values.port), fallback: dashboard });
  apiUrl = server.url;
  app.reports.setBaseUrl(server.url);
  app.start();
  console.log(`READY ${server.url}`);
  if (values.invite) {
    const workspace = listWorkspaces(core.db)[0];
    if (!workspace) throw new Error('no workspace to invite into');
    const { url } = createInvitation(core.db, core.clock, {
      workspaceId: workspace.id,
      email: values.invite,
      baseUrl: server.url,
    });
    console.log(`INVITE ${url}`);
  }
  const stop = async (): Promise<void> => {
    dashboard.close();
    await server.close();
    await app.stop();
    await platform.close();
    process.exit(0);
  };
  createInterface({ input: process.stdin }).on('line', (line) => {
    const command = line.trim();
    if (command === 'expire-token') {
      platform.controls.expireToken('all');
      console.log('OK expire-token');
    } else if (command === 'restore-token') {
      // The platform accepts its tokens again (as after the user signs in anew): re-authentication works.
      platform.controls.reset();
      console.log('OK restore-token');
    } else if (command === 'stop') void stop();
  });
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
