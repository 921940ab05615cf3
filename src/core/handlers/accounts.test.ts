// Disconnect and reconnect through the handler map, on the real App and the real demo platform.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app';
import type { DemoPlatform } from '../demo-platform';
import type { CoreEventMap } from '../events';
import type { AccountView, DemoCandidate } from '../../shared/ipc/types';
import { demoHandlerWorld, type HandlerWorld } from '../../test-support/handler-world';

let world: Awaited<ReturnType<typeof demoHandlerWorld>>;
let app: App;
let platform: DemoPlatform;
let ok: HandlerWorld['ok'];
let call: HandlerWorld['call'];
const changes: CoreEventMap['connection.changed'][] = [];

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
  world = await demoHandlerWorld('adlens-connection-', 5);
  ({ app, platform, ok, call } = world);
  app.core.events.on('connection.changed', (e) => changes.push(e));
});

afterAll(() => world.close());

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
      workspaceId: world.ctx.workspaceId,
      accountId: account.id,
      connectionStatus: 'disconnected',
    });
    const refused = await call('accounts.sync', { accountId: account.id });
    expect(refused).toMatchObject({ ok: false, error: { type: 'invalid_request', message: /disconnected/ } });
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
    const refused = await call('accounts.reconnect', { accountId: account.id });
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
      expect(await call(name, { accountId: 'act_AAAAAAAAAAAAAAAA' })).toMatchObject({
        ok: false,
        error: { type: 'not_found' },
      });
    }
  });
});
