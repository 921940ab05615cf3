// One synced store reached through every transport: the /v1 API (real HTTP with a key), the handler
// map as the desktop's IPC calls it, the web bridge (real HTTP with a signed-in session), and the CLI
// (its real command code, in-process, with --json). The parity suite compares what they answer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from '../cli/framework';
import { PgRateLimiter } from '../core/api/rate-limit-pg';
import { createApiServer, type ApiServer } from '../core/api/server';
import { createApp, type App } from '../core/app';
import { dateInZone, fixedClock } from '../core/clock';
import { createCore, type Core } from '../core/core';
import { createDashboard } from '../core/dashboard/index';
import { startDemoPlatform, type DemoPlatform } from '../core/demo-platform/index';
import { createHandlerDispatch, type HandlerContext } from '../core/handlers';
import { createApiKey } from '../core/identity/api-keys';
import { createInvitation } from '../core/identity/invitations';
import { createUser } from '../core/identity/users';
import { createWorkspace } from '../core/identity/workspaces';
import { openTeamCore } from '../core/team-core';
import type { AccountView } from '../shared/ipc/types';
import type { Engine } from './engines';
import { startTeamDatabase, type TeamDatabase } from './postgres';

export const PARITY_TODAY = '2026-03-15';

export interface TransportWorld {
  app: App;
  engine: Engine;
  /** A temp folder: the SQLite store's data directory, or (PostgreSQL) where the key file is. */
  dataDir: string;
  workspaceId: string;
  ctx: HandlerContext;
  /** The accounts that were synced (others may be connected but never synced). */
  accounts: AccountView[];
  /** GET or POST on /v1 with the workspace's test key; returns the parsed body and status. */
  v1(path: string, init?: { method?: string; body?: unknown }): Promise<{ status: number; body: V1Body }>;
  /** The desktop's IPC path: the dispatcher with the local owner's context. */
  ipc<T>(name: string, args?: unknown): Promise<T>;
  /** `npm run cli -- <argv> --json` on the same store (--data-dir or --database-url): its real command code, in-process. */
  cli<T>(module: string, argv: string[]): Promise<T>;
  /** The web dashboard's bridge over HTTP, signed in as an invited analyst. */
  bridge<T>(name: string, args?: unknown): Promise<T>;
  close(): Promise<void>;
}

export interface V1Body {
  data: unknown;
  pagination?: { total: number };
  error?: { type: string; message: string };
}

/**
 * A workspace on the agency plan with `accountCount` demo accounts connected and fully synced, the
 * clock fixed at 18:00 UTC on PARITY_TODAY (so accounts east and west of UTC are on different days).
 * On 'postgres' the store is a team server's: a real PostgreSQL this starts, the team core (its jobs
 * on leases, report files as rows) and rate limits counted in the database.
 */
export async function transportWorld(accountCount = 2, engine: Engine = 'sqlite'): Promise<TransportWorld> {
  const dataDir = mkdtempSync(join(tmpdir(), 'adlens-parity-'));
  const clock = fixedClock(new Date(`${PARITY_TODAY}T18:00:00.000Z`));
  let platform: DemoPlatform | undefined;
  let api: ApiServer | undefined;
  let app: App | undefined;
  // The team server's database and key file; the CLI reaches the same store through them.
  let team: TeamDatabase | undefined;
  const openCore = async (): Promise<{ core: Core; rateLimits?: PgRateLimiter }> => {
    if (engine === 'sqlite') return { core: createCore({ dataDir, clock }) };
    team = await startTeamDatabase(dataDir);
    const core = await openTeamCore({ databaseUrl: team.databaseUrl, clock, env: team.env });
    return { core, rateLimits: new PgRateLimiter(core.pool, clock) };
  };
  try {
    platform = await startDemoPlatform({ port: 0, seed: 5, today: PARITY_TODAY });
    const demo = { url: platform.url, apiVersion: platform.apiVersion };
    const { core, rateLimits } = await openCore();
    let apiUrl: string | null = null;
    const built = createApp(core, {
      sync: { demoPlatform: async () => demo },
      host: { demoPlatform: () => demo, apiBaseUrl: () => apiUrl, runsBackgroundWork: false },
      renderReportsInWorker: false,
    });
    app = built;
    app.start();
    const workspace = await createWorkspace(core.sql, { name: 'Parity Agency', plan: 'agency' });
    const owner = await createUser(core.sql, {
      workspaceId: workspace.id,
      email: 'owner@parity.test',
      role: 'owner',
    });
    const ctx = await app.use.identity.contextForUser(owner.id);
    const dashboard = createDashboard(app, { rendererDir: join(dataDir, 'no-renderer') });
    api = await createApiServer(app, {
      port: 0,
      fallback: dashboard,
      ...(rateLimits ? { rateLimits } : {}),
    });
    apiUrl = api.url;
    const server = api;

    // Connectable demo accounts, chosen so that their "today"s differ (east and west of UTC).
    const candidates = (await app.use.accounts.demoCandidates(ctx)).filter((c) => c.canConnect);
    const accounts: AccountView[] = [];
    const days = new Set<string>();
    for (const candidate of candidates) {
      if (accounts.length >= accountCount) break;
      const account = await built.use.accounts.connect(ctx, {
        platformAccountId: candidate.platformAccountId,
      });
      const day = dateInZone(clock.now(), account.timezone);
      if (days.has(day) && accounts.length === 1) continue; // connected, listed, not synced
      days.add(day);
      accounts.push(account);
    }
    for (const account of accounts) {
      const outcome = await app.sync.syncAccount(account.id, { kind: 'full' });
      if (outcome.status !== 'completed') throw new Error(`sync of ${account.id} ended ${outcome.status}`);
    }

    const key = (
      await createApiKey(core.sql, clock, {
        workspaceId: workspace.id,
        mode: 'test',
        limitOverrides: { reads: 100_000, writes: 100_000, diagnostics: 100_000, reports: 100_000 },
      })
    ).key;
    const dispatch = createHandlerDispatch({ app, host: { kind: 'desktop' } });

    // The analyst signs in on the web dashboard through an invitation, as a browser would.
    const { token } = await createInvitation(core.sql, clock, {
      workspaceId: workspace.id,
      email: 'analyst@parity.test',
      baseUrl: server.url,
    });
    const accepted = await fetch(`${server.url}/auth/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password: 'a long enough password', name: 'Ana' }),
    });
    const cookie = String(accepted.headers.get('set-cookie')).split(';')[0] as string;
    const csrf = String(((await accepted.json()) as { value: { csrfToken: string } }).value.csrfToken);

    const unwrap = <T>(result: {
      ok: boolean;
      value?: unknown;
      error?: { type: string; message: string };
    }): T => {
      if (!result.ok) throw new Error(`${result.error?.type}: ${result.error?.message}`);
      return result.value as T;
    };
    const openPlatform = platform;
    const openApp = app;
    const store = team ? ['--database-url', team.databaseUrl] : ['--data-dir', dataDir];
    return {
      app,
      engine,
      dataDir,
      workspaceId: workspace.id,
      ctx,
      accounts,
      async v1(path, init = {}) {
        const res = await fetch(`${server.url}${path}`, {
          method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
          headers: {
            'x-api-key': key,
            ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        });
        return { status: res.status, body: (await res.json()) as V1Body };
      },
      async ipc<T>(name: string, args: unknown = {}) {
        return unwrap<T>(await dispatch(ctx, name, args));
      },
      async cli<T>(module: string, argv: string[]) {
        const { COMMAND_MODULES } = await import('../cli/index');
        const load = COMMAND_MODULES[module];
        if (!load) throw new Error(`no CLI module ${module}`);
        let stdout = '';
        let stderr = '';
        process.env.ADLENS_NOW = clock.now().toISOString();
        if (team) process.env.ADLENS_SECRET_KEY_FILE = team.env.ADLENS_SECRET_KEY_FILE;
        const code = await runCommand(module, (await load()).default, [...argv, ...store, '--json'], {
          stdout: (text) => (stdout += text),
          stderr: (text) => (stderr += text),
        });
        delete process.env.ADLENS_NOW;
        delete process.env.ADLENS_SECRET_KEY_FILE;
        if (code !== 0) throw new Error(`cli ${module} ${argv.join(' ')} exited ${code}: ${stderr}`);
        return JSON.parse(stdout) as T;
      },
      async bridge<T>(name: string, args: unknown = {}) {
        const res = await fetch(`${server.url}/bridge/${name}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf, origin: server.url },
          body: JSON.stringify(args),
        });
        return unwrap<T>((await res.json()) as { ok: boolean; value?: unknown });
      },
      async close() {
        dashboard.close();
        await server.close();
        await openApp.stop();
        await openPlatform.close();
        await team?.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await api?.close();
    await app?.stop();
    await platform?.close();
    await team?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
