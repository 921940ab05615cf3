// A team process that stops hands its running syncs over (their lease goes back at once). From the
// moment it starts stopping it claims nothing more: a run it handed over is back in the database, and
// a runner still claiming would take it again and hand it over again, for as long as the process's
// slowest run takes to reach a page boundary (a fresh-machine run saw 36 attempts instead of 2).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoAccountIn } from '../../test-support/demo-sync';
import { startTestPostgres, writeTeamKeyFile, type TestPostgres } from '../../test-support/postgres';
import { startDemoPlatformThread, type HostedDemoPlatform } from '../host/demo-thread';
import { createWorkspace } from '../identity/workspaces';
import type { Jobs, JobsFactory } from '../jobs/jobs';
import { openTeamCore, type TeamCore } from '../team-core';
import { SyncService } from './service';

let server: TestPostgres;
let demo: HostedDemoPlatform;
let dir: string;
beforeAll(async () => {
  server = await startTestPostgres();
  demo = await startDemoPlatformThread({ port: 0, seed: 3 });
  dir = mkdtempSync(join(tmpdir(), 'adlens-team-stop-'));
}, 120_000);
afterAll(async () => {
  await demo?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function until(check: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

it('stops claiming sync jobs as soon as it starts stopping, before its running sync has stopped', async () => {
  // Slow pages, so the running sync is still between two of them when the process stops.
  await demo.controls.setLatency(300);
  const core = await openTeamCore({
    databaseUrl: await server.createDatabase(),
    env: { ADLENS_SECRET_KEY_FILE: writeTeamKeyFile(dir) },
  });
  try {
    // The team core as it is, with the sync service's queue kept in view.
    const queues: Jobs[] = [];
    const jobs: JobsFactory = (kind, options) => {
      const queue = core.jobs(kind, options);
      queues.push(queue);
      return queue;
    };
    const watched = Object.create(core, { jobs: { value: jobs } }) as TeamCore;
    const sync = new SyncService(watched, {
      demoPlatform: async () => ({ url: demo.url, apiVersion: demo.apiVersion }),
    });
    // As a serve process starts its services: the runner claims from here on.
    await sync.resume();
    const workspace = await createWorkspace(core.sql, { name: 'Agency', plan: 'agency' });
    const account = await sync.connectAccount({
      workspaceId: workspace.id,
      platformAccountId: await demoAccountIn(demo, 'USD'),
      baseUrl: 'demo:',
      token: 'demo-token',
    });
    const queue = queues[0] as Jobs;
    const started = await sync.startSync(account.id, { kind: 'full' });
    await until(() => queue.runningCount > 0);

    const stopping = sync.stop();
    expect(queue.isStopped).toBe(true);
    const outcome = await started.done;
    await stopping;
    expect(outcome.status).toBe('interrupted');
    // Handed over once: the job waits for another process, never taken back by this one.
    const lease = await core.sql.get<{ status: string; attempts: number }>(
      `SELECT status, attempts FROM job_leases WHERE kind = 'sync' AND job_id = ?`,
      [started.syncRunId],
    );
    expect(lease).toEqual({ status: 'waiting', attempts: 1 });
  } finally {
    await demo.controls.setLatency(0);
    await core.close();
  }
}, 120_000);
