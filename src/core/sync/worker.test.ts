// Sync on the worker thread (as hosts run it): the same rows as an inline sync, progress in order, a
// stop that interrupts at a page boundary, and a platform error that keeps its meaning across the
// thread (an expired token marks the connection). The demo platform runs on its own thread too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../core';
import type { CoreEventMap } from '../events';
import { startDemoPlatformThread, type HostedDemoPlatform } from '../host/demo-thread';
import { connectDemoAccount, demoAccountIn, syncedContents } from '../../test-support/demo-sync';
import type { SyncService } from './service';

let demo: HostedDemoPlatform;
let platformAccountId = '';
const opened: { core: Core; sync: SyncService }[] = [];

beforeAll(async () => {
  demo = await startDemoPlatformThread({ port: 0, seed: 3 });
  platformAccountId = await demoAccountIn(demo, 'GBP');
});
afterAll(async () => {
  for (const { core, sync } of opened) {
    await sync.stop();
    core.close();
  }
  await demo.close();
});

async function connected(inWorker: boolean) {
  const store = await connectDemoAccount(demo, platformAccountId, { inWorker });
  opened.push(store);
  return store;
}

const contents = syncedContents;

describe('sync on the worker thread', () => {
  it('stores what an inline sync stores, with progress in order and the run recorded', async () => {
    const inline = await connected(false);
    const worker = await connected(true);
    expect([inline.sync.offThread, worker.sync.offThread]).toEqual([false, true]);
    const progress: CoreEventMap['sync.progress'][] = [];
    worker.core.events.on('sync.progress', (event) => progress.push(event));

    const [a, b] = await Promise.all([
      inline.sync.syncAccount(inline.account.id),
      worker.sync.syncAccount(worker.account.id),
    ]);
    expect(a.status).toBe('completed');
    expect(b).toMatchObject({ status: 'completed', kind: 'full' });
    expect(b.stats?.insightRows.ad).toBe(a.stats?.insightRows.ad);
    expect(b.stats?.requests).toBeGreaterThan(0);
    expect(contents(worker.core)).toEqual(contents(inline.core));

    expect(progress.length).toBeGreaterThan(3);
    const percents = progress.map((event) => event.percent);
    expect(percents).toEqual([...percents].sort((x, y) => x - y));
    expect(new Set(progress.map((event) => event.phase))).toEqual(
      new Set(['structure', 'insights:campaign', 'insights:ad_set', 'insights:ad', 'finishing']),
    );
    expect(
      worker.core.db.prepare(`SELECT status, percent FROM sync_runs WHERE id = ?`).get(b.syncRunId),
    ).toEqual({ status: 'completed', percent: 100 });
  });

  it('stops at a page boundary when asked, keeping what it committed', async () => {
    const { core, sync, account } = await connected(true);
    await demo.controls.setLatency(20);
    try {
      const started = await sync.startSync(account.id);
      await new Promise<void>((resolve) => {
        const off = core.events.on('sync.progress', (event) => {
          if (event.phase === 'insights:campaign') {
            off();
            resolve();
          }
        });
      });
      await sync.stopSync(account.id);
      const outcome = await started.done;
      expect(outcome.status).toBe('interrupted');
      expect(core.db.prepare(`SELECT count(*) FROM campaigns`).pluck().get()).toBeGreaterThan(0);
      expect(sync.isSyncing(account.id)).toBe(false);
    } finally {
      await demo.controls.setLatency(0);
    }
  });

  it('brings an expired token back across the thread: the connection needs re-authentication', async () => {
    const { core, sync, account } = await connected(true);
    await demo.controls.expireToken('all');
    try {
      const outcome = await sync.syncAccount(account.id);
      expect(outcome).toMatchObject({ status: 'failed', error: { type: 'token_expired' } });
      expect(
        core.db.prepare(`SELECT connection_status FROM ad_accounts WHERE id = ?`).pluck().get(account.id),
      ).toBe('token_expired');
    } finally {
      await demo.controls.reset();
    }
  });
});
