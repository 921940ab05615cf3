// Disconnect and reconnect through the handler map, on the real App and the real demo platform.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../app';
import { createCore } from '../core';
import { startDemoPlatform, type DemoPlatform } from '../demo-platform';
import type { CoreEventMap } from '../events';
import { createUser } from '../identity/users';
import { createWorkspace } from '../identity/workspaces';
import type { AccountView, DemoCandidate } from '../../shared/ipc/types';
import type { HandlerContext } from './context';
import type { Dispatch } from './dispatch';
import { contextForUser, createHandlerDispatch } from './index';

let dir: string;
let platform: DemoPlatform;
let app: App;
let dispatch: Dispatch;
let ctx: HandlerContext;
const changes: CoreEventMap['connection.changed'][] = [];

async function ok<T>(name: string, args: unknown): Promise<T> {
  const result = await dispatch(ctx, name, args);
  if (!result.ok) throw new Error(`${name}: ${result.error.type} ${result.error.message}`);
  return result.value as T;
}

/** Resolves when the account's running sync has ended (at once when none runs). */
function syncEnded(accountId: string): Promise<void> {
  return new Promise((resolve) => {
    const offs = [
      app.core.events.on('sync.completed', (e) => e.accountId === accountId && done()),
      app.core.events.on('sync.failed', (e) => e.accountId === accountId && done()),
    ];
    function done(): void {
      offs.forEach((off) => off());
      resolve();
    }
    if (!app.sync.isSyncing(accountId)) done();
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'adlens-connection-'));
  platform = await startDemoPlatform({ port: 0, seed: 5 });
  const demo = { url: platform.url, apiVersion: platform.apiVersion };
  const core = createCore({ dataDir: dir });
  app = createApp(core, { sync: { demoPlatform: async () => demo }, renderReportsInWorker: false });
  const ws = createWorkspace(core.db, { name: 'Agency', plan: 'agency' });
  const owner = createUser(core.db, { workspaceId: ws.id, email: 'owner@agency.test', role: 'owner' });
  ctx = contextForUser(core.db, owner.id);
  core.events.on('connection.changed', (e) => changes.push(e));
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

describe('disconnect and reconnect', () => {
  let account: AccountView;

  it('disconnects an account while its first sync runs: the sync stops and new ones are refused', async () => {
    const candidates = await ok<DemoCandidate[]>('accounts.demoCandidates', {});
    const pick = candidates.find((c) => c.canConnect);
    account = await ok<AccountView>('accounts.connectDemo', { platformAccountId: pick?.platformAccountId });
    expect(account.sync.running).toBe(true);
    const disconnected = await ok<AccountView>('accounts.disconnect', { accountId: account.id });
    expect(disconnected).toMatchObject({ connectionStatus: 'disconnected', sync: { running: false } });
    expect(app.sync.isSyncing(account.id)).toBe(false);
    expect(changes.at(-1)).toEqual({
      workspaceId: ctx.workspaceId,
      accountId: account.id,
      connectionStatus: 'disconnected',
    });
    const refused = await dispatch(ctx, 'accounts.sync', { accountId: account.id });
    expect(refused).toMatchObject({ ok: false, error: { type: 'conflict', message: /disconnected/ } });
    // Disconnecting twice is harmless.
    expect((await ok<AccountView>('accounts.disconnect', { accountId: account.id })).connectionStatus).toBe(
      'disconnected',
    );
  });

  it('reconnects a disconnected demo account with the demo token and syncs it', async () => {
    const back = await ok<AccountView>('accounts.reconnect', { accountId: account.id });
    expect(back.connectionStatus).toBe('active');
    expect(back.sync.running).toBe(true);
    await syncEnded(account.id);
    const [listed] = await ok<AccountView[]>('accounts.list', {});
    expect(listed).toMatchObject({ connectionStatus: 'active', sync: { running: false, lastError: null } });
    expect(listed?.campaignCount).toBeGreaterThan(0);
  });

  it('keeps history while disconnected', async () => {
    await ok('accounts.disconnect', { accountId: account.id });
    const campaigns = await ok<{ items: unknown[] }>('campaigns.list', { accountId: account.id });
    expect(campaigns.items.length).toBeGreaterThan(0);
    await ok('accounts.reconnect', { accountId: account.id });
    await syncEnded(account.id);
  });

  it('re-authenticates a token_expired demo account once the platform accepts its token again', async () => {
    platform.controls.expireToken('all');
    await ok('accounts.sync', { accountId: account.id });
    await syncEnded(account.id);
    expect((await ok<AccountView[]>('accounts.list', {}))[0]?.connectionStatus).toBe('token_expired');
    // Still refused by the platform: the error says so and the account stays expired.
    const refused = await dispatch(ctx, 'accounts.reconnect', { accountId: account.id });
    expect(refused).toMatchObject({ ok: false, error: { type: 'token_expired' } });
    expect((await ok<AccountView[]>('accounts.list', {}))[0]?.connectionStatus).toBe('token_expired');
    platform.controls.reset();
    const back = await ok<AccountView>('accounts.reconnect', { accountId: account.id });
    expect(back).toMatchObject({ connectionStatus: 'active', statusReason: null });
    await syncEnded(account.id);
    expect((await ok<AccountView[]>('accounts.list', {}))[0]?.sync.lastError).toBeNull();
  });

  it('refuses to disconnect or reconnect an account that is not in the workspace', async () => {
    for (const name of ['accounts.disconnect', 'accounts.reconnect']) {
      expect(await dispatch(ctx, name, { accountId: 'act_AAAAAAAAAAAAAAAA' })).toMatchObject({
        ok: false,
        error: { type: 'not_found' },
      });
    }
  });
});
