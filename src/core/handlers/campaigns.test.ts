// The analyst's target CPA per campaign through the handler map, on the real App and a seeded store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../app';
import { createCore } from '../core';
import { seedReportFixture, type ReportFixture } from '../reports/fixtures';
import { manualClock } from '../reports/test-helpers';
import type { CampaignDetail } from '../../shared/ipc/types';
import type { HandlerContext } from './context';
import type { Dispatch } from './dispatch';
import { contextForUser, createHandlerDispatch } from './index';

let dir: string;
let app: App;
let fixture: ReportFixture;
let ctx: HandlerContext;
let dispatch: Dispatch;

async function ok<T>(name: string, args: unknown): Promise<T> {
  const result = await dispatch(ctx, name, args);
  if (!result.ok) throw new Error(`${name}: ${result.error.type} ${result.error.message}`);
  return result.value as T;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adlens-target-cpa-'));
  const core = createCore({ dataDir: dir, clock: manualClock('2026-04-01T09:00:00.000Z') });
  fixture = seedReportFixture(core.db, { campaigns: 2 });
  app = createApp(core, { renderReportsInWorker: false });
  ctx = contextForUser(core.db, fixture.userId);
  dispatch = createHandlerDispatch({
    app,
    host: { kind: 'desktop', apiBaseUrl: () => null, demoPlatform: () => null },
  });
});

afterEach(async () => {
  await app.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('campaigns.setTargetCpa', () => {
  it('sets the target in account currency, campaigns.get shows it, and null clears it', async () => {
    const campaignId = fixture.campaignIds[0] as string;
    expect((await ok<CampaignDetail>('campaigns.get', { campaignId })).targetCpa).toBeNull();
    expect(await ok('campaigns.setTargetCpa', { campaignId, targetCpa: 42.5 })).toEqual({
      campaignId,
      targetCpa: 42.5,
    });
    expect(
      app.core.db.prepare(`SELECT target_cpa_micros FROM campaigns WHERE id = ?`).pluck().get(campaignId),
    ).toBe(42_500_000);
    expect((await ok<CampaignDetail>('campaigns.get', { campaignId })).targetCpa).toBe(42.5);
    // Only that campaign changed.
    const other = fixture.campaignIds[1] as string;
    expect((await ok<CampaignDetail>('campaigns.get', { campaignId: other })).targetCpa).toBeNull();
    expect(await ok('campaigns.setTargetCpa', { campaignId, targetCpa: null })).toEqual({
      campaignId,
      targetCpa: null,
    });
    expect((await ok<CampaignDetail>('campaigns.get', { campaignId })).targetCpa).toBeNull();
  });

  it('refuses zero, negative and missing amounts, and campaigns of another workspace', async () => {
    const campaignId = fixture.campaignIds[0] as string;
    for (const targetCpa of [0, -3, '12']) {
      expect(await dispatch(ctx, 'campaigns.setTargetCpa', { campaignId, targetCpa })).toMatchObject({
        ok: false,
        error: { type: 'invalid_request', message: /targetCpa/ },
      });
    }
    expect(await dispatch(ctx, 'campaigns.setTargetCpa', { campaignId })).toMatchObject({
      ok: false,
      error: { type: 'invalid_request' },
    });
    const foreign = await dispatch(ctx, 'campaigns.setTargetCpa', {
      campaignId: fixture.other.campaignId,
      targetCpa: 10,
    });
    expect(foreign.ok).toBe(false);
    expect(
      app.core.db
        .prepare(`SELECT target_cpa_micros FROM campaigns WHERE id = ?`)
        .pluck()
        .get(fixture.other.campaignId),
    ).toBeNull();
  });
});
