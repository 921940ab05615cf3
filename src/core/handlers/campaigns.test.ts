// The analyst's target CPA per campaign through the handler map, on the real App and a seeded store.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReportFixture } from '../../test-support/reports-fixtures';
import { manualClock } from '../../test-support/reports-harness';
import type { CampaignDetail } from '../../shared/ipc/types';
import { seededHandlerWorld, type HandlerWorld } from '../../test-support/handler-world';

let world: Awaited<ReturnType<typeof seededHandlerWorld>>;
let fixture: ReportFixture;
let ok: HandlerWorld['ok'];
let call: HandlerWorld['call'];

beforeEach(async () => {
  world = await seededHandlerWorld('adlens-target-cpa-', {
    campaigns: 2,
    clock: manualClock('2026-04-01T09:00:00.000Z'),
  });
  ({ fixture, ok, call } = world);
});

afterEach(async () => world.close());

describe('campaigns.setTargetCpa', () => {
  it('sets the target in account currency, campaigns.get shows it, and null clears it', async () => {
    const campaignId = fixture.campaignIds[0] as string;
    expect((await ok<CampaignDetail>('campaigns.get', { campaignId })).targetCpa).toBeNull();
    expect(await ok('campaigns.setTargetCpa', { campaignId, targetCpa: 42.5 })).toEqual({
      campaignId,
      targetCpa: 42.5,
    });
    // Since goals, the target CPA is the campaign's own CPA goal.
    expect(
      world.app.core.db.prepare(`SELECT kind, target FROM goals WHERE campaign_id = ?`).get(campaignId),
    ).toEqual({ kind: 'CPA', target: 42.5 });
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
      expect(await call('campaigns.setTargetCpa', { campaignId, targetCpa })).toMatchObject({
        ok: false,
        error: { type: 'invalid_request', message: /targetCpa/ },
      });
    }
    expect(await call('campaigns.setTargetCpa', { campaignId })).toMatchObject({
      ok: false,
      error: { type: 'invalid_request' },
    });
    const foreign = await call('campaigns.setTargetCpa', {
      campaignId: fixture.other.campaignId,
      targetCpa: 10,
    });
    expect(foreign.ok).toBe(false);
    expect(
      world.app.core.db
        .prepare(`SELECT target_cpa_micros FROM campaigns WHERE id = ?`)
        .pluck()
        .get(fixture.other.campaignId),
    ).toBeNull();
  });
});
