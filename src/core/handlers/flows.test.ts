// The handlers over the real App and the real demo platform: connect, sync, browse, diagnose.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app';
import type { AccountView, CampaignList, DemoCandidate, DiagnosticDetail } from '../../shared/ipc/types';
import { demoHandlerWorld, type HandlerWorld } from '../../test-support/handler-world';

let world: Awaited<ReturnType<typeof demoHandlerWorld>>;
let app: App;
let ok: HandlerWorld['ok'];
let call: HandlerWorld['call'];

beforeAll(async () => {
  world = await demoHandlerWorld('adlens-flows-', 3);
  ({ app, ok, call } = world);
});

afterAll(() => world.close());

describe('handler flows', () => {
  let account: AccountView;

  it('lists demo accounts, connects one and starts its first sync', async () => {
    const candidates = await ok<DemoCandidate[]>('accounts.demoCandidates', {});
    const pick = candidates.find((c) => c.canConnect);
    expect(pick).toBeDefined();
    // View-only (ANALYZE) access reads performance: it can be connected too.
    expect(candidates.find((c) => c.name.includes('read only'))?.canConnect).toBe(true);
    account = await ok<AccountView>('accounts.connectDemo', { platformAccountId: pick?.platformAccountId });
    expect(account).toMatchObject({ mode: 'test', connectionStatus: 'active' });
    expect(app.sync.isSyncing(account.id)).toBe(true);
    // Idempotent, as through /v1: a second request returns the running sync instead of a second one.
    const again = await call('accounts.sync', { accountId: account.id });
    expect(again).toMatchObject({ ok: true, value: { accountId: account.id, status: 'running' } });
    await new Promise<void>((resolve) => {
      const off = app.core.events.on('sync.completed', (e) => {
        if (e.accountId === account.id) {
          off();
          resolve();
        }
      });
      if (!app.sync.isSyncing(account.id)) resolve();
    });
    const [listed] = await ok<AccountView[]>('accounts.list', {});
    expect(listed?.campaignCount).toBeGreaterThan(0);
    expect(listed?.sync.running).toBe(false);
  });

  it('lists campaigns with insight columns and opens one with its daily series', async () => {
    const list = await ok<CampaignList>('campaigns.list', { accountId: account.id, range: { days: 14 } });
    expect(list.items.length).toBeGreaterThan(0);
    const top = [...list.items].sort((a, b) => b.spend - a.spend)[0];
    expect(top?.spend).toBeGreaterThan(0);
    expect(top?.synced).toBe(true);
    const detail = await ok<{ daily: unknown[]; adSets: unknown[]; ads: unknown[] }>('campaigns.get', {
      campaignId: top?.id,
      range: { days: 30 },
    });
    expect(detail.daily).toHaveLength(30);
    expect(detail.adSets.length).toBeGreaterThan(0);
    expect(detail.ads.length).toBeGreaterThan(0);
    const insights = await ok<{ totals: { spend: number } }>('insights.summary', { accountId: account.id });
    expect(insights.totals.spend).toBeGreaterThan(0);
  });

  it('runs a diagnostic to completion and records feedback on a recommendation', async () => {
    const created = await ok<{ id: string }>('diagnostics.run', { accountId: account.id });
    await app.diagnostics.whenIdle();
    const detail = await ok<DiagnosticDetail>('diagnostics.get', { id: created.id });
    expect(detail.status).toBe('completed');
    const rec = detail.recommendations[0];
    expect(rec).toBeDefined();
    await ok('diagnostics.feedback', {
      diagnosticId: created.id,
      recommendationId: rec?.id,
      feedback: 'dismissed',
    });
    expect((await ok<DiagnosticDetail>('diagnostics.get', { id: created.id })).feedback).toEqual({
      [rec?.id as string]: 'dismissed',
    });
    const list = await ok<{ total: number }>('diagnostics.list', { accountId: account.id });
    expect(list.total).toBe(1);
  });
});
