// The handlers over the real App and the real demo platform: connect, sync, browse, diagnose.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../app';
import { createCore } from '../core';
import { startDemoPlatform, type DemoPlatform } from '../demo-platform';
import { createUser } from '../identity/users';
import { createWorkspace } from '../identity/workspaces';
import type { AccountView, CampaignList, DemoCandidate, DiagnosticDetail } from '../../shared/ipc/types';
import type { HandlerContext } from './context';
import type { Dispatch } from './dispatch';
import { contextForUser, createHandlerDispatch } from './index';

let dir: string;
let platform: DemoPlatform;
let app: App;
let dispatch: Dispatch;
let ctx: HandlerContext;

async function ok<T>(name: string, args: unknown): Promise<T> {
  const result = await dispatch(ctx, name, args);
  if (!result.ok) throw new Error(`${name}: ${result.error.type} ${result.error.message}`);
  return result.value as T;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'adlens-flows-'));
  platform = await startDemoPlatform({ port: 0, seed: 3 });
  const demo = { url: platform.url, apiVersion: platform.apiVersion };
  const core = createCore({ dataDir: dir });
  app = createApp(core, { sync: { demoPlatform: async () => demo }, renderReportsInWorker: false });
  app.start();
  const ws = createWorkspace(core.db, { name: 'Agency', plan: 'agency' });
  const owner = createUser(core.db, { workspaceId: ws.id, email: 'owner@agency.test', role: 'owner' });
  ctx = contextForUser(core.db, owner.id);
  dispatch = createHandlerDispatch({
    app,
    host: { kind: 'desktop', apiBaseUrl: () => null, demoPlatform: () => demo },
  });
});

afterAll(async () => {
  await app.stop();
  await platform.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('handler flows', () => {
  let account: AccountView;

  it('lists demo accounts, connects one and starts its first sync', async () => {
    const candidates = await ok<DemoCandidate[]>('accounts.demoCandidates', {});
    const pick = candidates.find((c) => c.canConnect);
    expect(pick).toBeDefined();
    expect(candidates.some((c) => !c.canConnect)).toBe(true);
    account = await ok<AccountView>('accounts.connectDemo', { platformAccountId: pick?.platformAccountId });
    expect(account).toMatchObject({ mode: 'test', connectionStatus: 'active' });
    expect(app.sync.isSyncing(account.id)).toBe(true);
    const again = await dispatch(ctx, 'accounts.sync', { accountId: account.id });
    expect(again).toMatchObject({ ok: false, error: { type: 'sync_in_progress' } });
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
