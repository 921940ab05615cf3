// A /v1 server with the web dashboard mounted, over a fresh store (no demo data): for tests of
// sign-in, sessions, streams and the HTTP edge. Real HTTP on loopback, the real App.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiServer, type ApiServer } from '../core/api/server';
import { createApp, type App } from '../core/app';
import { createCore } from '../core/core';
import { createDashboard } from '../core/dashboard/index';
import { hashPassword } from '../core/dashboard/passwords';
import { createUser, type User } from '../core/identity/users';
import { createWorkspace } from '../core/identity/workspaces';

export interface DashboardServer {
  app: App;
  api: ApiServer;
  url: string;
  workspaceId: string;
  owner: User;
  /** Adds a member who can sign in with this password. */
  member(email: string, password: string): Promise<User>;
  /** fetch against the server with the dashboard's own Origin (as its pages send). */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  signIn(email: string, password: string): Promise<{ cookie: string; csrf: string }>;
  close(): Promise<void>;
}

export async function dashboardServer(): Promise<DashboardServer> {
  const dir = mkdtempSync(join(tmpdir(), 'adlens-dashboard-server-'));
  const rendererDir = join(dir, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>AdLens</title>');
  const app = createApp(createCore({ dataDir: join(dir, 'data') }), { renderReportsInWorker: false });
  const { db, sql } = app.core;
  const workspace = await createWorkspace(sql, { name: 'Agency', plan: 'agency' });
  const owner = await createUser(sql, {
    workspaceId: workspace.id,
    email: 'owner@agency.test',
    role: 'owner',
  });
  const dashboard = createDashboard(app, { rendererDir });
  const api = await createApiServer(app, { port: 0, fallback: dashboard });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${api.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: api.url, ...headers },
      body: JSON.stringify(body),
    });
  return {
    app,
    api,
    url: api.url,
    workspaceId: workspace.id,
    owner,
    async member(email, password) {
      const user = await createUser(sql, { workspaceId: workspace.id, email, role: 'member' });
      db.prepare(`UPDATE users SET password_hash = ? WHERE id = ?`).run(
        await hashPassword(password),
        user.id,
      );
      return user;
    },
    post,
    async signIn(email, password) {
      const res = await post('/auth/sign-in', { email, password });
      if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
      const cookie = String(res.headers.get('set-cookie')).split(';')[0] as string;
      const csrf = ((await res.json()) as { value: { csrfToken: string } }).value.csrfToken;
      return { cookie, csrf };
    },
    async close() {
      dashboard.close();
      await api.close();
      await app.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Opens an event stream and resolves with the time it stayed open once the server ends it. */
export async function openStream(
  url: string,
  headers: Record<string, string>,
): Promise<{ ended: Promise<number>; abort(): void }> {
  const controller = new AbortController();
  const res = await fetch(url, { headers, signal: controller.signal });
  if (res.status !== 200 || !res.body) throw new Error(`stream answered ${res.status}`);
  const reader = res.body.getReader();
  const ended = (async () => {
    try {
      for (;;) {
        const { done } = await reader.read();
        if (done) return Date.now();
      }
    } catch {
      return Date.now();
    }
  })();
  return { ended, abort: () => controller.abort() };
}
