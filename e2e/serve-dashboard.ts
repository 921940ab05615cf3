// The e2e server: the headless core with the dashboard mounted, on an ephemeral port, for one test's
// fresh data directory. Prints `READY <url>` once it accepts requests (the readiness signal), then
// `INVITE <url>` for --invite. Reads test controls on stdin ("expire-token" → "OK expire-token", "make-admin",
// "restore-token" → "OK restore-token").
//   node --import tsx e2e/serve-dashboard.ts --data-dir DIR [--bare] [--invite EMAIL] [--campaigns N]
//     [--plan agency] [--smtp-port N] [--workspace-name NAME]
// --bare: a trial workspace and its owner, no account connected (the connect tests start there).
// --plan: the workspace's plan (white-label tests); --smtp-port: the SMTP server a test started
// (127.0.0.1, no TLS), set as the workspace's SMTP server; --workspace-name: tells a team server's
// workspace from the desktop's local one. Control "due-reports" makes every scheduled
// report due now and starts it ("OK due-reports"): a schedule's run without waiting for Monday.
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { startHost } from '../src/core/host/start';
import { createInvitation } from '../src/core/identity/invitations';
import { listWorkspaces } from '../src/core/identity/workspaces';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      bare: { type: 'boolean', default: false },
      invite: { type: 'string' },
      port: { type: 'string', default: '0' },
      campaigns: { type: 'string' },
      plan: { type: 'string' },
      'smtp-port': { type: 'string' },
      'workspace-name': { type: 'string' },
    },
  });
  const dataDir = values['data-dir'];
  if (!dataDir) throw new Error('--data-dir DIR is required');
  const host = await startHost({
    dataDir,
    kind: 'headless',
    port: Number(values.port),
    seed: 1,
    // The screens are tested on what the analyst starts; the watcher's own work is tested in the core.
    watch: false,
    provision: values.bare ? 'bare' : 'demo',
    initialSync: 'await',
    dashboard: { rendererDir: resolve(import.meta.dirname, '../out/renderer') },
    ...(values.campaigns ? { largeAccountCampaigns: Number(values.campaigns) } : {}),
  });
  const { core, platform } = host;
  const server = { url: host.url };
  const workspaceId = (await listWorkspaces(core.sql))[0]?.id;
  if (values.plan && workspaceId) {
    core.db.prepare(`UPDATE workspaces SET plan = ? WHERE id = ?`).run(values.plan, workspaceId);
  }
  if (values['workspace-name'] && workspaceId) {
    core.db.prepare(`UPDATE workspaces SET name = ? WHERE id = ?`).run(values['workspace-name'], workspaceId);
  }
  if (values['smtp-port'] && workspaceId) {
    await host.app.use.alerts.setSmtp(await host.app.use.identity.contextForWorkspace(workspaceId), {
      host: '127.0.0.1',
      port: Number(values['smtp-port']),
      security: 'none',
      from: 'reports@agency.test',
    });
  }
  console.log(`READY ${server.url}`);
  if (values.invite) {
    const workspace = (await listWorkspaces(core.sql))[0];
    if (!workspace) throw new Error('no workspace to invite into');
    const { url } = await createInvitation(core.sql, core.clock, {
      workspaceId: workspace.id,
      email: values.invite,
      baseUrl: server.url,
    });
    console.log(`INVITE ${url}`);
  }
  const stop = async (): Promise<void> => {
    await host.stop();
    process.exit(0);
  };
  createInterface({ input: process.stdin }).on('line', (line) => {
    const command = line.trim();
    if (command === 'expire-token') {
      void platform.controls.expireToken('all').then(() => console.log('OK expire-token'));
    } else if (command === 'restore-token') {
      // The platform accepts its tokens again (as after the user signs in anew): re-authentication works.
      void platform.controls.reset().then(() => console.log('OK restore-token'));
    } else if (command === 'due-reports') {
      const now = core.clock.now().toISOString();
      core.db.prepare(`UPDATE reports SET due_at = ? WHERE status = 'pending'`).run(now);
      void host.app.reports.runDue().then(() => console.log('OK due-reports'));
    } else if (command === 'make-admin' && values.invite) {
      // The invited analyst (a member) becomes an admin: workspace settings such as SMTP are admins'.
      core.db.prepare(`UPDATE users SET role = 'admin' WHERE lower(email) = lower(?)`).run(values.invite);
      console.log('OK make-admin');
    } else if (command === 'stop') void stop();
  });
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
