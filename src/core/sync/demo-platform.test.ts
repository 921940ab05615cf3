// The sync engine against the real demo platform on loopback (H1's Graph API simulator).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, fixedClock } from '../clock';
import { createCore, type Core } from '../core';
import { startDemoPlatform, type DemoPlatform } from '../demo-platform/index';
import { createWorkspace } from '../identity/workspaces';
import { GraphClient } from '../platform/graph-client';
import type { PlatformAdAccount } from '../platform/parse';
import { REREAD_DAYS } from './engine';
import { SyncService } from './service';

const TODAY = '2026-03-15';
let demo: DemoPlatform;
const accounts: PlatformAdAccount[] = [];
/** Client accounts shared with the agency's businesses (not in /me/adaccounts). */
const clients: PlatformAdAccount[] = [];

beforeAll(async () => {
  demo = await startDemoPlatform({ port: 0, seed: 7, today: TODAY });
  const client = new GraphClient({ baseUrl: demo.url, apiVersion: demo.apiVersion, token: 'demo-token' });
  for await (const page of client.listAdAccounts()) accounts.push(...page);
  for await (const page of client.listBusinesses()) {
    for (const business of page) {
      for await (const shared of client.listBusinessAdAccounts(business.id, 'client'))
        clients.push(...shared);
    }
  }
});
afterAll(async () => {
  await demo.close();
});

const byCurrency = (currency: string, tasks?: string) =>
  accounts.find((a) => a.currency === currency && (!tasks || (a.user_tasks ?? []).includes(tasks)))!;

async function setup() {
  demo.controls.reset();
  const core = createCore({
    dataDir: mkdtempSync(join(tmpdir(), 'adlens-demo-sync-')),
    clock: fixedClock(`${TODAY}T20:00:00Z`),
  });
  const sync = new SyncService(core, {
    demoPlatform: async () => ({ url: demo.url, apiVersion: demo.apiVersion }),
    client: { sleep: async () => {}, backoffBaseMs: 1 },
  });
  const workspace = await createWorkspace(core.sql, { name: 'Agency', plan: 'agency' });
  const connect = (platformAccountId: string) =>
    sync.connectAccount({
      workspaceId: workspace.id,
      platformAccountId,
      baseUrl: 'demo:',
      token: 'demo-token',
    });
  return {
    core,
    sync,
    workspace,
    connect,
    dispose: async () => {
      await sync.stop();
      core.close();
    },
  };
}

function totals(core: Core, accountId: string) {
  const sum = (table: string) =>
    core.db
      .prepare(
        `SELECT count(*) n, sum(spend_micros) spend, sum(conversions) conv, sum(impressions) imp FROM ${table} WHERE account_id = ?`,
      )
      .get(accountId) as { n: number; spend: number; conv: number; imp: number };
  return {
    campaigns: core.db.prepare(`SELECT count(*) FROM campaigns WHERE account_id = ?`).pluck().get(accountId),
    adSets: core.db.prepare(`SELECT count(*) FROM ad_sets WHERE account_id = ?`).pluck().get(accountId),
    ads: core.db.prepare(`SELECT count(*) FROM ads WHERE account_id = ?`).pluck().get(accountId),
    campaign: sum('insights_campaign_daily'),
    adSet: sum('insights_ad_set_daily'),
    ad: sum('insights_ad_daily'),
  };
}

describe('sync from the demo platform', () => {
  it('lists the demo agency accounts with their permissions', () => {
    expect(accounts.length).toBeGreaterThanOrEqual(4);
    expect(accounts.every((a) => /^act_\d+$/.test(a.id))).toBe(true);
  });

  it('full sync of a EUR account: structure, 90 days at three levels that agree, every campaign synced; re-run is idempotent', async () => {
    const { core, sync, connect, dispose } = await setup();
    try {
      const account = await connect(byCurrency('EUR').id);
      expect(account).toMatchObject({
        mode: 'test',
        currency: 'EUR',
        timezone: 'Europe/Paris',
        connectionStatus: 'active',
      });
      const outcome = await sync.syncAccount(account.id);
      expect(outcome.status).toBe('completed');
      const t = totals(core, account.id);
      expect(t.campaigns).toBeGreaterThan(0);
      expect(t.ads).toBeGreaterThan(0);
      expect(t.ad.n).toBeGreaterThan(t.campaign.n);
      // Ad rows add up to ad-set and campaign rows (per-row rounding to cents aside).
      expect(Math.abs(t.ad.spend - t.campaign.spend)).toBeLessThanOrEqual(t.ad.n * 10_000);
      expect(t.ad.imp).toBe(t.campaign.imp);
      expect(t.ad.conv).toBe(t.adSet.conv);
      const range = core.db.prepare(`SELECT min(date) a, max(date) b FROM insights_campaign_daily`).get() as {
        a: string;
        b: string;
      };
      expect(range.a >= addDays(TODAY, -89)).toBe(true);
      expect(range.b <= TODAY).toBe(true);
      expect(
        core.db.prepare(`SELECT count(*) FROM campaigns WHERE insights_synced_at IS NULL`).pluck().get(),
      ).toBe(0);

      const again = await sync.syncAccount(account.id, { kind: 'full' });
      expect(again.status).toBe('completed');
      expect(totals(core, account.id)).toEqual(t);
      const incremental = await sync.syncAccount(account.id);
      expect(incremental).toMatchObject({ status: 'completed', kind: 'incremental' });
      expect(incremental.stats!.since).toBe(addDays(TODAY, -(REREAD_DAYS - 1)));
      expect(incremental.stats!.insightRowsWritten).toBe(0); // the re-read changed nothing
      expect(totals(core, account.id)).toEqual(t);
    } finally {
      await dispose();
    }
  });

  it('JPY budgets are read without dividing by 100', async () => {
    const { core, sync, connect, dispose } = await setup();
    try {
      const account = await connect(byCurrency('JPY').id);
      expect((await sync.syncAccount(account.id)).status).toBe('completed');
      const budgets = core.db
        .prepare(
          `SELECT daily_budget_micros FROM ad_sets WHERE account_id = ? AND daily_budget_micros IS NOT NULL
           UNION ALL SELECT daily_budget_micros FROM campaigns WHERE account_id = ? AND daily_budget_micros IS NOT NULL`,
        )
        .pluck()
        .all(account.id, account.id) as number[];
      expect(budgets.length).toBeGreaterThan(0);
      // A yen budget is at least ¥100: 100 × 10^6 micro-units; a divide-by-100 bug would give ¥1-level values.
      expect(Math.min(...budgets)).toBeGreaterThanOrEqual(100_000_000);
    } finally {
      await dispose();
    }
  });

  it('survives throttling, transient failures and "reduce the amount of data" mid-sync', async () => {
    const { sync, connect, dispose } = await setup();
    try {
      const account = await connect(byCurrency('GBP').id);
      demo.controls.throttleNext(2, 80000, { regainMinutes: 1 });
      const started = await sync.startSync(account.id);
      demo.controls.failNext(1, 2);
      const outcome = await started.done;
      expect(outcome.status).toBe('completed');
      expect(outcome.stats!.retries).toBeGreaterThanOrEqual(3);
      expect(outcome.stats!.throttleWaits).toBeGreaterThanOrEqual(2);

      demo.controls.failNext(1, 1);
      const halved = await sync.syncAccount(account.id, { kind: 'full' });
      expect(halved.status).toBe('completed');
      expect(halved.stats!.limitHalvings).toBe(1);
    } finally {
      await dispose();
    }
  });

  it('token expiry mid-sync: token_expired, sync stops, history stays', async () => {
    const { core, sync, connect, dispose } = await setup();
    try {
      const account = await connect(byCurrency('GBP').id);
      expect((await sync.syncAccount(account.id)).status).toBe('completed');
      const before = totals(core, account.id);
      core.events.on('sync.progress', (p) => {
        if (p.phase === 'insights:ad_set') demo.controls.expireToken('all');
      });
      const outcome = await sync.syncAccount(account.id, { kind: 'full' });
      expect(outcome).toMatchObject({ status: 'failed', error: { type: 'token_expired' } });
      expect(
        core.db.prepare(`SELECT connection_status FROM ad_accounts WHERE id = ?`).pluck().get(account.id),
      ).toBe('token_expired');
      expect(totals(core, account.id)).toEqual(before);
    } finally {
      await dispose();
    }
  });

  it('refuses to connect an account without a reading task, an unknown account and a bad token', async () => {
    const { connect, sync, workspace, dispose } = await setup();
    try {
      const draftsOnly = clients.find((a) => (a.user_tasks ?? []).join() === 'DRAFT')!;
      await expect(connect(draftsOnly.id)).rejects.toMatchObject({
        type: 'permission_error',
        message: expect.stringMatching(/only DRAFT.*MANAGE, ADVERTISE or ANALYZE/),
      });
      await expect(connect('act_999999999')).rejects.toMatchObject({ type: 'not_found' });
      await expect(
        sync.connectAccount({
          workspaceId: workspace.id,
          platformAccountId: byCurrency('EUR').id,
          baseUrl: demo.url,
          token: 'wrong',
        }),
      ).rejects.toMatchObject({ type: 'authentication_error' });
    } finally {
      await dispose();
    }
  });
});
