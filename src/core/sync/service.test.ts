import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addDays, fixedClock } from '../clock';
import { createCore, type Core } from '../core';
import type { CoreEventMap } from '../events';
import { createWorkspace } from '../identity/workspaces';
import {
  FAKE_ACCOUNT,
  fakeAccountState,
  startFakeAccount,
  type FakeAccountState,
} from '../../test-support/fake-account';
import { AD_REREAD_DAYS, REREAD_DAYS } from './engine';
import { SyncService } from './service';

const TODAY = '2026-03-15';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(state: FakeAccountState = fakeAccountState(TODAY)) {
  const server = await startFakeAccount(state);
  const core = createCore({
    dataDir: mkdtempSync(join(tmpdir(), 'adlens-sync-')),
    clock: fixedClock(`${TODAY}T12:00:00Z`),
  });
  const sync = new SyncService(core, {
    client: { sleep: async () => {}, backoffBaseMs: 1, maxRetries: 2 },
    demoPlatform: async () => ({ url: server.url, apiVersion: 'v25.0' }),
  });
  cleanups.push(
    () => server.close(),
    () => core.close(),
    () => sync.stop(),
  );
  const workspace = await createWorkspace(core.sql, { name: 'Agency', plan: 'agency' });
  const account = await sync.connectAccount({
    workspaceId: workspace.id,
    platformAccountId: FAKE_ACCOUNT,
    baseUrl: server.url,
    apiVersion: 'v25.0',
    token: 'tok',
  });
  return { server, core, sync, workspace, account, state };
}

function snapshot(core: Core) {
  const q = (sql: string) => core.db.prepare(sql).get() as { n: number; s: number; c: number; r: number };
  return {
    campaigns: q(`SELECT count(*) n FROM campaigns`).n,
    adSets: q(`SELECT count(*) n FROM ad_sets`).n,
    ads: q(`SELECT count(*) n FROM ads`).n,
    campaignDaily: q(
      `SELECT count(*) n, sum(spend_micros) s, sum(conversions) c FROM insights_campaign_daily`,
    ),
    adSetDaily: q(`SELECT count(*) n, sum(spend_micros) s, sum(conversions) c FROM insights_ad_set_daily`),
    adDaily: q(
      `SELECT count(*) n, sum(spend_micros) s, sum(conversions) c, sum(revenue_micros) r FROM insights_ad_daily`,
    ),
    ids: core.db.prepare(`SELECT id FROM campaigns UNION ALL SELECT id FROM ads ORDER BY 1`).pluck().all(),
  };
}

describe('SyncService against a Graph-shaped server', () => {
  it('connects an account with a service ID, the encrypted token and live mode', async () => {
    const { core, account } = await setup();
    expect(account.id).toMatch(/^act_[0-9A-Za-z]{16}$/);
    expect(account).toMatchObject({
      platformAccountId: FAKE_ACCOUNT,
      mode: 'live',
      currency: 'USD',
      connectionStatus: 'active',
    });
    const connection = core.db.prepare(`SELECT * FROM platform_connections`).get() as {
      token_encrypted: Buffer;
    };
    expect(connection.token_encrypted.includes(Buffer.from('tok'))).toBe(false);
    expect(core.tokenCipher.decrypt(connection.token_encrypted)).toBe('tok');
  });

  it('full sync stores structure and 90 days at three levels, marks campaigns synced, reports progress', async () => {
    const { core, sync, account } = await setup();
    const progress: CoreEventMap['sync.progress'][] = [];
    core.events.on('sync.progress', (p) => progress.push(p));
    const outcome = await sync.syncAccount(account.id);
    expect(outcome).toMatchObject({ status: 'completed', kind: 'full' });
    const s = snapshot(core);
    expect([s.campaigns, s.adSets, s.ads]).toEqual([3, 6, 12]);
    expect([s.campaignDaily.n, s.adSetDaily.n, s.adDaily.n]).toEqual([270, 540, 1080]);
    // Levels agree: the campaign rows are sums of the ad rows.
    expect(s.campaignDaily.s).toBe(s.adDaily.s);
    expect(s.campaignDaily.c).toBe(s.adDaily.c);
    // Aliases are not summed: three purchase aliases per row, each counted once.
    expect(s.adDaily.r).toBe(s.adDaily.c * 25_500_000);
    const dates = core.db.prepare(`SELECT min(date) a, max(date) b FROM insights_ad_daily`).get();
    expect(dates).toEqual({ a: addDays(TODAY, -89), b: TODAY });
    const unsynced = core.db
      .prepare(`SELECT count(*) FROM campaigns WHERE insights_synced_at IS NULL`)
      .pluck()
      .get();
    expect(unsynced).toBe(0);
    expect(core.db.prepare(`SELECT last_synced_at FROM ad_accounts`).pluck().get()).toBe(
      `${TODAY}T12:00:00.000Z`,
    );
    expect(
      core.db
        .prepare(`SELECT daily_budget_micros FROM campaigns WHERE platform_campaign_id = '102'`)
        .pluck()
        .get(),
    ).toBe(20_000_000);
    expect(core.db.prepare(`SELECT count(*) FROM learning_stage_snapshots`).pluck().get()).toBe(6);
    const phases = [...new Set(progress.map((p) => p.phase))];
    expect(phases).toEqual(['structure', 'insights:campaign', 'insights:ad_set', 'insights:ad', 'finishing']);
    const percents = progress.map((p) => p.percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(core.db.prepare(`SELECT status, percent FROM sync_runs`).get()).toEqual({
      status: 'completed',
      percent: 100,
    });
  });

  it('a second full sync is idempotent: same rows, sums and service IDs', async () => {
    const { core, sync, account } = await setup();
    await sync.syncAccount(account.id);
    const first = snapshot(core);
    expect((await sync.syncAccount(account.id, { kind: 'full' })).status).toBe('completed');
    expect(snapshot(core)).toEqual(first);
  });

  it('incremental sync reads updated objects, backfills new campaigns and re-reads the last 28 days', async () => {
    const { core, sync, account, state, server } = await setup();
    await sync.syncAccount(account.id);
    const before = snapshot(core);
    const oldDay = addDays(TODAY, -40);
    const dayConversions = (date: string) =>
      core.db
        .prepare(
          `SELECT sum(i.conversions) FROM insights_ad_daily i JOIN ads a ON a.id = i.ad_id
           WHERE i.date = ? AND a.platform_ad_id != '30911'`,
        )
        .pluck()
        .get(date) as number;
    const oldBefore = dayConversions(oldDay);
    const recentBefore = dayConversions(TODAY);

    const later = 1_900_000_000;
    state.campaigns[0]!.dailyBudget = '7500';
    state.campaigns[0]!.updated = later;
    state.campaigns.push({ id: '109', name: 'New campaign', updated: later, dailyBudget: '1000' });
    state.adSets.push({ id: '2091', campaignId: '109', name: 'New ad set', updated: later });
    state.ads.push({ id: '30911', adSetId: '2091', campaignId: '109', name: 'New ad', updated: later });
    state.conversionBoost = 1; // late conversions arrive for every day
    server.requests.length = 0;

    const outcome = await sync.syncAccount(account.id);
    expect(outcome).toMatchObject({ status: 'completed', kind: 'incremental' });
    expect(outcome.stats?.campaigns).toBe(2); // only the updated and the new one were listed
    expect(outcome.stats?.backfilledCampaigns).toBe(1);
    expect(
      server.requests.find((r) => r.path.endsWith('/campaigns'))?.query.get('updated_since'),
    ).toBeTruthy();
    const insightReads = server.requests.filter((r) => r.path === `/v25.0/${FAKE_ACCOUNT}/insights`);
    const sinceOf = (level: string) =>
      new Set(
        insightReads
          .filter((r) => r.query.get('level') === level)
          .map((r) => (JSON.parse(r.query.get('time_range') ?? '{}') as { since: string }).since),
      );
    const rereadFrom = addDays(TODAY, -(REREAD_DAYS - 1));
    expect(sinceOf('campaign')).toEqual(new Set([rereadFrom]));
    expect(sinceOf('adset')).toEqual(new Set([rereadFrom]));
    // Ads: the last AD_REREAD_DAYS for all, older days only for the ad sets whose days changed.
    expect(sinceOf('ad')).toEqual(new Set([addDays(TODAY, -(AD_REREAD_DAYS - 1)), rereadFrom]));
    const changedAds = insightReads.find(
      (r) => r.query.get('level') === 'ad' && r.query.get('filtering')?.includes('adset.id'),
    );
    expect(changedAds).toBeDefined();

    expect(
      core.db
        .prepare(`SELECT daily_budget_micros FROM campaigns WHERE platform_campaign_id = '101'`)
        .pluck()
        .get(),
    ).toBe(75_000_000);
    const after = snapshot(core);
    expect(after.campaigns).toBe(before.campaigns + 1);
    expect(after.adDaily.n).toBe(before.adDaily.n + 90);
    expect(dayConversions(oldDay)).toBe(oldBefore); // outside the re-read window: unchanged
    expect(dayConversions(TODAY)).toBe(recentBefore + 12); // re-read: each of the 12 ads +1
    const newCampaign = core.db
      .prepare(
        `SELECT insights_synced_at, insights_synced_through FROM campaigns WHERE platform_campaign_id = '109'`,
      )
      .get();
    expect(newCampaign).toEqual({
      insights_synced_at: `${TODAY}T12:00:00.000Z`,
      insights_synced_through: TODAY,
    });
  });

  it('refuses a second sync of the same account while one runs, here and from another process', async () => {
    const { core, sync, account } = await setup();
    const started = await sync.startSync(account.id);
    await expect(sync.startSync(account.id)).rejects.toThrow(
      expect.objectContaining({ type: 'sync_in_progress' }),
    );
    // Another process (another SyncService on the same file) is refused by the database itself.
    const other = new SyncService(core, {
      demoPlatform: async () => ({ url: 'http://127.0.0.1:1', apiVersion: 'v25.0' }),
    });
    await expect(other.startSync(account.id)).rejects.toThrow(
      expect.objectContaining({ type: 'sync_in_progress' }),
    );
    expect((await started.done).status).toBe('completed');
  });

  it('a run left running by a dead process does not block the next sync', async () => {
    const { core, sync, account } = await setup();
    core.db
      .prepare(
        `INSERT INTO sync_runs (id, account_id, kind, status, pid, started_at) VALUES ('sync_dead', ?, 'full', 'running', 2147483646, ?)`,
      )
      .run(account.id, `${TODAY}T11:00:00.000Z`);
    expect((await sync.syncAccount(account.id)).status).toBe('completed');
    expect(core.db.prepare(`SELECT status FROM sync_runs WHERE id = 'sync_dead'`).pluck().get()).toBe(
      'interrupted',
    );
  });

  it('token expiry mid-sync stops the sync, marks the account token_expired and keeps history', async () => {
    const { core, sync, account, state } = await setup();
    await sync.syncAccount(account.id);
    const before = snapshot(core);
    const changes: CoreEventMap['connection.changed'][] = [];
    core.events.on('connection.changed', (c) => changes.push(c));
    // The token lapses as the insights start (the three levels are then read side by side).
    core.events.on('sync.progress', (p) => {
      if (p.phase === 'insights:campaign') state.tokenExpired = true;
    });
    const outcome = await sync.syncAccount(account.id, { kind: 'full' });
    expect(outcome.status).toBe('failed');
    expect(outcome.error?.type).toBe('token_expired');
    expect(changes).toEqual([
      { workspaceId: account.workspaceId, accountId: account.id, connectionStatus: 'token_expired' },
    ]);
    expect(core.db.prepare(`SELECT connection_status FROM ad_accounts`).pluck().get()).toBe('token_expired');
    expect(core.db.prepare(`SELECT status FROM platform_connections`).pluck().get()).toBe('token_expired');
    expect(snapshot(core)).toEqual(before);
    await expect(sync.startSync(account.id)).rejects.toThrow(
      expect.objectContaining({ type: 'token_expired' }),
    );
  });

  it('a sync that fails mid-way keeps the committed pages and the next one completes', async () => {
    const { core, sync, account, state } = await setup();
    state.failInsightsAfter = 1; // campaign-level insights arrive, then the platform keeps failing
    const failed = await sync.syncAccount(account.id);
    expect(failed).toMatchObject({ status: 'failed', error: { type: 'platform_error' } });
    expect(snapshot(core).campaignDaily.n).toBe(270);
    expect(
      core.db.prepare(`SELECT count(*) FROM campaigns WHERE insights_synced_at IS NULL`).pluck().get(),
    ).toBe(3);
    state.failInsightsAfter = null;
    const next = await sync.syncAccount(account.id);
    expect(next).toMatchObject({ status: 'completed', kind: 'full' });
    expect(snapshot(core).adDaily.n).toBe(1080);
  });

  it('stop() ends a running sync at a page boundary as interrupted; a new service completes it', async () => {
    const { core, sync, account, server } = await setup();
    let stopping: Promise<void> | undefined;
    core.events.on('sync.progress', (p) => {
      if (p.phase === 'insights:ad_set') stopping ??= sync.stop();
    });
    const outcome = await sync.syncAccount(account.id);
    await stopping;
    expect(outcome).toMatchObject({ status: 'interrupted' });
    expect(snapshot(core).campaignDaily.n).toBe(270);
    await expect(sync.startSync(account.id)).rejects.toThrow(expect.objectContaining({ type: 'conflict' }));
    const next = new SyncService(core, {
      demoPlatform: async () => ({ url: server.url, apiVersion: 'v25.0' }),
    });
    expect(await next.syncAccount(account.id)).toMatchObject({ status: 'completed', kind: 'full' });
    await next.stop();
  });

  it('connect refuses an unknown account and an expired token with clear errors', async () => {
    const { sync, workspace, server, state } = await setup();
    const input = { workspaceId: workspace.id, baseUrl: server.url, apiVersion: 'v25.0', token: 'tok' };
    await expect(sync.connectAccount({ ...input, platformAccountId: 'act_999' })).rejects.toMatchObject({
      type: 'not_found',
      message: expect.stringContaining('act_999'),
    });
    await expect(sync.connectAccount({ ...input, platformAccountId: 'bogus' })).rejects.toMatchObject({
      type: 'invalid_request',
    });
    state.tokenExpired = true;
    await expect(sync.connectAccount({ ...input, platformAccountId: FAKE_ACCOUNT })).rejects.toMatchObject({
      type: 'token_expired',
    });
  });
});
