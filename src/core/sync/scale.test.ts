// Large accounts and rate limits against the real demo platform over loopback: async report runs when
// synchronous reads are refused, refusals split into smaller reads, and a long throttle that pauses one
// account's sync (others go on) and resumes it by itself.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readAccounts } from '../accounts/store';
import { createCore } from '../core';
import { startDemoPlatform, type DemoPlatform } from '../demo-platform/index';
import { startDemoPlatformThread } from '../host/demo-thread';
import { createWorkspace } from '../identity/workspaces';
import { GraphClient } from '../platform/graph-client';
import { demoAccountIn, syncedContents } from '../../test-support/demo-sync';
import { splitPiece } from './insight-reader';
import { SyncService, type SyncServiceOptions } from './service';

const TODAY = '2026-03-15';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function platform(opts: Parameters<typeof startDemoPlatform>[0] = {}): Promise<DemoPlatform> {
  const demo = await startDemoPlatform({ seed: 7, today: TODAY, ...opts });
  cleanups.push(() => demo.close());
  return demo;
}

/** A store with these demo accounts connected; the clock can be moved forward by the test. */
type Endpoint = Pick<DemoPlatform, 'url' | 'apiVersion'>;

async function store(demo: Endpoint, platformAccountIds: string[], options: SyncServiceOptions = {}) {
  let now = Date.parse(`${TODAY}T12:00:00Z`);
  const core = createCore({
    dataDir: mkdtempSync(join(tmpdir(), 'adlens-scale-')),
    clock: { now: () => new Date(now) },
  });
  const sync = new SyncService(core, {
    demoPlatform: async () => ({ url: demo.url, apiVersion: demo.apiVersion }),
    client: { sleep: async () => {}, asyncPollMs: 1, backoffBaseMs: 1 },
    ...options,
  });
  cleanups.push(
    () => core.close(),
    () => sync.stop(),
  );
  const workspace = await createWorkspace(core.sql, { name: 'Agency', plan: 'agency' });
  const accounts = [];
  for (const platformAccountId of platformAccountIds) {
    accounts.push(
      await sync.connectAccount({
        workspaceId: workspace.id,
        platformAccountId,
        baseUrl: 'demo:',
        token: 'demo-token',
      }),
    );
  }
  const ctx = {
    workspaceId: workspace.id,
    plan: 'agency' as const,
    userId: null,
    keyId: null,
    mode: 'all' as const,
  };
  const view = async (accountId: string) =>
    (
      await readAccounts(core.sql, ctx, { id: accountId, page: 1, pageSize: 1 }, core.clock.now(), (id) =>
        sync.isSyncing(id),
      )
    ).accounts[0];
  return { core, sync, accounts, view, advance: (ms: number) => (now += ms) };
}

async function largeAccount(demo: Endpoint): Promise<string> {
  const client = new GraphClient({ baseUrl: demo.url, apiVersion: demo.apiVersion, token: 'demo-token' });
  for await (const page of client.listAdAccounts()) {
    const hit = page.find((a) => a.timezone_name === 'America/Los_Angeles' && a.currency === 'USD');
    if (hit) return hit.id;
  }
  throw new Error('no large demo account');
}

/** Spend of the synced range as the platform totals it in one account-level query. */
async function platformSpend(demo: Endpoint, actId: string, since: string, until: string) {
  const url = new URL(`${demo.url}/${demo.apiVersion}/${actId}/insights`);
  url.searchParams.set('level', 'account');
  url.searchParams.set('fields', 'spend');
  url.searchParams.set('time_range', JSON.stringify({ since, until }));
  url.searchParams.set('access_token', 'demo-token');
  const body = (await (await fetch(url)).json()) as { data: { spend: string }[] };
  return Number(body.data[0]?.spend ?? 0);
}

describe('large accounts', () => {
  it('a two-year, 1,000-campaign account syncs through async report runs when synchronous reads are refused', async () => {
    // The platform on its own thread, as Meta is another machine: its CPU is not the sync's.
    const demo = await startDemoPlatformThread({
      seed: 7,
      today: TODAY,
      largeAccountCampaigns: 1000,
      historyDays: 730,
    });
    cleanups.push(() => demo.close());
    const actId = await largeAccount(demo);
    const { core, sync, accounts } = await store(demo, [actId]);
    const outcome = await sync.syncAccount(accounts[0]!.id, { kind: 'full' });
    expect(outcome.status).toBe('completed');
    const stats = outcome.stats!;
    expect(stats.campaigns).toBe(1000);
    expect(stats.asyncReports).toBeGreaterThan(0);
    const log = await demo.controls.requestLog();
    expect(log.some((line) => /^POST \S*\/act_\d+\/insights/.test(line))).toBe(true);
    // Every dollar the platform counts over the synced range is stored.
    const stored = core.db
      .prepare(`SELECT sum(spend_micros) FROM insights_campaign_daily WHERE date BETWEEN ? AND ?`)
      .pluck()
      .get(stats.since, stats.until) as number;
    expect(stored / 1e6).toBeCloseTo(await platformSpend(demo, actId, stats.since, stats.until), 0);
    expect(stats.insightRows.ad).toBeGreaterThan(100_000);
  }, 120_000);

  it('a platform that refuses even small reads and fails reports gets the same data in smaller pieces', async () => {
    const strict = await platform({ syncInsightsRowLimit: 300 });
    const clean = await platform();
    const actId = await demoAccountIn(strict, 'EUR');
    strict.controls.failNextJobs(3);
    strict.controls.setAsyncPolls(1);
    const a = await store(strict, [actId]);
    const b = await store(clean, [actId]);
    const chunked = await a.sync.syncAccount(a.accounts[0]!.id, { kind: 'full' });
    expect(chunked.status).toBe('completed');
    expect(chunked.stats!.chunkSplits).toBeGreaterThan(3);
    expect(chunked.stats!.asyncReports).toBeGreaterThan(3);
    const plain = await b.sync.syncAccount(b.accounts[0]!.id, { kind: 'full' });
    expect(plain.stats!.chunkSplits).toBe(0);
    expect(syncedContents(a.core)).toEqual(syncedContents(b.core));
  }, 60_000);

  it('an incremental sync re-reads ads only where ad sets changed, and ends where a full sync does', async () => {
    const demo = await platform();
    const actId = await demoAccountIn(demo, 'EUR');
    const a = await store(demo, [actId]);
    await a.sync.syncAccount(a.accounts[0]!.id, { kind: 'full' });
    const adSetId = a.core.db
      .prepare(
        `SELECT s.platform_ad_set_id FROM insights_ad_set_daily i JOIN ad_sets s ON s.id = i.ad_set_id
         WHERE i.date = ? ORDER BY i.spend_micros DESC LIMIT 1`,
      )
      .pluck()
      .get('2026-03-05') as string;
    demo.controls.attributeLate(adSetId, '2026-03-05', 7);
    const incremental = await a.sync.syncAccount(a.accounts[0]!.id, { kind: 'incremental' });
    expect(incremental.status).toBe('completed');
    expect(incremental.stats!.insightRows.ad).toBeLessThan(incremental.stats!.insightRows.adSet * 2);
    const b = await store(demo, [actId]);
    await b.sync.syncAccount(b.accounts[0]!.id, { kind: 'full' });
    expect(syncedContents(a.core)).toEqual(syncedContents(b.core));
  }, 60_000);

  it('a refused read is split by dates down to one day, then by campaign IDs', () => {
    const sync = { level: 'ad' as const, since: '2026-03-01', until: '2026-03-04', mode: 'sync' as const };
    expect(splitPiece(sync, ['1', '2'])).toEqual([{ ...sync, mode: 'async' }]);
    const report = { ...sync, mode: 'async' as const };
    expect(splitPiece(report, ['1', '2']).map((p) => [p.since, p.until])).toEqual([
      ['2026-03-01', '2026-03-02'],
      ['2026-03-03', '2026-03-04'],
    ]);
    const day = { ...report, since: '2026-03-04' };
    expect(splitPiece(day, ['1', '2', '3']).map((p) => p.campaignIds)).toEqual([['1', '2'], ['3']]);
    expect(splitPiece({ ...day, campaignIds: ['3'] }, ['1', '2', '3'])).toEqual([]);
  });
});

describe('rate limits', () => {
  it('a long throttle pauses that account, another account syncs meanwhile, and the pause resumes by itself', async () => {
    const demo = await platform({ largeAccountCampaigns: 10 });
    const first = await demoAccountIn(demo, 'EUR');
    const second = await largeAccount(demo);
    const timers: { delayMs: number; resume: () => void }[] = [];
    const { sync, accounts, view, advance } = await store(demo, [first, second], {
      resumeTimer: (delayMs, resume) => {
        timers.push({ delayMs, resume });
        return () => undefined;
      },
    });
    const [paused, other] = accounts as [(typeof accounts)[0], (typeof accounts)[0]];
    // Meta: "wait 10 minutes" (estimated_time_to_regain_access in x-business-use-case-usage).
    demo.controls.throttleNext(1, 80004, { regainMinutes: 10 });
    const outcome = await sync.syncAccount(paused.id, { kind: 'full' });
    expect(outcome.status).toBe('paused');
    expect(outcome.resumeAfter).toBe('2026-03-15T12:10:00.000Z');
    expect((await view(paused.id))?.sync).toMatchObject({
      running: false,
      pausedUntil: '2026-03-15T12:10:00.000Z',
    });
    expect((await view(paused.id))?.sync.lastError).toBeNull();
    expect(timers.map((t) => t.delayMs)).toEqual([10 * 60_000]);

    // The other account is not held back by the first one's throttle.
    const otherOutcome = await sync.syncAccount(other.id, { kind: 'full' });
    expect(otherOutcome.status).toBe('completed');
    expect(otherOutcome.stats!.paceWaits).toBe(0);
    expect((await view(paused.id))?.sync.pausedUntil).toBe('2026-03-15T12:10:00.000Z');

    advance(10 * 60_000);
    timers[0]!.resume();
    // The resume starts the sync once it has read the account and recorded the run.
    await vi.waitFor(() => expect(sync.current(paused.id)).toBeDefined());
    const resumed = await sync.current(paused.id);
    expect(resumed?.status).toBe('completed');
    expect((await view(paused.id))?.sync).toMatchObject({ running: false, pausedUntil: null, phase: 'idle' });
  }, 60_000);

  it('a paused sync is re-armed by resume() on the next start', async () => {
    const demo = await platform({ largeAccountCampaigns: 10 });
    const actId = await demoAccountIn(demo, 'EUR');
    const timers: number[] = [];
    const { core, sync, accounts } = await store(demo, [actId], {
      resumeTimer: (delayMs) => {
        timers.push(delayMs);
        return () => undefined;
      },
    });
    demo.controls.throttleNext(1, 80004, { regainMinutes: 30 });
    expect((await sync.syncAccount(accounts[0]!.id)).status).toBe('paused');
    await sync.stop();
    const next = new SyncService(core, {
      demoPlatform: async () => ({ url: demo.url, apiVersion: demo.apiVersion }),
      resumeTimer: (delayMs) => {
        timers.push(delayMs);
        return () => undefined;
      },
    });
    cleanups.push(() => next.stop());
    await next.resume();
    expect(timers).toEqual([30 * 60_000, 30 * 60_000]);
    expect(await next.pausedUntil(accounts[0]!.id)).toBe('2026-03-15T12:30:00.000Z');
  });
});
