// The dashboard over real HTTP: invitation, sign-in, lock-out, CSRF, Host check, sign-out, bridge.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '../api/server';
import { createCore, type Core } from '../core';
import { createApp, type App } from '../app';
import { createInvitation } from '../identity/invitations';
import { createUser } from '../identity/users';
import { createWorkspace } from '../identity/workspaces';
import { createDashboard, type DashboardHandler } from './index';
import { LOCKOUT_FAILURES } from '../identity/sessions';

let dir: string;
let core: Core;
let server: ApiServer;
let dashboard: DashboardHandler;
let now = Date.parse('2026-03-20T10:00:00Z');
let services: App;
let workspaceId: string;

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: () => { ok: boolean; value?: Record<string, unknown>; error?: { type: string; message: string } };
}

function call(
  method: string,
  path: string,
  opts: {
    body?: unknown;
    cookie?: string;
    csrf?: string;
    host?: string;
    origin?: string;
    type?: string;
  } = {},
): Promise<Reply> {
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        method,
        path,
        headers: {
          host: opts.host ?? `127.0.0.1:${server.port}`,
          ...(payload ? { 'content-type': opts.type ?? 'application/json' } : {}),
          ...(opts.cookie ? { cookie: opts.cookie } : {}),
          ...(opts.csrf ? { 'x-csrf-token': opts.csrf } : {}),
          ...(opts.origin ? { origin: opts.origin } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text,
            json: () => JSON.parse(text),
          }),
        );
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

const cookieOf = (reply: Reply): string =>
  String((reply.headers['set-cookie'] as string[])[0]).split(';')[0] as string;

async function acceptInvite(email = 'ana@agency.test', password = 'a long enough password') {
  const { token } = await createInvitation(core.sql, core.clock, { workspaceId, email, baseUrl: server.url });
  const reply = await call('POST', '/auth/accept', { body: { token, password, name: 'Ana' } });
  return { reply, token, cookie: cookieOf(reply), csrf: String(reply.json().value?.csrfToken) };
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'adlens-dashboard-'));
  const rendererDir = join(dir, 'renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>AdLens</title>');
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  core = createCore({ dataDir: join(dir, 'data'), clock: { now: () => new Date(now) } });
  const ws = await createWorkspace(core.sql, { name: 'Agency', plan: 'agency' });
  workspaceId = ws.id;
  await createUser(core.sql, { workspaceId, email: 'owner@agency.test', role: 'owner' });
  services = createApp(core, { renderReportsInWorker: false });
  const app = services;
  dashboard = createDashboard(app, { rendererDir });
  server = await createApiServer(app, { port: 0, fallback: dashboard });
});

afterEach(async () => {
  dashboard.close();
  await server.close();
  await services.sync.stop();
  await services.diagnostics.stop();
  await services.reports.stop();
  core.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('dashboard sign-in', () => {
  it('serves the renderer with a strict CSP and sends invitation links into the app', async () => {
    const index = await call('GET', '/');
    expect(index.status).toBe(200);
    expect(index.headers['content-security-policy']).toContain("script-src 'self'");
    expect(index.headers['x-frame-options']).toBe('DENY');
    expect((await call('GET', '/assets/app.js')).headers['cache-control']).toContain('immutable');
    expect((await call('GET', '/assets/../../data/adlens.sqlite')).status).toBe(404);
    const invite = await call('GET', '/invite/abcdefghijklmnopqrstuvwxyz');
    expect(invite.status).toBe(302);
    expect(invite.headers.location).toBe('/#/invite/abcdefghijklmnopqrstuvwxyz');
  });

  it('accepts an invitation once, with an HttpOnly SameSite=Strict session', async () => {
    const { reply, token, cookie } = await acceptInvite();
    expect(reply.status).toBe(200);
    expect(String(reply.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict; Path=\//);
    expect(reply.json().value).toMatchObject({
      user: { email: 'ana@agency.test', name: 'Ana' },
      workspace: { id: workspaceId },
    });
    const stored = core.db
      .prepare(`SELECT password_hash FROM users WHERE email = ?`)
      .get('ana@agency.test') as { password_hash: string };
    expect(stored.password_hash).toMatch(/^scrypt\$/);
    expect(stored.password_hash).not.toContain('a long enough password');
    expect(core.db.prepare(`SELECT token_hash FROM dashboard_sessions`).pluck().get()).not.toBe(
      cookie.split('=')[1],
    );
    const again = await call('POST', '/auth/accept', { body: { token, password: 'another long password' } });
    expect(again.status).toBe(404);
    expect((await call('GET', '/auth/session', { cookie })).json().ok).toBe(true);
  });

  it('refuses short passwords, unknown links and sign-up attempts', async () => {
    const { token } = await createInvitation(core.sql, core.clock, { workspaceId, email: 'b@agency.test' });
    expect(
      (await call('POST', '/auth/accept', { body: { token, password: 'short' } })).json().error?.message,
    ).toContain('at least 10');
    expect(
      (
        await call('POST', '/auth/accept', {
          body: { token: 'x'.repeat(40), password: 'long enough password' },
        })
      ).status,
    ).toBe(404);
    expect(
      (await call('POST', '/auth/sign-up', { body: { email: 'c@x.test', password: 'long enough password' } }))
        .status,
    ).toBe(404);
  });

  it('signs in with the password and out again', async () => {
    await acceptInvite();
    const wrong = await call('POST', '/auth/sign-in', {
      body: { email: 'ana@agency.test', password: 'not the password' },
    });
    expect(wrong.status).toBe(401);
    const unknown = await call('POST', '/auth/sign-in', {
      body: { email: 'nobody@agency.test', password: 'not the password' },
    });
    expect(unknown.json().error?.message).toBe(wrong.json().error?.message);
    const ok = await call('POST', '/auth/sign-in', {
      body: { email: 'ANA@agency.test', password: 'a long enough password' },
    });
    expect(ok.status).toBe(200);
    const cookie = cookieOf(ok);
    const csrf = String(ok.json().value?.csrfToken);
    expect((await call('POST', '/auth/sign-out', { cookie })).status).toBe(403);
    expect((await call('POST', '/auth/sign-out', { cookie, csrf })).status).toBe(204);
    expect((await call('GET', '/auth/session', { cookie })).status).toBe(401);
    expect((await call('POST', '/bridge/accounts.list', { cookie, csrf, body: {} })).status).toBe(401);
  });

  it(`locks an email out after ${LOCKOUT_FAILURES} failures in 15 minutes, then lets it back`, async () => {
    await acceptInvite();
    for (let i = 0; i < LOCKOUT_FAILURES; i += 1) {
      expect(
        (
          await call('POST', '/auth/sign-in', {
            body: { email: 'ana@agency.test', password: `guess number ${i}` },
          })
        ).status,
      ).toBe(401);
    }
    const locked = await call('POST', '/auth/sign-in', {
      body: { email: 'ana@agency.test', password: 'a long enough password' },
    });
    expect(locked.status).toBe(429);
    expect(locked.json().error).toMatchObject({ type: 'rate_limit_error' });
    expect(locked.json().error?.message).toMatch(/Try again in 15 minutes/);
    now += 15 * 60_000 + 1000;
    expect(
      (
        await call('POST', '/auth/sign-in', {
          body: { email: 'ana@agency.test', password: 'a long enough password' },
        })
      ).status,
    ).toBe(200);
  });
});

describe('dashboard protections', () => {
  it('refuses foreign Host headers (DNS rebinding) and cross-origin posts', async () => {
    expect((await call('GET', '/', { host: 'evil.example:80' })).status).toBe(421);
    expect((await call('GET', '/auth/session', { host: `attacker.test:${server.port}` })).status).toBe(421);
    expect((await call('GET', '/', { host: `localhost:${server.port}` })).status).toBe(200);
    const cross = await call('POST', '/auth/sign-in', {
      body: { email: 'a@b.c', password: 'x' },
      origin: 'http://evil.example',
    });
    expect(cross.status).toBe(403);
    const form = await call('POST', '/auth/sign-in', {
      body: { email: 'a@b.c', password: 'x' },
      type: 'text/plain',
    });
    expect(form.status).toBe(400);
  });

  it('requires the session and its CSRF token on bridge calls, then serves the handler map', async () => {
    const { cookie, csrf } = await acceptInvite();
    expect((await call('POST', '/bridge/settings.get', { body: {} })).status).toBe(401);
    expect((await call('POST', '/bridge/settings.get', { cookie, body: {} })).status).toBe(403);
    expect((await call('POST', '/bridge/settings.get', { cookie, csrf: 'wrong', body: {} })).status).toBe(
      403,
    );
    const settings = await call('POST', '/bridge/settings.get', { cookie, csrf, body: {} });
    expect(settings.json()).toMatchObject({
      ok: true,
      value: { host: 'web', workspace: { id: workspaceId, plan: 'agency' } },
    });
    const invalid = await call('POST', '/bridge/accounts.sync', {
      cookie,
      csrf,
      body: { accountId: 'nope' },
    });
    expect(invalid.json()).toMatchObject({ ok: false, error: { type: 'invalid_request' } });
    expect((await call('POST', '/bridge/accounts.list', { cookie, csrf, body: {} })).json()).toEqual({
      ok: true,
      value: [],
    });
  });
});
