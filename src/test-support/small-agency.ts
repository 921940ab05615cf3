// A small synced demo agency for tests that need a whole install quickly (e.g. `store copy`): one demo
// account with 14 days of history, fully synced, an API key, the clock pinned, the owner's handler map.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App } from '../core/app';
import { fixedClock } from '../core/clock';
import { createCore } from '../core/core';
import { startDemoPlatform, type DemoPlatform } from '../core/demo-platform/index';
import { createHandlerDispatch, type HandlerContext } from '../core/handlers';
import { createApiKey } from '../core/identity/api-keys';
import { createUser } from '../core/identity/users';
import { createWorkspace } from '../core/identity/workspaces';
import type { AccountView } from '../shared/ipc/types';

export const SMALL_AGENCY_TODAY = '2026-03-15';

export interface SmallAgency {
  app: App;
  dataDir: string;
  ctx: HandlerContext;
  account: AccountView;
  /** The desktop's IPC path with the owner's context; throws on an error value. */
  ipc<T>(name: string, args?: unknown): Promise<T>;
  close(): Promise<void>;
}

/** An IPC caller for any App (e.g. one opened on a copy of the agency's data directory). */
export function ipcOf(app: App, ctx: HandlerContext) {
  const dispatch = createHandlerDispatch({ app, host: { kind: 'desktop' } });
  return async <T>(name: string, args: unknown = {}): Promise<T> => {
    const result = await dispatch(ctx, name, args);
    if (!result.ok) throw new Error(`${name}: ${result.error.type} ${result.error.message}`);
    return result.value as T;
  };
}

export const smallAgencyClock = () => fixedClock(new Date(`${SMALL_AGENCY_TODAY}T18:00:00.000Z`));

export async function smallAgency(): Promise<SmallAgency> {
  const dataDir = mkdtempSync(join(tmpdir(), 'adlens-small-agency-'));
  let platform: DemoPlatform | undefined;
  let app: App | undefined;
  try {
    platform = await startDemoPlatform({ port: 0, seed: 5, today: SMALL_AGENCY_TODAY, historyDays: 14 });
    const demo = { url: platform.url, apiVersion: platform.apiVersion };
    app = createApp(createCore({ dataDir, clock: smallAgencyClock() }), {
      sync: { demoPlatform: async () => demo },
      host: { demoPlatform: () => demo, runsBackgroundWork: false },
      renderReportsInWorker: false,
    });
    const workspace = await createWorkspace(app.core.sql, { name: 'Small Agency', plan: 'agency' });
    const owner = await createUser(app.core.sql, {
      workspaceId: workspace.id,
      email: 'owner@small.test',
      role: 'owner',
    });
    await createApiKey(app.core.sql, app.core.clock, { workspaceId: workspace.id, mode: 'test' });
    const ctx = await app.use.identity.contextForUser(owner.id);
    const candidate = (await app.use.accounts.demoCandidates(ctx)).find((c) => c.canConnect);
    if (!candidate) throw new Error('the demo platform offers no connectable account');
    const account = await app.use.accounts.connect(ctx, { platformAccountId: candidate.platformAccountId });
    const outcome = await app.sync.syncAccount(account.id, { kind: 'full' });
    if (outcome.status !== 'completed') throw new Error(`sync of ${account.id} ended ${outcome.status}`);
    const openApp = app;
    const openPlatform = platform;
    return {
      app,
      dataDir,
      ctx,
      account,
      ipc: ipcOf(app, ctx),
      async close() {
        await openApp.stop();
        await openPlatform.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await app?.stop();
    await platform?.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
