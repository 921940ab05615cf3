import type { Core } from '../core';
import { AppError } from '../errors';
import { createUser, getWorkspaceOwner } from '../identity/users';
import { createWorkspace, getWorkspace, listWorkspaces, type Workspace } from '../identity/workspaces';
import { DEMO_TOKEN } from '../platform/demo';
import { GraphClient } from '../platform/graph-client';
import { managesAccount } from '../platform/parse';
import { readSetting, writeSetting } from '../settings/store';
import { listAdAccounts, type AdAccount } from '../sync/accounts';
import { DEMO_BASE_URL, setDemoSeed, type DemoPlatformEndpoint } from '../sync/embedded-demo';
import type { SyncService } from '../sync/service';

export const TRIAL_WORKSPACE_NAME = 'Demo Agency';
export const LOCAL_OWNER_EMAIL = 'owner@adlens.local';

const PROVISIONED = 'provisioned_at';
const PROVISIONING_WORKSPACE = 'provisioning.workspace_id';

function setting(core: Core, key: string): Promise<string | undefined> {
  return readSetting(core.sql, key);
}

function setSetting(core: Core, key: string, value: string): Promise<void> {
  return writeSetting(core.sql, key, value);
}

/**
 * Demo-first provisioning of an empty data directory: a trial workspace with a local owner, and every
 * demo account this owner can connect (Admin or Advertiser) connected through the embedded demo
 * platform. Resumable: a run killed half-way is finished by the next start. Returns null when the
 * directory was already provisioned or holds workspaces someone created.
 */
export async function provisionIfEmpty(
  core: Core,
  sync: SyncService,
  demo: DemoPlatformEndpoint,
  opts: { seed: number },
): Promise<{ workspace: Workspace; accounts: AdAccount[] } | null> {
  if (await setting(core, PROVISIONED)) return null;
  const resumeId = await setting(core, PROVISIONING_WORKSPACE);
  let workspace = resumeId ? await getWorkspace(core.sql, resumeId) : undefined;
  if (!workspace && (await listWorkspaces(core.sql)).length > 0) {
    await setSetting(core, PROVISIONED, core.clock.now().toISOString());
    return null;
  }
  if (!workspace) {
    workspace = await core.sql.transaction(async (tx) => {
      const created = await createWorkspace(
        tx,
        { name: TRIAL_WORKSPACE_NAME, plan: 'trial' },
        core.clock.now(),
      );
      await createUser(tx, {
        workspaceId: created.id,
        email: LOCAL_OWNER_EMAIL,
        name: 'Local owner',
        role: 'owner',
      });
      await setDemoSeed(tx, opts.seed);
      await writeSetting(tx, PROVISIONING_WORKSPACE, created.id);
      return created;
    });
  }
  const client = new GraphClient({ baseUrl: demo.url, apiVersion: demo.apiVersion, token: DEMO_TOKEN });
  const accounts: AdAccount[] = [];
  const owner = await getWorkspaceOwner(core.sql, workspace.id);
  for await (const page of client.listAdAccounts()) {
    for (const platformAccount of page.filter(managesAccount)) {
      accounts.push(
        await sync.connectAccount({
          workspaceId: workspace.id,
          platformAccountId: platformAccount.id,
          baseUrl: DEMO_BASE_URL,
          token: DEMO_TOKEN,
          ...(owner ? { userId: owner.id } : {}),
        }),
      );
    }
  }
  await setSetting(core, PROVISIONED, core.clock.now().toISOString());
  return { workspace, accounts };
}

/** Syncs every active demo (test-mode) account, one after another; failures are logged, not thrown. */
export async function syncDemoAccounts(core: Core, sync: SyncService): Promise<void> {
  for (const workspace of await listWorkspaces(core.sql)) {
    for (const account of await listAdAccounts(core.sql, workspace.id)) {
      if (account.mode !== 'test' || account.connectionStatus !== 'active') continue;
      try {
        // A sync resumed after a crash is already on its way: wait for it instead of starting another.
        const outcome = await (sync.current(account.id) ?? sync.syncAccount(account.id));
        if (outcome.status === 'interrupted') return;
      } catch (error) {
        if (error instanceof AppError && error.type === 'conflict') return; // shutting down
        // A CLI sync of the same account is running, or its token expired: leave it.
        core.logger.warn(
          `start-up sync of ${account.platformAccountId} skipped: ${(error as Error).message}`,
        );
      }
    }
  }
}
