// Starts the /v1 server for tests on an ephemeral port, over a temp store and a movable clock.
import { createApiServer, type ApiServer, type ApiServerOptions } from '../core/api/server';
import { TestClock } from './api-fixtures';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App, type AppOptions } from '../core/app';
import { createCore, type Core } from '../core/core';

export interface TestApi {
  core: Core;
  app: App;
  api: ApiServer;
  url: string;
  clock: TestClock;
  close(): Promise<void>;
}

export async function startTestApi(
  opts: { now?: string; sync?: AppOptions['sync']; server?: Omit<ApiServerOptions, 'port'> } = {},
): Promise<TestApi> {
  const clock = new TestClock(Date.parse(opts.now ?? '2026-03-10T12:00:00.000Z'));
  const dataDir = mkdtempSync(join(tmpdir(), 'adlens-api-'));
  const core = createCore({ dataDir, clock });
  const app = createApp(core, {
    renderReportsInWorker: false,
    host: { runsBackgroundWork: true },
    ...(opts.sync ? { sync: opts.sync } : {}),
  });
  app.start();
  const api = await createApiServer(app, { port: 0, ...opts.server });
  return {
    core,
    app,
    api,
    url: api.url,
    clock,
    close: async () => {
      await api.close();
      await app.stop();
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
