// POST /v1/accounts/{id}/sync and the event stream against the real sync engine and demo platform.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoPlatform, type DemoPlatform } from '../demo-platform/index';
import { GraphClient } from '../platform/graph-client';
import type { PlatformAdAccount } from '../platform/parse';
import { seedKey, seedWorkspace } from '../../test-support/api-fixtures';
import { call, startTestApi, type TestApi } from '../../test-support/api-server';

const TODAY = '2026-03-10';
let demo: DemoPlatform;
let t: TestApi;

beforeAll(async () => {
  demo = await startDemoPlatform({ port: 0, seed: 5, today: TODAY, largeAccountCampaigns: 10 });
  t = await startTestApi({
    now: `${TODAY}T12:00:00.000Z`,
    sync: {
      demoPlatform: async () => ({ url: demo.url, apiVersion: demo.apiVersion }),
      client: { sleep: async () => {}, backoffBaseMs: 1 },
    },
  });
});
afterAll(async () => {
  await t.close();
  await demo.close();
});

describe('POST /v1/accounts/{id}/sync', () => {
  it('starts a sync (202, idempotent while it runs), streams its events, and the data appears', async () => {
    const client = new GraphClient({ baseUrl: demo.url, apiVersion: demo.apiVersion, token: 'demo-token' });
    const platformAccounts: PlatformAdAccount[] = [];
    for await (const page of client.listAdAccounts()) platformAccounts.push(...page);
    const target = platformAccounts.find((a) =>
      (a.user_tasks ?? []).some((task) => task === 'MANAGE' || task === 'ADVERTISE'),
    );
    expect(target).toBeDefined();
    const ws = seedWorkspace(t.core.db, { plan: 'agency' });
    const account = await t.app.sync.connectAccount({
      workspaceId: ws.workspaceId,
      platformAccountId: (target as PlatformAdAccount).id,
      baseUrl: 'demo:',
      token: 'demo-token',
    });
    const testKey = (await seedKey(t.core.db, t.clock, { workspaceId: ws.workspaceId, mode: 'test' })).key;
    const liveKey = (await seedKey(t.core.db, t.clock, { workspaceId: ws.workspaceId, mode: 'live' })).key;

    const stream = await fetch(`${t.url}/v1/events`, { headers: { 'x-api-key': testKey } });
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let events = '';
    const completed = (async () => {
      const deadline = Date.now() + 60_000;
      while (!/event: sync\.(completed|failed)/.test(events) && Date.now() < deadline) {
        const chunk = await reader.read();
        if (chunk.done) break;
        events += decoder.decode(chunk.value, { stream: true });
      }
    })();

    const first = await call(t.url, `/v1/accounts/${account.id}/sync`, { key: testKey, method: 'POST' });
    expect(first.status).toBe(202);
    const started = (first.body as { data: { accountId: string; status: string; startedAt: string } }).data;
    expect(started).toMatchObject({ accountId: account.id, status: 'running' });
    const again = await call(t.url, `/v1/accounts/${account.id}/sync`, { key: testKey, method: 'POST' });
    expect(again.status).toBe(202);
    expect((again.body as { data: { status: string } }).data.status).toBe('running');

    await completed;
    await reader.cancel();
    expect(events).toContain('event: sync.progress');
    expect(events).toContain('event: sync.completed');

    const accounts = await call(t.url, '/v1/accounts', { key: testKey });
    const shown = (
      accounts.body as { data: Array<{ id: string; lastSyncedAt: string | null; campaignCount: number }> }
    ).data[0];
    expect(shown?.id).toBe(account.id);
    expect(shown?.lastSyncedAt).not.toBeNull();
    expect(shown?.campaignCount).toBeGreaterThan(0);
    const campaigns = await call(t.url, `/v1/campaigns?account_id=${account.platformAccountId}`, {
      key: testKey,
    });
    expect((campaigns.body as { pagination: { total: number } }).pagination.total).toBe(shown?.campaignCount);

    // Demo accounts are test-mode: a live key of the same workspace does not see them.
    expect((await call(t.url, `/v1/accounts/${account.id}`, { key: liveKey })).status).toBe(404);
    expect(
      (await call(t.url, `/v1/accounts/${account.id}/sync`, { key: liveKey, method: 'POST' })).status,
    ).toBe(404);
  });
});
