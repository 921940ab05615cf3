// The handler tests' common ground: the real App on a temp data directory, a user's context, the
// dispatcher, and `ok(name, args)` that unwraps a result or fails the test with its error.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App } from '../core/app';
import type { Clock } from '../core/clock';
import { createCore } from '../core/core';
import { startDemoPlatform, type DemoPlatform } from '../core/demo-platform';
import { createUser } from '../core/identity/users';
import { createWorkspace } from '../core/identity/workspaces';
import { seedReportFixture, type ReportFixture } from './reports-fixtures';
import type { HandlerContext } from '../core/handlers/context';
import type { Dispatch } from '../core/handlers/dispatch';
import { createHandlerDispatch } from '../core/handlers/index';

export interface HandlerWorld {
  app: App;
  ctx: HandlerContext;
  dispatch: Dispatch;
  /** The result as the caller gets it (for the failure paths). */
  call(name: string, args: unknown): ReturnType<Dispatch>;
  ok<T>(name: string, args: unknown): Promise<T>;
  close(): Promise<void>;
}

async function world(
  prefix: string,
  build: (dir: string) => Promise<{ app: App; userId: string }>,
  onClose: () => Promise<void> = async () => {},
): Promise<HandlerWorld> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const { app, userId } = await build(dir);
  const ctx = await app.use.identity.contextForUser(userId);
  const dispatch = createHandlerDispatch({
    app,
    host: { kind: 'desktop' },
  });
  return {
    app,
    ctx,
    dispatch,
    call: (name, args) => dispatch(ctx, name, args),
    async ok<T>(name: string, args: unknown): Promise<T> {
      const result = await dispatch(ctx, name, args);
      if (!result.ok) throw new Error(`${name}: ${result.error.type} ${result.error.message}`);
      return result.value as T;
    },
    async close() {
      await app.stop();
      await onClose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** An agency workspace and its owner, nothing connected, beside a running demo platform of `seed`. */
export async function demoHandlerWorld(
  prefix: string,
  seed: number,
): Promise<HandlerWorld & { platform: DemoPlatform }> {
  const platform = await startDemoPlatform({ port: 0, seed });
  const demo = { url: platform.url, apiVersion: platform.apiVersion };
  const w = await world(
    prefix,
    async (dir) => {
      const core = createCore({ dataDir: dir });
      const app = createApp(core, {
        sync: { demoPlatform: async () => demo },
        host: {
          demoPlatform: () => demo,
          apiBaseUrl: () => 'http://127.0.0.1:4477',
          runsBackgroundWork: true,
        },
        renderReportsInWorker: false,
      });
      app.start();
      const ws = await createWorkspace(core.sql, { name: 'Agency', plan: 'agency' });
      const owner = await createUser(core.sql, {
        workspaceId: ws.id,
        email: 'owner@agency.test',
        role: 'owner',
      });
      return { app, userId: owner.id };
    },
    () => platform.close(),
  );
  return { ...w, platform };
}

/** A store seeded with the reports fixture (an account, `campaigns` campaigns, another workspace). */
export async function seededHandlerWorld(
  prefix: string,
  opts: { campaigns: number; clock: Clock },
): Promise<HandlerWorld & { fixture: ReportFixture }> {
  let fixture: ReportFixture | undefined;
  const w = await world(prefix, async (dir) => {
    const core = createCore({ dataDir: dir, clock: opts.clock });
    fixture = seedReportFixture(core.db, { campaigns: opts.campaigns });
    return {
      app: createApp(core, {
        renderReportsInWorker: false,
        host: { apiBaseUrl: () => 'http://127.0.0.1:4477', runsBackgroundWork: true },
      }),
      userId: fixture.userId,
    };
  });
  return { ...w, fixture: fixture as ReportFixture };
}
