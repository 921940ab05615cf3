import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../clock';
import { createCore } from '../core';
import type { CoreEventMap } from '../events';
import { newId } from '../ids';
import { createWorkspace } from '../identity/workspaces';
import { getAdAccount, getConnection } from './accounts';
import { FAKE_ACCOUNT, fakeAccountState, startFakeAccount } from '../../test-support/fake-account';
import { disconnectAccount, reconnectAccount } from './reconnect';
import { SyncService } from './service';

const TODAY = '2026-03-15';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup() {
  const state = fakeAccountState(TODAY);
  const server = await startFakeAccount(state);
  const dir = mkdtempSync(join(tmpdir(), 'adlens-reconnect-'));
  const core = createCore({ dataDir: dir, clock: fixedClock(`${TODAY}T12:00:00Z`) });
  const sync = new SyncService(core, { client: { sleep: async () => {}, backoffBaseMs: 1, maxRetries: 1 } });
  cleanups.push(
    () => server.close(),
    () => rmSync(dir, { recursive: true, force: true }),
    () => core.close(),
    () => sync.stop(),
  );
  const workspace = await createWorkspace(core.sql, { name: 'Agency', plan: 'agency' });
  const account = await sync.connectAccount({
    workspaceId: workspace.id,
    platformAccountId: FAKE_ACCOUNT,
    baseUrl: server.url,
    apiVersion: 'v25.0',
    token: 'token-one',
  });
  const changes: CoreEventMap['connection.changed'][] = [];
  core.events.on('connection.changed', (e) => changes.push(e));
  /** A second account on the same connection (same token), in the given state. */
  const sibling = (status: 'active' | 'disconnected', platformId: string): string => {
    const id = newId('act');
    core.db
      .prepare(
        `INSERT INTO ad_accounts (id, workspace_id, connection_id, platform_account_id, mode, name, currency,
           timezone, status, connection_status, permissions, connected_at)
         VALUES (?, ?, ?, ?, 'live', 'Sibling', 'USD', 'UTC', 'active', ?, '[]', ?)`,
      )
      .run(id, workspace.id, account.connectionId, platformId, status, `${TODAY}T12:00:00Z`);
    return id;
  };
  return { state, core, sync, workspace, account, changes, sibling };
}

describe('disconnectAccount', () => {
  it('stops a running sync, keeps history, refuses new syncs and announces the change', async () => {
    const { core, sync, workspace, account, changes } = await setup();
    expect((await sync.syncAccount(account.id)).status).toBe('completed');
    const campaigns = core.db.prepare(`SELECT COUNT(*) FROM campaigns`).pluck().get();
    const running = await sync.startSync(account.id, { kind: 'full' });
    const disconnected = await disconnectAccount(core, sync, workspace.id, account.id);
    expect(disconnected.connectionStatus).toBe('disconnected');
    expect(sync.isSyncing(account.id)).toBe(false);
    expect((await running.done).status).toBe('interrupted');
    expect(core.db.prepare(`SELECT COUNT(*) FROM campaigns`).pluck().get()).toBe(campaigns);
    await expect(sync.startSync(account.id)).rejects.toThrow(/disconnected; reconnect it first/);
    expect(changes).toEqual([
      { workspaceId: workspace.id, accountId: account.id, connectionStatus: 'disconnected' },
    ]);
  });

  it('refuses an account of another workspace', async () => {
    const { core, sync, account } = await setup();
    const other = await createWorkspace(core.sql, { name: 'Other', plan: 'agency' });
    await expect(disconnectAccount(core, sync, other.id, account.id)).rejects.toMatchObject({
      type: 'not_found',
    });
  });
});

describe('reconnectAccount', () => {
  it('replaces the token of an expired connection and revives its expired accounts only', async () => {
    const { state, core, sync, workspace, account, changes, sibling } = await setup();
    const expiredSibling = sibling('active', 'act_2002');
    const leftAlone = sibling('disconnected', 'act_2003');
    state.tokenExpired = true;
    const failed = await sync.syncAccount(account.id);
    expect(failed.error?.type).toBe('token_expired');
    expect((await getAdAccount(core.sql, expiredSibling))?.connectionStatus).toBe('token_expired');
    expect((await getAdAccount(core.sql, leftAlone))?.connectionStatus).toBe('disconnected');
    state.tokenExpired = false;
    changes.length = 0;

    const changed = await reconnectAccount(core, sync, {
      workspaceId: workspace.id,
      accountId: account.id,
      token: 'token-two',
    });
    expect(changed.map((a) => [a.id, a.connectionStatus])).toEqual([
      [account.id, 'active'],
      [expiredSibling, 'active'],
    ]);
    const connection = await getConnection(core.sql, account.connectionId);
    expect(connection?.status).toBe('active');
    expect(connection?.status_reason).toBeNull();
    expect(core.tokenCipher.decrypt(connection!.token_encrypted)).toBe('token-two');
    expect(core.db.prepare(`SELECT COUNT(*) FROM platform_connections`).pluck().get()).toBe(1);
    expect((await getAdAccount(core.sql, account.id))?.connectionId).toBe(account.connectionId);
    expect((await getAdAccount(core.sql, leftAlone))?.connectionStatus).toBe('disconnected');
    expect(changes.map((c) => c.accountId).sort()).toEqual([account.id, expiredSibling].sort());
    expect((await sync.syncAccount(account.id)).status).toBe('completed');
  });

  it('reconnects a disconnected account with a new token and syncs again', async () => {
    const { core, sync, workspace, account } = await setup();
    await disconnectAccount(core, sync, workspace.id, account.id);
    const [back] = await reconnectAccount(core, sync, {
      workspaceId: workspace.id,
      accountId: account.id,
      token: 'token-three',
    });
    expect(back?.connectionStatus).toBe('active');
    expect((await sync.syncAccount(account.id)).status).toBe('completed');
  });

  it('needs a token for an account that is not on the demo platform', async () => {
    const { core, sync, workspace, account } = await setup();
    await expect(
      reconnectAccount(core, sync, { workspaceId: workspace.id, accountId: account.id }),
    ).rejects.toMatchObject({ type: 'invalid_request', message: /new access token/ });
  });

  it('leaves the account as it was when the platform refuses the new token', async () => {
    const { state, core, sync, workspace, account } = await setup();
    await disconnectAccount(core, sync, workspace.id, account.id);
    state.tokenExpired = true;
    await expect(
      reconnectAccount(core, sync, {
        workspaceId: workspace.id,
        accountId: account.id,
        token: 'stale-token',
      }),
    ).rejects.toMatchObject({ type: 'token_expired' });
    expect((await getAdAccount(core.sql, account.id))?.connectionStatus).toBe('disconnected');
    expect(
      core.tokenCipher.decrypt((await getConnection(core.sql, account.connectionId))!.token_encrypted),
    ).toBe('token-one');
  });
});
