// The job lifecycle against a real SQLite store: pending → running → completed, 409 and 422, resume
// after a restart, list/latest, and Andromeda profile and feedback through the service.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiagnosticCreatedSchema, DiagnosticDetailSchema } from '../../shared/api/diagnostics';
import { addDays } from '../clock';
import { createCore, type Core } from '../core';
import { AppError } from '../errors';
import { campaignInsights } from '../insights/index';
import {
  buildCampaign,
  insertCampaign,
  seedWorkspace,
  step,
  type SeededWorkspace,
} from '../../test-support/diagnostics-fixtures';
import { DiagnosticsService } from './service';

const TODAY = '2026-03-01';
const FROM = addDays(TODAY, -13);
const country = (c: string) => ({ geo_locations: { countries: [c] }, age_min: 18, age_max: 65 });

function sickCampaign(name = 'Spring Sale') {
  return buildCampaign({
    name,
    today: TODAY,
    days: 60,
    adSets: [
      {
        name: 'US broad',
        targeting: country('US'),
        dailyBudget: 80,
        ads: [
          { name: 'Video hook', ctr: step(0.02, 0.012, 7), frequency: step(1.25, 1.6, 7) },
          { name: 'Carousel', ctr: () => 0.02 },
        ],
      },
      {
        name: 'DE broad',
        targeting: country('DE'),
        dailyBudget: 100,
        ads: [{ name: 'Static', impressions: () => 5000 }],
      },
    ],
  });
}

let dir: string;
let core: Core;
let ws: SeededWorkspace;
let service: DiagnosticsService;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adlens-diag-'));
  core = createCore({ dataDir: dir });
  ws = seedWorkspace(core.db);
  service = new DiagnosticsService(core);
});

afterEach(async () => {
  await service.stop();
  core.close();
  rmSync(dir, { recursive: true, force: true });
});

const ctx = () => ({ workspaceId: ws.workspaceId, userId: null });

async function expectError(fn: () => unknown, type: string): Promise<void> {
  try {
    await fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).type).toBe(type);
    return;
  }
  throw new Error(`expected ${type}`);
}

describe('DiagnosticsService', () => {
  it('runs a campaign diagnostic from pending to completed and stores the spec shape', async () => {
    const campaignId = insertCampaign(core.db, ws.accountId, sickCampaign());
    const statuses: string[] = [];
    core.events.on('diagnostic.changed', (e) => statuses.push(e.status));
    const created = await service.create(ctx(), {
      accountId: ws.accountId,
      campaignId,
      dateFrom: FROM,
      dateTo: TODAY,
    });
    expect(DiagnosticCreatedSchema.parse(created)).toMatchObject({ status: 'pending', campaignId });
    expect(created.estimatedCompletionSeconds).toBeGreaterThanOrEqual(1);
    expect((await service.get(ctx(), created.id))?.status).toBe('pending');
    await service.whenIdle();
    expect(statuses).toEqual(['pending', 'running', 'completed']);
    const detail = DiagnosticDetailSchema.parse(await service.get(ctx(), created.id));
    expect(detail).toMatchObject({
      status: 'completed',
      campaignId,
      campaignName: 'Spring Sale',
      dateRange: { from: FROM, to: TODAY },
    });
    expect(detail.issues.map((i) => i.type).sort()).toEqual(['CREATIVE_FATIGUE', 'PACING_ISSUE']);
    expect(detail.processingTimeMs).toBeGreaterThanOrEqual(1);
    expect(detail.andromedaContext).toMatchObject({ riskAppetite: 'MEDIUM', focusMetric: 'CPA' });
    expect(detail.metrics?.spend).toBeGreaterThan(0);

    // The same numbers as the insights endpoint for the same campaign and range.
    const insights = (await campaignInsights(core.sql, [campaignId], FROM, TODAY)).get(campaignId);
    expect(detail.metrics).toMatchObject({
      spend: insights?.spend,
      impressions: insights?.impressions,
      clicks: insights?.clicks,
      conversions: insights?.conversions,
      cpa: insights?.cpa,
      roas: insights?.roas,
      ctr: insights?.ctr,
      cpm: insights?.cpm,
      currency: 'USD',
    });

    const list = await service.list(ctx(), { accounts: { ids: [ws.accountId] }, page: 1, pageSize: 20 });
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({ id: created.id, issuesDetected: 2, riskLevel: detail.riskLevel });
    expect(
      (
        await service.list(ctx(), {
          accounts: { ids: [ws.accountId] },
          riskLevel: 'CRITICAL',
          page: 1,
          pageSize: 20,
        })
      ).total,
    ).toBe(detail.riskLevel === 'CRITICAL' ? 1 : 0);
    expect((await service.latestForCampaigns([campaignId])).get(campaignId)).toMatchObject({
      id: created.id,
      issuesDetected: 2,
    });
    // Estimates now come from measured run times: this workspace's, not another's slower runs since.
    const other = seedWorkspace(core.db);
    core.db
      .prepare(
        `INSERT INTO diagnostics (id, workspace_id, account_id, status, date_from, date_to, created_at,
           completed_at, processing_time_ms) VALUES ('diag_other', ?, ?, 'completed', ?, ?, ?, ?, 600000)`,
      )
      .run(
        other.workspaceId,
        other.accountId,
        FROM,
        TODAY,
        '2999-01-01T00:00:00.000Z',
        '2999-01-01T00:00:00.000Z',
      );
    const next = await service.create(ctx(), {
      accountId: ws.accountId,
      campaignId,
      dateFrom: FROM,
      dateTo: TODAY,
    });
    expect(next.estimatedCompletionSeconds).toBe(1);
    await service.whenIdle();
  });

  it('refuses a second diagnostic of the same campaign while one is active (409)', async () => {
    const campaignId = insertCampaign(core.db, ws.accountId, sickCampaign());
    await service.create(ctx(), { accountId: ws.accountId, campaignId, dateFrom: FROM, dateTo: TODAY });
    await expectError(
      () => service.create(ctx(), { accountId: ws.accountId, campaignId, dateFrom: FROM, dateTo: TODAY }),
      'diagnostic_in_progress',
    );
    await service.create(ctx(), { accountId: ws.accountId, campaignId: null, dateFrom: FROM, dateTo: TODAY });
    await expectError(
      () =>
        service.create(ctx(), { accountId: ws.accountId, campaignId: null, dateFrom: FROM, dateTo: TODAY }),
      'diagnostic_in_progress',
    );
    await service.whenIdle();
    // Once finished, a new one may start.
    expect(
      (await service.create(ctx(), { accountId: ws.accountId, campaignId, dateFrom: FROM, dateTo: TODAY }))
        .status,
    ).toBe('pending');
    await service.whenIdle();
  });

  it('refuses unsynced data (422) and foreign IDs (404)', async () => {
    const unsynced = insertCampaign(core.db, ws.accountId, sickCampaign('Not yet'), false);
    await expectError(
      () =>
        service.create(ctx(), {
          accountId: ws.accountId,
          campaignId: unsynced,
          dateFrom: FROM,
          dateTo: TODAY,
        }),
      'campaign_not_synced',
    );
    await expectError(
      () =>
        service.create(ctx(), { accountId: ws.accountId, campaignId: null, dateFrom: FROM, dateTo: TODAY }),
      'campaign_not_synced',
    );
    const other = seedWorkspace(core.db);
    await expectError(
      () =>
        service.create(
          { workspaceId: other.workspaceId, userId: null },
          { accountId: ws.accountId, campaignId: null, dateFrom: FROM, dateTo: TODAY },
        ),
      'not_found',
    );
  });

  it('runs an account-level diagnostic over every campaign with delivery', async () => {
    insertCampaign(core.db, ws.accountId, sickCampaign('Spring Sale'));
    insertCampaign(
      core.db,
      ws.accountId,
      buildCampaign({
        name: 'Evergreen',
        today: TODAY,
        days: 60,
        adSets: [{ name: 'US', dailyBudget: 40, ads: [{ name: 'A' }] }],
      }),
    );
    const created = await service.create(ctx(), {
      accountId: ws.accountId,
      campaignId: null,
      dateFrom: FROM,
      dateTo: TODAY,
    });
    await service.whenIdle();
    const detail = DiagnosticDetailSchema.parse(await service.get(ctx(), created.id));
    expect(detail).toMatchObject({
      campaignId: null,
      campaignName: null,
      platformCampaignId: null,
      campaignsAnalyzed: 2,
    });
    expect(detail.summary).toMatch(/2 campaigns with delivery/);
  });

  it('re-runs jobs a stopped process left pending or running', async () => {
    const campaignId = insertCampaign(core.db, ws.accountId, sickCampaign());
    core.db
      .prepare(
        `INSERT INTO diagnostics (id, workspace_id, account_id, campaign_id, status, date_from, date_to, created_at, started_at)
         VALUES ('diag_Interrupted00001', ?, ?, ?, 'running', ?, ?, ?, ?)`,
      )
      .run(
        ws.workspaceId,
        ws.accountId,
        campaignId,
        FROM,
        TODAY,
        '2026-03-01T10:00:00.000Z',
        '2026-03-01T10:00:01.000Z',
      );
    const restarted = new DiagnosticsService(core);
    await restarted.resume();
    await restarted.whenIdle();
    expect((await restarted.get(ctx(), 'diag_Interrupted00001'))?.status).toBe('completed');
  });

  it('marks a job failed, with an error, when its data disappeared before it ran', async () => {
    const campaignId = insertCampaign(core.db, ws.accountId, sickCampaign());
    core.db
      .prepare(
        `INSERT INTO diagnostics (id, workspace_id, account_id, campaign_id, status, date_from, date_to, created_at)
         VALUES ('diag_OrphanedJob00001', ?, ?, ?, 'pending', ?, ?, ?)`,
      )
      .run(ws.workspaceId, ws.accountId, campaignId, FROM, TODAY, '2026-03-01T10:00:00.000Z');
    // The campaign vanishes underneath the queued job (foreign keys off only for this simulation).
    core.db.pragma('foreign_keys = OFF');
    for (const table of [
      'insights_ad_daily',
      'insights_ad_set_daily',
      'insights_campaign_daily',
      'ads',
      'ad_sets',
    ])
      core.db.prepare(`DELETE FROM ${table} WHERE campaign_id = ?`).run(campaignId);
    core.db.prepare(`DELETE FROM campaigns WHERE id = ?`).run(campaignId);
    core.db.pragma('foreign_keys = ON');
    const statuses: string[] = [];
    core.events.on('diagnostic.changed', (e) => statuses.push(e.status));
    await service.resume();
    await service.whenIdle();
    const detail = DiagnosticDetailSchema.parse(await service.get(ctx(), 'diag_OrphanedJob00001'));
    expect(statuses).toEqual(['running', 'failed']);
    expect(detail).toMatchObject({
      status: 'failed',
      error: { type: 'not_found' },
      riskLevel: null,
      issues: [],
    });
    expect(detail.completedAt).not.toBeNull();
  });

  it('gives the same diagnosis on the worker thread (as hosts run it), and its errors keep their type', async () => {
    const campaignId = insertCampaign(core.db, ws.accountId, sickCampaign('Spring Sale'));
    insertCampaign(core.db, ws.accountId, sickCampaign('Autumn Sale'));
    const offThread = new DiagnosticsService(core, { inWorker: true });
    try {
      expect(offThread.offThread).toBe(true);
      expect(service.offThread).toBe(false);
      for (const campaign of [campaignId, null]) {
        const input = { accountId: ws.accountId, campaignId: campaign, dateFrom: FROM, dateTo: TODAY };
        const inline = await service.runNow(ctx(), input);
        const worker = await offThread.runNow(ctx(), input);
        const comparable = (d: typeof inline) => ({
          ...d,
          id: undefined,
          createdAt: undefined,
          completedAt: undefined,
          processingTimeMs: undefined,
        });
        expect(worker.status).toBe('completed');
        expect(worker.issues.length).toBeGreaterThan(0);
        expect(comparable(worker)).toEqual(comparable(inline));
      }
      // A campaign that vanished under a queued job: the worker's not_found comes back as not_found.
      core.db
        .prepare(
          `INSERT INTO diagnostics (id, workspace_id, account_id, campaign_id, status, date_from, date_to, created_at)
           VALUES ('diag_VanishedOnWorker1', ?, ?, NULL, 'pending', ?, ?, ?)`,
        )
        .run(ws.workspaceId, ws.accountId, FROM, TODAY, '2026-03-01T10:00:00.000Z');
      core.db.pragma('foreign_keys = OFF');
      core.db.prepare(`DELETE FROM ad_accounts WHERE id = ?`).run(ws.accountId);
      core.db.pragma('foreign_keys = ON');
      await offThread.resume();
      await offThread.whenIdle();
      const failed = core.db
        .prepare(`SELECT status, error FROM diagnostics WHERE id = 'diag_VanishedOnWorker1'`)
        .get() as { status: string; error: string };
      expect(failed.status).toBe('failed');
      expect(JSON.parse(failed.error)).toMatchObject({ type: 'not_found' });
    } finally {
      await offThread.stop();
    }
  });

  it('keeps profiles and feedback per user and applies them to later diagnostics', async () => {
    const campaignId = insertCampaign(core.db, ws.accountId, sickCampaign());
    expect(await service.getProfile(ctx())).toMatchObject({
      userId: ws.userId,
      riskAppetite: 'MEDIUM',
      focusMetric: 'CPA',
      updatedAt: null,
    });
    await service.setProfile(ctx(), { focusMetric: 'CTR' });
    expect(await service.getProfile(ctx())).toMatchObject({ riskAppetite: 'MEDIUM', focusMetric: 'CTR' });
    const first = await service.runNow(ctx(), {
      accountId: ws.accountId,
      campaignId,
      dateFrom: FROM,
      dateTo: TODAY,
    });
    const refresh = first.recommendations.find((r) => r.action.startsWith('Replace the creative'));
    expect(refresh?.priority).toBe(1);
    for (let i = 0; i < 3; i++) {
      const run = await service.runNow(ctx(), {
        accountId: ws.accountId,
        campaignId,
        dateFrom: FROM,
        dateTo: TODAY,
      });
      const rec = run.recommendations.find((r) => r.action.startsWith('Replace the creative'));
      if (rec)
        await service.feedback(ctx(), {
          diagnosticId: run.id,
          recommendationId: rec.id,
          feedback: 'dismissed',
        });
    }
    const later = await service.runNow(ctx(), {
      accountId: ws.accountId,
      campaignId,
      dateFrom: FROM,
      dateTo: TODAY,
    });
    expect(later.recommendations[0]?.action).not.toMatch(/^Replace the creative/);
    expect(later.andromedaContext?.adaptations).toMatch(/dismissed/);
    await expectError(
      () =>
        service.feedback(ctx(), { diagnosticId: later.id, recommendationId: 'rec_9', feedback: 'applied' }),
      'not_found',
    );
  });
});
