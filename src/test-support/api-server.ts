// Starts the /v1 server for tests on an ephemeral port, over a temp store and a movable clock.
import { createApiServer, type ApiServer, type ApiServerOptions } from '../core/api/server';
import { TestClock } from './api-fixtures';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PgRateLimiter } from '../core/api/rate-limit-pg';
import { createApp, type App, type AppOptions } from '../core/app';
import type { Clock } from '../core/clock';
import { createCore, type Core } from '../core/core';
import { copyInstall } from '../core/store/copy/index';
import type { Db } from '../core/store/open';
import { connectPg } from '../core/store/pg/connect';
import { pgSql } from '../core/store/pg/sql';
import { openTeamCore } from '../core/team-core';
import { seedScenario, type Scenario } from './api-scenario';
import type { Engine } from './engines';
import { responseChecker } from './openapi-check';
import { startTeamDatabase, type TeamDatabase } from './postgres';

export interface TestApi {
  core: Core;
  app: App;
  api: ApiServer;
  url: string;
  clock: TestClock;
  engine: Engine;
  /** Runs a statement on a connection of its own (another process's write, as far as caches can tell). */
  runElsewhere(text: string, params: unknown[]): Promise<void>;
  close(): Promise<void>;
}

export interface TestApiOptions<T> {
  now?: string;
  sync?: AppOptions['sync'];
  server?: Omit<ApiServerOptions, 'port'>;
  /**
   * 'postgres': the server runs as a team server process does, on a real PostgreSQL (the team core,
   * its jobs on leases, rate limits in the database). Default 'sqlite'.
   */
  engine?: Engine;
  /** Seeds the store before the server starts (fixtures write SQLite; PostgreSQL gets a `store copy` of it). */
  seed?: (db: Db, clock: Clock) => T | Promise<T>;
}

export async function startTestApi<T = undefined>(
  opts: TestApiOptions<T> = {},
): Promise<TestApi & { seeded: T }> {
  const clock = new TestClock(Date.parse(opts.now ?? '2026-03-10T12:00:00.000Z'));
  const dataDir = mkdtempSync(join(tmpdir(), 'adlens-api-'));
  const engine = opts.engine ?? 'sqlite';
  let team: TeamDatabase | undefined;
  let core: Core;
  let seeded = undefined as T;
  let rateLimits: ApiServerOptions['rateLimits'];
  try {
    core = createCore({ dataDir, clock });
    if (opts.seed) seeded = await opts.seed(core.db, clock);
    if (engine === 'postgres') {
      core.close();
      team = await startTeamDatabase(dataDir);
      const { databaseUrl, env } = team;
      const copied = await copyInstall({ fromDataDir: dataDir, toDatabaseUrl: databaseUrl }, { env });
      if (!copied.match) throw new Error('the seeded store did not copy whole to PostgreSQL');
      const teamCore = await openTeamCore({ databaseUrl, clock, env });
      rateLimits = new PgRateLimiter(teamCore.pool, clock);
      core = teamCore;
    }
  } catch (error) {
    await team?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const app = createApp(core, {
    renderReportsInWorker: false,
    host: { runsBackgroundWork: true },
    ...(opts.sync ? { sync: opts.sync } : {}),
  });
  app.start();
  const api = await createApiServer(app, { port: 0, ...(rateLimits ? { rateLimits } : {}), ...opts.server });
  return {
    core,
    app,
    api,
    url: api.url,
    clock,
    engine,
    seeded,
    runElsewhere: async (text, params) => {
      if (team) {
        const pool = connectPg(team.databaseUrl, { max: 1 });
        try {
          await pgSql(pool).run(text, params as never);
        } finally {
          await pool.end();
        }
        return;
      }
      const other = new Database(core.store.path);
      try {
        other.prepare(text).run(...params);
      } finally {
        other.close();
      }
    },
    close: async () => {
      await api.close();
      await app.stop();
      await team?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** fetch with the key and JSON body handled; returns status, headers and parsed body. */
export async function call(
  url: string,
  path: string,
  opts: { key?: string; method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: unknown; text: string }> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key !== undefined) headers['x-api-key'] = opts.key;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${url}${path}`, { method: opts.method ?? (body ? 'POST' : 'GET'), headers, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON (a file download or an event stream): the text is there.
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

export type ResponseCheck = ReturnType<typeof responseChecker>;

/**
 * The API tests' shared world: the seeded scenario served on `engine`, and a checker of responses
 * against the OpenAPI document the server itself serves.
 */
export async function startScenarioApi(
  engine: Engine,
): Promise<{ t: TestApi; s: Scenario; check: ResponseCheck }> {
  const t = await startTestApi({ engine, seed: seedScenario });
  const doc = await call(t.url, '/v1/openapi.json');
  return { t, s: t.seeded, check: responseChecker(doc.body as Parameters<typeof responseChecker>[0]) };
}
