import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../core';
import { startDemoPlatform, type DemoPlatform } from '../demo-platform/index';
import { getWorkspaceOwner } from '../identity/users';
import { createWorkspace, listWorkspaces } from '../identity/workspaces';
import { listAdAccounts } from '../sync/accounts';
import { demoSeed } from '../sync/embedded-demo';
import { SyncService } from '../sync/service';
import { provisionIfEmpty } from './provision';

let demo: DemoPlatform;
beforeAll(async () => {
  demo = await startDemoPlatform({ port: 0, seed: 5 });
});
afterAll(async () => {
  await demo.close();
});

function open() {
  const core = createCore({ dataDir: mkdtempSync(join(tmpdir(), 'adlens-provision-')) });
  const sync = new SyncService(core, {
    demoPlatform: async () => ({ url: demo.url, apiVersion: demo.apiVersion }),
  });
  return { core, sync };
}

describe('demo-first provisioning', () => {
  it('creates a trial workspace with a local owner and connects every connectable demo account, once', async () => {
    const { core, sync } = open();
    const result = await provisionIfEmpty(core, sync, demo, { seed: 5 });
    expect(result?.workspace).toMatchObject({ name: 'Demo Agency', plan: 'trial' });
    const workspaceId = result!.workspace.id;
    const owner = await getWorkspaceOwner(core.sql, workspaceId);
    expect(owner).toMatchObject({ role: 'owner' });
    const accounts = await listAdAccounts(core.sql, workspaceId);
    expect(accounts.length).toBeGreaterThanOrEqual(3);
    expect(accounts.every((a) => a.mode === 'test' && a.connectedBy === owner!.id)).toBe(true);
    // The view-only (ANALYZE only) account is offered on the Connect screen, not connected by itself.
    expect(accounts.some((a) => a.name.includes('read only'))).toBe(false);
    expect(await demoSeed(core.sql)).toBe(5);
    expect(await provisionIfEmpty(core, sync, demo, { seed: 5 })).toBeNull();
    expect(await listWorkspaces(core.sql)).toHaveLength(1);
    await sync.stop();
    core.close();
  });

  it('leaves a directory alone when someone already created a workspace there', async () => {
    const { core, sync } = open();
    await createWorkspace(core.sql, { name: 'Mine', plan: 'agency' });
    expect(await provisionIfEmpty(core, sync, demo, { seed: 5 })).toBeNull();
    expect((await listWorkspaces(core.sql)).map((w) => w.name)).toEqual(['Mine']);
    await sync.stop();
    core.close();
  });
});
