// The HTTP edge under bad input (issue 12): malformed percent-encoding in a cookie or a path, URLs
// far over the limit, and text that is not valid Unicode all get the spec's error envelope, never a
// 500, a bare status line or a reset connection.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../identity/api-keys';
import { dashboardServer, type DashboardServer } from '../../test-support/dashboard-server';

let s: DashboardServer;
let key: string;

beforeAll(async () => {
  s = await dashboardServer();
  key = (await createApiKey(s.app.core.sql, s.app.core.clock, { workspaceId: s.workspaceId, mode: 'test' }))
    .key;
});
afterAll(async () => {
  await s.close();
});

/** A raw request (fetch would refuse some of these), resolving with status, headers and body. */
function raw(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: s.api.port, path, headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

const envelope = (body: string) => JSON.parse(body) as { error: { type: string; message: string } };

describe('percent-encoding', () => {
  it('ignores a malformed session cookie set by another local site: the pages still load', async () => {
    const page = await raw('/', { cookie: 'adlens_session=%E0%A4%A', host: `127.0.0.1:${s.api.port}` });
    expect(page.status).toBe(200);
    const session = await raw('/auth/session', {
      cookie: 'adlens_session=%E0%A4%A',
      host: `127.0.0.1:${s.api.port}`,
    });
    expect(session.status).toBe(401);
    expect(envelope(session.body).error.type).toBe('authentication_error');
  });

  it('answers a malformed path with 404 and the envelope, on the dashboard and on /v1', async () => {
    for (const path of ['/%E0%A4%A', '/assets/%E0%A4%A.js', '/v1/campaigns/%E0%A4%A']) {
      const res = await raw(path, { host: `127.0.0.1:${s.api.port}`, 'x-api-key': key });
      expect(res.status, path).toBeLessThan(500);
      expect(envelope(res.body).error.type, path).toMatch(/^(not_found|invalid_request)$/);
    }
  });
});

describe('long URLs', () => {
  it('reads a 16 KB URL (760 campaign IDs) and answers with the envelope', async () => {
    const ids = Array.from({ length: 760 }, (_, i) => `camp_${String(i).padStart(16, 'A')}`).join(',');
    const res = await raw(`/v1/insights/summary?campaign_ids=${ids}`, { 'x-api-key': key });
    expect(res.status).toBe(400);
    expect(envelope(res.body).error).toMatchObject({ type: 'invalid_request', message: /at most 100/ });
  });

  it('answers a 220 KB URL with 431 and the envelope instead of resetting the connection', async () => {
    const res = await raw(`/v1/campaigns?x=${'a'.repeat(220_000)}`, { 'x-api-key': key });
    expect(res.status).toBe(431);
    expect(envelope(res.body).error).toMatchObject({ type: 'invalid_request', message: /64 KB/ });
  });
});

describe('text that is not valid Unicode', () => {
  it('refuses a lone surrogate in a JSON body with 400 naming the field', async () => {
    const res = await fetch(`${s.url}/v1/reports`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({
        account_id: 'act_1',
        title: 'x\ud800y',
        date_start: '2026-03-01',
        date_end: '2026-03-02',
      }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /^body\.title .*surrogate/,
    );
  });

  it('refuses it over the handler map too (IPC and the web bridge)', async () => {
    await s.member('ana@agency.test', 'a long enough password');
    const { cookie, csrf } = await s.signIn('ana@agency.test', 'a long enough password');
    const res = await s.post(
      '/bridge/keys.create',
      { name: 'x\udc00', mode: 'test' },
      { cookie, 'x-csrf-token': csrf },
    );
    expect(await res.json()).toMatchObject({
      ok: false,
      error: { type: 'invalid_request', message: /name .*surrogate/ },
    });
  });
});
