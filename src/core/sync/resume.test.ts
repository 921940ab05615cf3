// A sync process killed with SIGKILL mid-way loses nothing it committed, the next start resumes the
// sync by itself, and it completes with the same data as a clean full sync.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../core';
import { startDemoPlatform, type DemoPlatform } from '../demo-platform/index';
import { connectDemoAccount, demoAccountIn, syncedContents } from '../../test-support/demo-sync';
import { SyncService } from './service';

const ROOT = join(import.meta.dirname, '..', '..', '..');
let demo: DemoPlatform;
let platformAccountId = '';

beforeAll(async () => {
  demo = await startDemoPlatform({ port: 0, seed: 3 });
  platformAccountId = await demoAccountIn(demo, 'GBP');
});
afterAll(async () => {
  await demo.close();
});

const connected = () => connectDemoAccount(demo, platformAccountId);
const contents = syncedContents;

describe('resume after a kill', () => {
  it('keeps committed rows after SIGKILL and the next sync completes like a clean one', async () => {
    const { dataDir, core, sync, account } = await connected();
    await sync.stop();
    core.close();

    // Slow the platform down so the kill lands mid-sync, after some pages were committed (the three
    // insight levels are read side by side, a few requests in flight, so each answer takes a while).
    demo.controls.setLatency(150);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/test-support/sync-child.ts', dataDir, account.id, demo.url, demo.apiVersion],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let killed = false;
    for await (const line of createInterface({ input: child.stdout })) {
      const event = JSON.parse(line) as { event: string; phase?: string; percent?: number };
      if (event.event === 'progress' && event.phase?.startsWith('insights:') && (event.percent ?? 0) > 10) {
        child.kill('SIGKILL');
        killed = true;
        break;
      }
      if (event.event === 'done') throw new Error('the child finished before it could be killed');
    }
    await exited;
    demo.controls.setLatency(0);
    expect(killed).toBe(true);

    const after = createCore({ dataDir });
    try {
      const run = after.db.prepare(`SELECT status, pid, phase FROM sync_runs`).get() as {
        status: string;
        pid: number;
        phase: string;
      };
      expect(run).toMatchObject({ status: 'running', pid: child.pid });
      expect(after.db.prepare(`SELECT count(*) FROM insights_campaign_daily`).pluck().get()).toBeGreaterThan(
        0,
      );
      expect(
        after.db.prepare(`SELECT count(*) FROM campaigns WHERE insights_synced_at IS NOT NULL`).pluck().get(),
      ).toBe(0);

      const resumed = new SyncService(after, {
        demoPlatform: async () => ({ url: demo.url, apiVersion: demo.apiVersion }),
      });
      // The start of the next host resumes it by itself: the dead process's run is found and re-run.
      await resumed.resume();
      const resuming = resumed.current(account.id);
      expect(resuming).toBeDefined();
      const outcome = await resuming;
      expect(outcome).toMatchObject({ status: 'completed', kind: 'full' });
      expect(after.db.prepare(`SELECT status FROM sync_runs WHERE pid = ?`).pluck().get(child.pid)).toBe(
        'interrupted',
      );
      await resumed.stop();

      const clean = await connected();
      expect((await clean.sync.syncAccount(clean.account.id)).status).toBe('completed');
      expect(contents(after)).toEqual(contents(clean.core));
      await clean.sync.stop();
      clean.core.close();
    } finally {
      after.close();
    }
  });
});
