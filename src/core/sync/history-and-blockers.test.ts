// Change history and delivery blockers end to end against the demo platform on loopback: the activity
// log synced (normalized, idempotent on re-sync) and read through the use case, /v1 and the IPC
// handler map; ad review issues and account limits in the views; DELIVERY_BLOCKED diagnostics naming
// the real cause with a fix-the-blocker-first recommendation. /v1 bodies are checked against the
// served OpenAPI document.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGE_TYPES, type ChangeEvent } from '../../shared/api/changes';
import { createApiServer, type ApiServer } from '../api/server';
import { createApp, type App } from '../app';
import { addDays, fixedClock } from '../clock';
import { createCore, type Core } from '../core';
import { generateWorld, startDemoPlatform, type DemoPlatform } from '../demo-platform/index';
import { POLICY_ISSUES } from '../demo-platform/world/blockers';
import { createHandlerDispatch } from '../handlers/index';
import { createApiKey } from '../identity/api-keys';
import { createUser } from '../identity/users';
import { createWorkspace } from '../identity/workspaces';
import { GraphClient } from '../platform/graph-client';
import { call } from '../../test-support/api-server';
import { responseChecker } from '../../test-support/openapi-check';
import { CHANGE_HISTORY_DAYS } from './changes';

const TODAY = '2026-03-15';
const SEED = 1;
const NOW = `${TODAY}T20:00:00Z`;
let demo: DemoPlatform;
let dir: string;
let core: Core;
let app: App;
let api: ApiServer;
let key: string;
let check: ReturnType<typeof responseChecker>;
let dispatch: ReturnType<typeof createHandlerDispatch>;
let ctx: Awaited<ReturnType<App['use']['identity']['contextForUser']>>;
/** Platform account ID → service account ID. */
const accounts = new Map<string, string>();
let eur: string;
let gbp: string;
let disabled: string;
/** The GBP campaign whose live ads the test has review decline 10 days ago. */
let declinedCampaign: { id: string; ads: string[] };

async function v1(path: string, body?: unknown) {
  const res = await call(api.url, path, { key, body });
  check(body === undefined ? 'GET' : 'POST', path, res.status, res.body);
  return res as { status: number; body: { data: Record<string, unknown> & Record<string, unknown> } };
}

const serviceCampaignId = (platformId: string) =>
  (
    core.db.prepare(`SELECT id FROM campaigns WHERE platform_campaign_id = ?`).get(platformId) as {
      id: string;
    }
  ).id;

const changeCount = (accountId: string) =>
  (
    core.db.prepare(`SELECT count(*) AS n FROM change_events WHERE account_id = ?`).get(accountId) as {
      n: number;
    }
  ).n;

beforeAll(async () => {
  demo = await startDemoPlatform({ port: 0, seed: SEED, today: TODAY });
  const client = new GraphClient({ baseUrl: demo.url, apiVersion: demo.apiVersion, token: 'demo-token' });
  const listed: { id: string; currency: string; account_status: number }[] = [];
  for await (const page of client.listAdAccounts()) listed.push(...page);
  eur = listed.find((a) => a.currency === 'EUR')!.id;
  gbp = listed.find((a) => a.currency === 'GBP')!.id;
  disabled = listed.find((a) => a.account_status === 2)!.id;

  // Upstream, before the first sync: every live ad of one GBP campaign declined 10 days ago, and the
  // EUR account reaching its spend cap 5 days ago.
  const world = generateWorld({ seed: SEED, today: TODAY });
  const campaign = world.accounts
    .find((a) => `act_${a.accountId}` === gbp)!
    .campaigns.find(
      (c) => c.status === 'ACTIVE' && c.evaluated && c.adSets.some((s) => s.status === 'ACTIVE'),
    )!;
  const liveAds = campaign.adSets.flatMap((s) => s.ads).filter((ad) => ad.status === 'ACTIVE');
  for (const ad of liveAds) demo.controls.disapproveAd(ad.id, addDays(TODAY, -10));
  declinedCampaign = { id: campaign.id, ads: liveAds.map((ad) => ad.id) };
  demo.controls.reachSpendCap(eur, addDays(TODAY, -5));

  dir = mkdtempSync(join(tmpdir(), 'adlens-history-'));
  core = createCore({ dataDir: dir, clock: fixedClock(NOW) });
  app = createApp(core, {
    sync: {
      demoPlatform: async () => ({ url: demo.url, apiVersion: demo.apiVersion }),
      client: { sleep: async () => {}, backoffBaseMs: 1 },
    },
    host: { runsBackgroundWork: true },
    renderReportsInWorker: false,
  });
  app.start();
  const workspace = await createWorkspace(core.sql, { name: 'Agency', plan: 'agency' });
  const owner = await createUser(core.sql, {
    workspaceId: workspace.id,
    email: 'owner@agency.test',
    role: 'owner',
  });
  ctx = await app.use.identity.contextForUser(owner.id);
  dispatch = createHandlerDispatch({ app, host: { kind: 'desktop' } });
  for (const platformAccountId of [eur, gbp, disabled]) {
    const account = await app.sync.connectAccount({
      workspaceId: workspace.id,
      platformAccountId,
      baseUrl: 'demo:',
      token: 'demo-token',
    });
    accounts.set(platformAccountId, account.id);
    const outcome = await app.sync.syncAccount(account.id);
    expect(outcome.status, outcome.error?.message).toBe('completed');
  }
  key = (
    await createApiKey(core.sql, core.clock, {
      workspaceId: workspace.id,
      mode: 'test',
      limitOverrides: { writes: 1000, diagnostics: 1000 },
    })
  ).key;
  api = await createApiServer(app, { port: 0 });
  check = responseChecker(
    (await call(api.url, '/v1/openapi.json')).body as Parameters<typeof responseChecker>[0],
  );
}, 120_000);

afterAll(async () => {
  await api?.close();
  await app?.stop();
  await demo?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('change history', () => {
  it('stores the last 90 days of the activity log, normalized, each entry tied to what it touched', async () => {
    const accountId = accounts.get(eur)!;
    const until = Math.floor(Date.parse(NOW) / 1000);
    const client = new GraphClient({ baseUrl: demo.url, apiVersion: demo.apiVersion, token: 'demo-token' });
    let upstream = 0;
    for await (const page of client.listActivities(eur, {
      since: until - CHANGE_HISTORY_DAYS * 86_400,
      until,
    }))
      upstream += page.length;
    expect(upstream).toBeGreaterThan(20);
    expect(changeCount(accountId)).toBe(upstream);

    const rows = core.db
      .prepare(
        `SELECT event_type, change_type, object_type, campaign_id, ad_set_id, ad_id FROM change_events WHERE account_id = ?`,
      )
      .all(accountId) as {
      event_type: string;
      change_type: string;
      object_type: string;
      campaign_id: string | null;
      ad_set_id: string | null;
      ad_id: string | null;
    }[];
    const expected: Record<string, string> = {
      update_ad_set_budget: 'BUDGET',
      update_campaign_budget: 'BUDGET',
      update_ad_set_target_spec: 'TARGETING',
      update_ad_set_attribution_spec: 'ATTRIBUTION',
      update_ad_creative: 'CREATIVE',
      update_ad_run_status: 'STATUS',
      update_campaign_run_status: 'STATUS',
      ad_review_declined: 'STATUS',
      create_ad: 'OTHER',
    };
    for (const r of rows) {
      expect(CHANGE_TYPES).toContain(r.change_type);
      if (expected[r.event_type]) expect(r.change_type, r.event_type).toBe(expected[r.event_type]);
      // Synced objects are resolved: an ad's entry knows its ad set and campaign.
      if (r.object_type === 'ad' && r.ad_id) expect(r.ad_set_id && r.campaign_id).toBeTruthy();
    }
    const types = new Set(rows.map((r) => r.change_type));
    for (const t of ['BUDGET', 'STATUS', 'OTHER']) expect(types).toContain(t);
  });

  it('re-syncing (incremental, then full) stores nothing twice', async () => {
    const accountId = accounts.get(eur)!;
    const before = changeCount(accountId);
    const incremental = await app.sync.syncAccount(accountId);
    expect(incremental.kind).toBe('incremental');
    expect(incremental.stats?.changesRead).toBeGreaterThanOrEqual(0);
    expect(incremental.stats?.changesStored).toBe(0);
    const full = await app.sync.syncAccount(accountId, { kind: 'full' });
    expect(full.stats?.changesRead).toBe(before);
    expect(full.stats?.changesStored).toBe(0);
    expect(changeCount(accountId)).toBe(before);
  });

  it("a campaign's history is the same through the use case, /v1 and the IPC handler map", async () => {
    const row = core.db
      .prepare(
        `SELECT campaign_id FROM change_events WHERE account_id = ? AND change_type = 'BUDGET' AND ad_set_id IS NOT NULL LIMIT 1`,
      )
      .get(accounts.get(eur)!) as { campaign_id: string };
    const changes = await app.use.campaigns.changes(ctx, row.campaign_id);
    const budget = changes.find((c) => c.changeType === 'BUDGET' && c.adSet !== null)!;
    expect(budget).toMatchObject({
      eventType: expect.stringMatching(/budget/),
      oldValue: expect.stringMatching(/^\d+\.\d{2} EUR$/),
      newValue: expect.stringMatching(/^\d+\.\d{2} EUR$/),
      actor: { name: expect.any(String) },
      campaign: { id: row.campaign_id },
    });
    expect(budget.description).toContain('→');
    const times = changes.map((c) => c.at);
    expect([...times].sort().reverse()).toEqual(times);

    const res = await v1(`/v1/campaigns/${row.campaign_id}/changes`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(changes);
    const ipc = await dispatch(ctx, 'campaigns.changes', { campaignId: row.campaign_id });
    expect(ipc).toEqual({ ok: true, value: changes });
    // The campaign screen carries the same list.
    const screen = await dispatch(ctx, 'campaigns.get', { campaignId: row.campaign_id });
    expect(screen.ok && (screen.value as { changes: ChangeEvent[] }).changes).toEqual(changes);
    expect((await v1('/v1/campaigns/camp_AAAAAAAAAAAAAAAA/changes')).status).toBe(404);
  });

  it('the diagnostics snapshot carries the edits as plain data', async () => {
    const { loadCampaigns } = await import('../diagnostics/load');
    const row = core.db
      .prepare(
        `SELECT campaign_id FROM change_events WHERE account_id = ? AND campaign_id IS NOT NULL
                AND event_time >= ? LIMIT 1`,
      )
      .get(accounts.get(eur)!, addDays(TODAY, -40)) as { campaign_id: string };
    const [data] = await loadCampaigns(core.sql, [row.campaign_id], addDays(TODAY, -40), TODAY);
    expect(data?.changes?.length).toBeGreaterThan(0);
    expect(data?.changes?.[0]).toMatchObject({ at: expect.any(String), changeType: expect.any(String) });
    expect(JSON.parse(JSON.stringify(data?.changes))).toEqual(data?.changes);
  });
});

type Diagnostic = {
  status: string;
  riskLevel: string;
  summary: string;
  issues: { id: string; type: string; description: string; evidence: Record<string, unknown> }[];
  recommendations: { action: string; relatedIssues: string[] }[];
};

async function diagnose(platformAccountId: string, campaignId: string): Promise<Diagnostic> {
  const created = await v1('/v1/diagnostics', {
    account_id: accounts.get(platformAccountId),
    campaign_id: campaignId,
  });
  expect(created.status).toBe(202);
  for (let i = 0; i < 100; i++) {
    await app.diagnostics.whenIdle();
    const res = await v1(`/v1/diagnostics/${String(created.body.data.id)}`);
    const d = res.body.data as unknown as Diagnostic;
    if (d.status === 'completed' || d.status === 'failed') return d;
  }
  throw new Error('diagnostic did not finish');
}

describe('delivery blockers', () => {
  it('accounts carry disableReason, spendCap and amountSpent (/v1 and the app)', async () => {
    const off = await v1(`/v1/accounts/${accounts.get(disabled)}`);
    expect(off.body.data).toMatchObject({ status: 'disabled', disableReason: 'RISK_PAYMENT' });
    const capped = (await v1(`/v1/accounts/${accounts.get(eur)}`)).body.data;
    expect(capped.spendCap).toEqual(capped.amountSpent);
    expect(Number(capped.spendCap)).toBeGreaterThan(0);
    const near = (await v1(`/v1/accounts/${accounts.get(gbp)}`)).body.data;
    expect(Number(near.spendCap)).toBeGreaterThan(Number(near.amountSpent));
    expect(near.disableReason).toBeNull();
    const views = await dispatch(ctx, 'accounts.list', {});
    expect(
      views.ok && (views.value as { disableReason: string | null }[]).map((a) => a.disableReason),
    ).toContain('RISK_PAYMENT');
  });

  it("campaign views count disapproved ads and ads with issues; the detail lists Meta's errors", async () => {
    const id = serviceCampaignId(declinedCampaign.id);
    const detail = (await v1(`/v1/campaigns/${id}`)).body.data as {
      deliveryIssues: { disapprovedAds: number };
      adIssues: { effectiveStatus: string; message: string; errorCode: number | null }[];
    };
    expect(detail.deliveryIssues.disapprovedAds).toBe(declinedCampaign.ads.length);
    expect(detail.adIssues[0]).toMatchObject({
      effectiveStatus: 'DISAPPROVED',
      message: POLICY_ISSUES[0]!.error_message,
      errorCode: POLICY_ISSUES[0]!.error_code,
    });
    const list = (await v1(`/v1/campaigns?account_id=${accounts.get(gbp)}&page_size=100`)).body
      .data as unknown as {
      id: string;
      deliveryIssues: { disapprovedAds: number; adsWithIssues: number };
    }[];
    expect(list.find((c) => c.id === id)?.deliveryIssues.disapprovedAds).toBe(declinedCampaign.ads.length);
    // The world's own paused ad with issues (WITH_ISSUES) is counted on its campaign.
    expect(list.some((c) => c.deliveryIssues.adsWithIssues > 0)).toBe(true);
  });

  it("a campaign stopped by disapproved ads: DELIVERY_BLOCKED names the ad and Meta's message; fixing it comes first", async () => {
    const d = await diagnose(gbp, serviceCampaignId(declinedCampaign.id));
    expect(d.status).toBe('completed');
    expect(d.riskLevel).toBe('CRITICAL');
    const issue = d.issues[0]!;
    expect(issue.type).toBe('DELIVERY_BLOCKED');
    const blockers = issue.evidence.blockers as { kind: string; ad?: { name: string }; message: string }[];
    expect(blockers[0]).toMatchObject({ kind: 'AD_DISAPPROVED', message: POLICY_ISSUES[0]!.error_message });
    expect(issue.description).toContain(blockers[0]!.ad!.name);
    expect(issue.evidence.daysWithoutDelivery).toBeGreaterThanOrEqual(7);
    expect(d.recommendations[0]!.action).toMatch(/^Fix ad /);
    expect(d.recommendations[0]!.relatedIssues).toContain(issue.id);
    expect(d.summary).toContain('disapproved');
  });

  it('a disabled account and a reached spend cap are named as the cause', async () => {
    const disabledCampaign = core.db
      .prepare(`SELECT id FROM campaigns WHERE account_id = ? AND status = 'ACTIVE' ORDER BY id LIMIT 1`)
      .get(accounts.get(disabled)!) as { id: string };
    const off = await diagnose(disabled, disabledCampaign.id);
    expect(off.issues[0]).toMatchObject({ type: 'DELIVERY_BLOCKED' });
    expect(off.issues[0]!.evidence.blockers).toContainEqual(
      expect.objectContaining({ kind: 'ACCOUNT_DISABLED', reason: 'RISK_PAYMENT' }),
    );
    expect(off.recommendations[0]!.action).toMatch(/re-enabled/);

    const capped = core.db
      .prepare(`SELECT id FROM campaigns WHERE account_id = ? AND status = 'ACTIVE' ORDER BY id LIMIT 1`)
      .get(accounts.get(eur)!) as { id: string };
    const cap = await diagnose(eur, capped.id);
    expect(cap.issues[0]!.type).toBe('DELIVERY_BLOCKED');
    expect(cap.issues[0]!.evidence.blockers).toContainEqual(
      expect.objectContaining({ kind: 'SPEND_CAP_REACHED' }),
    );
    expect(cap.recommendations[0]!.action).toMatch(/spend cap/);
  });

  it('campaigns without a blocker get no DELIVERY_BLOCKED', async () => {
    const other = core.db
      .prepare(
        `SELECT c.id FROM campaigns c WHERE c.account_id = ? AND c.status = 'ACTIVE' AND c.platform_campaign_id <> ?
         AND EXISTS (SELECT 1 FROM insights_campaign_daily i WHERE i.campaign_id = c.id AND i.date = ? AND i.spend_micros > 0)
         ORDER BY c.id LIMIT 1`,
      )
      .get(accounts.get(gbp)!, declinedCampaign.id, TODAY) as { id: string };
    const d = await diagnose(gbp, other.id);
    expect(d.status).toBe('completed');
    expect(d.issues.map((i) => i.type)).not.toContain('DELIVERY_BLOCKED');
  });
});

describe("Meta's own recommendations", () => {
  it('are synced with the opportunity score and shown beside ours in the diagnostic', async () => {
    const stored = core.db
      .prepare(
        `SELECT type, campaign_id FROM platform_recommendations WHERE account_id = ? ORDER BY position`,
      )
      .all(accounts.get(gbp)!) as { type: string; campaign_id: string | null }[];
    expect(stored.map((r) => r.type)).toContain('SIGNALS_GROWTH_CAPI');
    // Each is tied to the campaign of the ad set it names; account-wide ones to none.
    const named = stored.find((r) => r.type === 'ADVANTAGE_PLUS_AUDIENCE');
    expect(named?.campaign_id).toMatch(/^camp_/);
    const d = (await diagnose(gbp, named!.campaign_id!)) as Diagnostic & {
      metaRecommendations: {
        opportunityScore: number;
        items: { type: string; campaignName: string | null }[];
      };
    };
    expect(d.metaRecommendations.opportunityScore).toBeGreaterThan(0);
    expect(d.metaRecommendations.opportunityScore).toBeLessThan(100);
    expect(d.metaRecommendations.items.map((i) => i.type)).toEqual(
      expect.arrayContaining(['ADVANTAGE_PLUS_AUDIENCE', 'SIGNALS_GROWTH_CAPI']),
    );
    expect(
      d.metaRecommendations.items.find((i) => i.type === 'ADVANTAGE_PLUS_AUDIENCE')?.campaignName,
    ).toBeTruthy();
  });
});
