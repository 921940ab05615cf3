// Agency access on the real App and the real demo platform, through the handler map: every account a
// token reaches grouped by business, many connected in one step, view-only and system-user access,
// refusals with a reason, and the token's expiry with its warning and event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app';
import type { DemoPlatform } from '../demo-platform';
import type { CoreEventMap } from '../events';
import { DEMO_SYSTEM_USER_TOKEN } from '../platform/demo';
import type { AvailableAccounts, ConnectManyResult } from '../../shared/api/available-accounts';
import type { AccountView } from '../../shared/ipc/types';
import { demoHandlerWorld, type HandlerWorld } from '../../test-support/handler-world';

let world: Awaited<ReturnType<typeof demoHandlerWorld>>;
let app: App;
let platform: DemoPlatform;
let ok: HandlerWorld['ok'];
const expiring: CoreEventMap['connection.expiring'][] = [];

function syncsEnded(accountIds: string[]): Promise<void> {
  return Promise.all(accountIds.map((id) => app.sync.current(id)?.catch(() => undefined))).then(() => {});
}

function debugTokenCalls(): number {
  return platform.controls.requestLog().filter((line) => line.includes('debug_token')).length;
}

async function oauthToken(): Promise<string> {
  const res = await fetch(
    `${platform.url}/${platform.apiVersion}/oauth/access_token?client_id=1&client_secret=s&code=c`,
  );
  return ((await res.json()) as { access_token: string }).access_token;
}

beforeAll(async () => {
  world = await demoHandlerWorld('adlens-agency-', 2);
  ({ app, platform, ok } = world);
  app.core.events.on('connection.expiring', (e) => expiring.push(e));
});
afterAll(() => world.close());

describe('agency access', () => {
  let available: AvailableAccounts;

  it('lists every account the token reaches, grouped by business, client accounts included', async () => {
    available = await ok<AvailableAccounts>('accounts.available', {});
    expect(available.platform).toBe('demo');
    expect(available.groups).toHaveLength(3);
    const all = available.groups.flatMap((g) => g.accounts);
    expect(all).toHaveLength(available.total);
    expect(new Set(all.map((a) => a.platformAccountId)).size).toBe(all.length); // de-duplicated
    expect(available.total).toBe(9);
    const clients = all.filter((a) => a.relation === 'CLIENT');
    expect(clients).toHaveLength(3);
    for (const group of available.groups) {
      for (const account of group.accounts) {
        if (account.relation === 'OWNED') expect(account.business).toEqual(group.business);
        else expect(account.business?.id).not.toBe(group.business?.id);
      }
    }
    const draftsOnly = all.find((a) => a.tasks.join() === 'DRAFT');
    expect(draftsOnly).toMatchObject({ canConnect: false, reason: expect.stringMatching(/ANALYZE/) });
    const viewOnly = all.filter((a) => a.tasks.join() === 'ANALYZE');
    expect(viewOnly).toHaveLength(2);
    expect(viewOnly.every((a) => a.canConnect && a.reason === null)).toBe(true);
    expect(all.every((a) => !a.connected && a.currency.length === 3 && a.timezone.includes('/'))).toBe(true);
  });

  it("connects a business's client accounts in one step; the one without a reading task is refused", async () => {
    const all = available.groups.flatMap((g) => g.accounts);
    const clients = all.filter((a) => a.relation === 'CLIENT').map((a) => a.platformAccountId);
    const result = await ok<ConnectManyResult>('accounts.connectMany', { platformAccountIds: clients });
    expect(result).toMatchObject({ connected: 2, refused: 1 });
    const refused = result.outcomes.find((o) => o.status === 'refused');
    expect(refused?.error).toMatchObject({
      type: 'permission_error',
      message: expect.stringMatching(/only DRAFT/),
    });
    const connected = result.outcomes
      .filter((o) => o.status === 'connected')
      .map((o) => o.accountId as string);
    // One connection for the token; each account syncs like a single connect does.
    await syncsEnded(connected);
    const views = await ok<AccountView[]>('accounts.list', {});
    const mine = views.filter((v) => connected.includes(v.id));
    expect(mine).toHaveLength(2);
    expect(mine.every((v) => v.lastSyncedAt !== null && v.campaignCount > 0)).toBe(true);
    expect(mine.map((v) => v.tokenExpiresAt)).toEqual([null, null]); // demo-token never expires
    const again = await ok<AvailableAccounts>('accounts.available', {});
    const marked = again.groups.flatMap((g) => g.accounts).filter((a) => a.connected);
    expect(marked.map((a) => a.platformAccountId).sort()).toEqual(
      result.outcomes
        .filter((o) => o.status === 'connected')
        .map((o) => o.platformAccountId)
        .sort(),
    );
  });

  it('connects an ANALYZE-only account of the user', async () => {
    const viewOnly = available.groups
      .flatMap((g) => g.accounts)
      .find((a) => a.tasks.join() === 'ANALYZE' && a.relation === 'OWNED');
    const result = await ok<ConnectManyResult>('accounts.connectMany', {
      platformAccountIds: [viewOnly?.platformAccountId],
    });
    expect(result.outcomes[0]).toMatchObject({ status: 'connected', error: null });
  });

  it("connects with a system user's token", async () => {
    const listed = await ok<AvailableAccounts>('accounts.available', {
      token: DEMO_SYSTEM_USER_TOKEN,
      baseUrl: platform.url,
    });
    expect(listed.token).toEqual({ type: 'SYSTEM_USER', expiresAt: null });
    const pick = listed.groups.flatMap((g) => g.accounts).find((a) => a.canConnect && a.currency === 'GBP');
    const result = await ok<ConnectManyResult>('accounts.connectMany', {
      platformAccountIds: [pick?.platformAccountId],
      token: DEMO_SYSTEM_USER_TOKEN,
      baseUrl: platform.url,
    });
    expect(result.connected).toBe(1);
    await syncsEnded([result.outcomes[0]?.accountId as string]);
  });

  it('reads the expiry: a 60-day token carries no warning, one lapsing in 3 days warns once', async () => {
    const all = available.groups.flatMap((g) => g.accounts);
    const [first, second] = all.filter(
      (a) =>
        a.canConnect &&
        a.relation === 'OWNED' &&
        a.currency !== 'GBP' &&
        a.timezone !== 'America/Los_Angeles',
    );
    const longLived = await oauthToken();
    const calls = debugTokenCalls();
    const [a] = (
      await ok<ConnectManyResult>('accounts.connectMany', {
        platformAccountIds: [first?.platformAccountId],
        token: longLived,
        baseUrl: platform.url,
      })
    ).outcomes;
    expect(debugTokenCalls()).toBe(calls + 1);
    await syncsEnded([a?.accountId as string]);
    // The sync right after connecting does not read it again (at most once a day).
    expect(debugTokenCalls()).toBe(calls + 1);
    const views = await ok<AccountView[]>('accounts.list', {});
    const viewA = views.find((v) => v.id === a?.accountId);
    const days = (Date.parse(viewA?.tokenExpiresAt ?? '') - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(59);
    expect(viewA?.tokenWarning).toBeNull();
    expect(expiring).toHaveLength(0);

    const shortLived = await oauthToken();
    platform.controls.setTokenExpiry(shortLived, Math.floor(Date.now() / 1000) + 3 * 86400);
    const [b] = (
      await ok<ConnectManyResult>('accounts.connectMany', {
        platformAccountIds: [second?.platformAccountId],
        token: shortLived,
        baseUrl: platform.url,
      })
    ).outcomes;
    const accountId = b?.accountId as string;
    await syncsEnded([accountId]);
    const viewB = (await ok<AccountView[]>('accounts.list', {})).find((v) => v.id === accountId);
    expect(viewB?.tokenWarning).toMatch(/expires in 3 days/);
    expect(Date.parse(viewB?.tokenExpiresAt ?? '')).toBeGreaterThan(Date.now() + 2.9 * 86_400_000);
    expect(expiring).toEqual([
      expect.objectContaining({
        accountId,
        accountIds: [accountId],
        daysLeft: 3,
        workspaceId: world.ctx.workspaceId,
      }),
    ]);
    // Another sync the same day: no second event.
    await app.sync.syncAccount(accountId);
    expect(expiring).toHaveLength(1);
  });
});
