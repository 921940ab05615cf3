// Real agency accounts against the demo platform on loopback: results as Ads Manager counts them
// (lead forms, app installs, custom conversions), archived objects, learning that ends without an
// edit, 28-day re-reads that pick up late conversions and write nothing when nothing changed, link CTR.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addDays, fixedClock } from '../clock';
import { createApp, type App } from '../app';
import { createCore, type Core } from '../core';
import { resultTruth, startDemoPlatform, type DemoPlatform } from '../demo-platform/index';
import { createWorkspace } from '../identity/workspaces';
import { sumTotals } from '../insights/queries';
import { deriveMetrics } from '../insights/metrics';
import { GraphClient } from '../platform/graph-client';
import { REREAD_DAYS } from './engine';
import { SyncService } from './service';

const TODAY = '2026-03-15';
const SEED = 1;
let demo: DemoPlatform;
let core: Core;
let sync: SyncService;
let app: App;
let workspaceId: string;
let accountId: string;
let platformAccountId: string;

beforeEach(async () => {
  demo = await startDemoPlatform({ port: 0, seed: SEED, today: TODAY });
  const client = new GraphClient({ baseUrl: demo.url, apiVersion: demo.apiVersion, token: 'demo-token' });
  for await (const page of client.listAdAccounts())
    platformAccountId ??= page.find((a) => a.currency === 'EUR')!.id;
  core = createCore({
    dataDir: mkdtempSync(join(tmpdir(), 'adlens-real-accounts-')),
    clock: fixedClock(`${TODAY}T20:00:00Z`),
  });
  app = createApp(core, {
    sync: {
      demoPlatform: async () => ({ url: demo.url, apiVersion: demo.apiVersion }),
      client: { sleep: async () => {}, backoffBaseMs: 1 },
    },
    renderReportsInWorker: false,
  });
  sync = app.sync;
  const workspace = await createWorkspace(core.sql, { name: 'Agency', plan: 'agency' });
  workspaceId = workspace.id;
  const account = await sync.connectAccount({
    workspaceId: workspace.id,
    platformAccountId,
    baseUrl: 'demo:',
    token: 'demo-token',
  });
  accountId = account.id;
  expect((await sync.syncAccount(accountId)).status).toBe('completed');
});

afterEach(async () => {
  await app.stop();
  await demo.close();
});

const campaignOf = (resultType: string) =>
  core.db
    .prepare(
      `SELECT id, platform_campaign_id, result_type, result_name FROM campaigns
       WHERE account_id = ? AND result_type = ? AND effective_status = 'ACTIVE' ORDER BY name LIMIT 1`,
    )
    .get(accountId, resultType) as
    { id: string; platform_campaign_id: string; result_type: string; result_name: string } | undefined;

describe('real agency accounts', () => {
  it('lead-gen, app-install and custom-conversion campaigns show the platform results and CPA', async () => {
    // The campaigns use case (the /v1 list): the last 7 days ending today in the account's timezone.
    const since = addDays(TODAY, -6);
    const ctx = { workspaceId, plan: 'agency' as const, userId: null, keyId: null, mode: 'all' as const };
    const { items } = await app.use.campaigns.list(ctx, { accountId, pageSize: 100 });
    for (const [type, name] of [
      ['LEAD_FORM', 'Leads (form)'],
      ['APP_INSTALL', 'App installs'],
      ['CUSTOM_CONVERSION', null],
      ['LANDING_PAGE_VIEW', 'Landing page views'],
    ] as const) {
      const campaign = campaignOf(type);
      expect(campaign, type).toBeDefined();
      const truth = resultTruth({ seed: SEED, today: TODAY }, campaign!.platform_campaign_id, since, TODAY);
      expect(truth.resultKind).toBe(type);
      const view = items.find((c) => c.id === campaign!.id)!;
      expect(view.resultType).toBe(type);
      expect(view.resultName).toBe(name ?? `Custom conversion: ${truth.customConversionName}`);
      expect(truth.results).toBeGreaterThan(0);
      expect(view.insights.conversions).toBe(truth.results);
      expect(view.insights.cpa).toBe(Math.round((truth.spendMinor / 100 / truth.results) * 100) / 100);
      // Ad sets store their attribution setting.
      const spec = core.db
        .prepare(`SELECT attribution_spec FROM ad_sets WHERE campaign_id = ? LIMIT 1`)
        .pluck()
        .get(campaign!.id) as string;
      expect(JSON.parse(spec)).toEqual([
        { event_type: 'CLICK_THROUGH', window_days: 7 },
        { event_type: 'VIEW_THROUGH', window_days: 1 },
      ]);
    }
  });

  it('an ad set archived upstream leaves the active lists after the next sync and is kept, archived', async () => {
    const adSet = core.db
      .prepare(
        `SELECT s.id, s.platform_ad_set_id FROM ad_sets s WHERE s.account_id = ? AND s.effective_status = 'ACTIVE'
         ORDER BY s.name LIMIT 1`,
      )
      .get(accountId) as { id: string; platform_ad_set_id: string };
    demo.controls.setStatus(adSet.platform_ad_set_id, 'ARCHIVED');
    const outcome = await sync.syncAccount(accountId);
    expect(outcome).toMatchObject({ status: 'completed', kind: 'incremental' });
    const row = core.db
      .prepare(`SELECT status, effective_status, learning_status FROM ad_sets WHERE id = ?`)
      .get(adSet.id);
    expect(row).toEqual({ status: 'ARCHIVED', effective_status: 'ARCHIVED', learning_status: null });
    const active = core.db
      .prepare(`SELECT id FROM ad_sets WHERE account_id = ? AND effective_status = 'ACTIVE'`)
      .pluck()
      .all(accountId);
    expect(active).not.toContain(adSet.id);
    const ads = core.db
      .prepare(`SELECT DISTINCT effective_status FROM ads WHERE ad_set_id = ?`)
      .pluck()
      .all(adSet.id);
    expect(ads).toEqual(['ARCHIVED']);
  });

  it('a campaign archived upstream leaves the ACTIVE list and stays in the ARCHIVED one', async () => {
    const campaign = campaignOf('PURCHASE')!;
    demo.controls.setStatus(campaign.platform_campaign_id, 'ARCHIVED');
    expect((await sync.syncAccount(accountId)).status).toBe('completed');
    const ctx = { workspaceId, plan: 'agency' as const, userId: null, keyId: null, mode: 'all' as const };
    const ids = async (status: string) =>
      (await app.use.campaigns.list(ctx, { accountId, status, pageSize: 100 })).items.map((c) => c.id);
    expect(await ids('ACTIVE')).not.toContain(campaign.id);
    expect(await ids('ARCHIVED')).toContain(campaign.id);
    const adSets = core.db
      .prepare(`SELECT DISTINCT effective_status FROM ad_sets WHERE campaign_id = ?`)
      .pluck()
      .all(campaign.id);
    expect(adSets).toEqual(['ARCHIVED']);
  });

  it('a learning ad set that exits learning without an edit shows SUCCESS after the next sync', async () => {
    const learning = core.db
      .prepare(
        `SELECT id, platform_ad_set_id, learning_conversions, last_significant_edit_at FROM ad_sets
         WHERE account_id = ? AND learning_status = 'LEARNING'
           AND last_significant_edit_at > ? ORDER BY name`,
      )
      .all(accountId, `${addDays(TODAY, -6)}T00:00:00Z`) as {
      id: string;
      platform_ad_set_id: string;
      learning_conversions: number;
      last_significant_edit_at: string;
    }[];
    expect(learning.length).toBeGreaterThan(0);
    const target = learning[0]!;
    demo.controls.attributeLate(target.platform_ad_set_id, TODAY, 60 - target.learning_conversions);
    await sync.syncAccount(accountId);
    const after = core.db
      .prepare(`SELECT learning_status, learning_conversions FROM ad_sets WHERE id = ?`)
      .get(target.id) as { learning_status: string; learning_conversions: number };
    expect(after.learning_status).toBe('SUCCESS');
    const snapshot = core.db
      .prepare(`SELECT status FROM learning_stage_snapshots WHERE ad_set_id = ? AND observed_on = ?`)
      .pluck()
      .get(target.id, TODAY);
    expect(snapshot).toBe('SUCCESS');
  });

  it('incremental syncs re-read 28 days: a late conversion on day -20 is picked up; an unchanged re-read writes nothing', async () => {
    const unchanged = await sync.syncAccount(accountId);
    expect(unchanged.stats?.since).toBe(addDays(TODAY, -(REREAD_DAYS - 1)));
    expect(unchanged.stats?.insightRowsWritten).toBe(0);

    const campaign = campaignOf('PURCHASE')!;
    const adSet = core.db
      .prepare(
        `SELECT s.id, s.platform_ad_set_id FROM ad_sets s JOIN insights_ad_set_daily i ON i.ad_set_id = s.id
         WHERE s.campaign_id = ? AND i.date = ? AND i.spend_micros > 0 LIMIT 1`,
      )
      .get(campaign.id, addDays(TODAY, -20)) as { id: string; platform_ad_set_id: string };
    const day = addDays(TODAY, -20);
    const before = (await sumTotals(core.sql, { accountIds: [accountId] }, { from: day, to: day }))
      .conversions;
    demo.controls.attributeLate(adSet.platform_ad_set_id, day, 3);
    const late = await sync.syncAccount(accountId);
    expect(late.status).toBe('completed');
    // The day's campaign, ad set and one ad row changed; nothing else was rewritten.
    expect(late.stats?.insightRowsWritten).toBe(3);
    expect((await sumTotals(core.sql, { accountIds: [accountId] }, { from: day, to: day })).conversions).toBe(
      before + 3,
    );
  });

  it('CTR is link CTR (inline_link_clicks over impressions)', async () => {
    const since = addDays(TODAY, -6);
    const raw = await sumTotals(core.sql, { accountIds: [accountId] }, { from: since, to: TODAY });
    expect(raw.linkClicks).toBeGreaterThan(0);
    expect(raw.linkClicks).toBeLessThan(raw.clicks);
    expect(deriveMetrics(raw).ctr).toBe(Math.round((raw.linkClicks / raw.impressions) * 100 * 10000) / 10000);
  });
});
