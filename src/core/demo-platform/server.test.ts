import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDemoPlatform, type DemoPlatform } from './index';
import { allPages, errorOf, graphGet, graphUrl, type Row } from '../../test-support/demo-platform-util';

const today = '2026-11-22';
let p: DemoPlatform;
let large: string;

beforeAll(async () => {
  p = await startDemoPlatform({ seed: 1, today });
  const accounts = await graphGet(p, '/me/adaccounts', { fields: 'id' });
  large = ((accounts.body.data as Row[])[0] as { id: string }).id;
});
afterAll(() => p.close());
beforeEach(() => p.controls.reset());

describe('accounts and objects', () => {
  it('lists ad accounts with user_tasks, status, business, currency and timezone', async () => {
    const reply = await graphGet(p, '/me/adaccounts', {
      fields: 'id,account_id,name,user_tasks,account_status,business{id,name},currency,timezone_name',
    });
    expect(reply.status).toBe(200);
    const data = reply.body.data as Array<{
      id: string;
      account_id: string;
      user_tasks: string[];
      account_status: number;
      business: { id: string; name: string };
      currency: string;
      timezone_name: string;
    }>;
    expect(data.length).toBeGreaterThanOrEqual(4);
    for (const a of data) {
      expect(a.id).toBe(`act_${a.account_id}`);
      expect(Object.keys(a.business).sort()).toEqual(['id', 'name']);
    }
    expect(data.some((a) => a.user_tasks.length === 1 && a.user_tasks[0] === 'ANALYZE')).toBe(true);
    expect(data.some((a) => a.account_status === 2)).toBe(true);
    expect(data.map((a) => a.currency)).toEqual(expect.arrayContaining(['USD', 'EUR', 'GBP', 'JPY']));
  });

  it('pages campaigns with cursors until next is absent, and previous goes back', async () => {
    const first = await graphGet(p, `/${large}/campaigns`, { fields: 'id,name', limit: '40' });
    const paging = first.body.paging as {
      cursors: { before: string; after: string };
      next?: string;
      previous?: string;
    };
    expect(paging.previous).toBeUndefined();
    expect(paging.next).toContain('access_token=demo-token');
    expect(paging.next).toContain('fields=id%2Cname');
    const all = await allPages(p, `/${large}/campaigns`, { fields: 'id', limit: '40' });
    const visible = await graphGet(p, `/${large}/campaigns`, { fields: 'id', limit: '5000' });
    expect(all.map((r) => r.id)).toEqual((visible.body.data as Row[]).map((r) => r.id));
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
    const second = await graphUrl(paging.next as string);
    const back = await graphUrl((second.body.paging as { previous: string }).previous);
    expect(back.body.data).toEqual(first.body.data);
  });

  it('hides ARCHIVED and DELETED unless effective_status asks for them', async () => {
    const visible = await allPages(p, `/${large}/campaigns`, { fields: 'effective_status', limit: '500' });
    expect(visible.every((c) => c.effective_status !== 'ARCHIVED' && c.effective_status !== 'DELETED')).toBe(
      true,
    );
    expect(visible.some((c) => c.effective_status === 'PAUSED')).toBe(true);
    const removed = await allPages(p, `/${large}/campaigns`, {
      fields: 'effective_status',
      effective_status: '["ARCHIVED","DELETED"]',
      limit: '500',
    });
    expect(removed.length).toBeGreaterThan(0);
    expect(removed.every((c) => c.effective_status === 'ARCHIVED' || c.effective_status === 'DELETED')).toBe(
      true,
    );
    const viaFiltering = await allPages(p, `/${large}/campaigns`, {
      fields: 'id',
      filtering: JSON.stringify([{ field: 'effective_status', operator: 'IN', value: ['ARCHIVED'] }]),
    });
    expect(viaFiltering.length).toBeGreaterThan(0);
    expect(viaFiltering.length).toBeLessThan(removed.length + 1);
  });

  it('returns only the requested fields (plus id) in Graph formats', async () => {
    const reply = await graphGet(p, `/${large}/adsets`, {
      fields: 'name,daily_budget,targeting,learning_stage_info,updated_time',
      limit: '200',
    });
    const rows = reply.body.data as Row[];
    for (const r of rows) {
      expect(
        Object.keys(r).every((k) =>
          ['id', 'name', 'daily_budget', 'targeting', 'learning_stage_info', 'updated_time'].includes(k),
        ),
      ).toBe(true);
      expect(r.updated_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4}$/);
      if (r.daily_budget !== undefined) expect(r.daily_budget).toMatch(/^\d+$/);
    }
    const learning = rows
      .map(
        (r) =>
          r.learning_stage_info as
            { status: string; conversions: number; last_sig_edit_ts: number } | undefined,
      )
      .filter(Boolean);
    expect(learning.length).toBeGreaterThan(0);
    const onlyIds = await graphGet(p, `/${large}/ads`, { limit: '3' });
    expect((onlyIds.body.data as Row[]).map((r) => Object.keys(r))).toEqual([['id'], ['id'], ['id']]);
  });

  it('reads single nodes and nested edges', async () => {
    const campaigns = await graphGet(p, `/${large}/campaigns`, { fields: 'id', limit: '1' });
    const id = ((campaigns.body.data as Row[])[0] as { id: string }).id;
    const node = await graphGet(p, `/${id}`, { fields: 'name,objective,account_id' });
    expect(node.body.id).toBe(id);
    const adSets = await graphGet(p, `/${id}/adsets`, { fields: 'campaign_id' });
    expect((adSets.body.data as Row[]).every((r) => r.campaign_id === id)).toBe(true);
  });

  it('filters by updated_since for incremental sync', async () => {
    const all = await allPages(p, `/${large}/ads`, { fields: 'updated_time', limit: '2000' });
    const cutoff = Math.floor(Date.parse('2026-11-19T00:00:00Z') / 1000);
    const recent = await allPages(p, `/${large}/ads`, {
      fields: 'updated_time',
      limit: '2000',
      updated_since: String(cutoff),
    });
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.length).toBeLessThan(all.length / 4);
    for (const r of recent)
      expect(
        Date.parse(String(r.updated_time).replace(/([+-]\d{2})(\d{2})$/, '$1:$2')) / 1000,
      ).toBeGreaterThanOrEqual(cutoff);
  });
});

describe('errors and controls', () => {
  it('rejects unknown tokens with 190/467 and missing ones with 104', async () => {
    const bad = await graphGet(p, '/me/adaccounts', {}, 'EAAnot-ours');
    expect(bad.status).toBe(400);
    expect(errorOf(bad)).toMatchObject({ code: 190, error_subcode: 467, type: 'OAuthException' });
    expect(errorOf(await graphGet(p, '/me', {}, ''))).toMatchObject({ code: 104 });
  });

  it('expires tokens on demand: 190/463', async () => {
    p.controls.expireToken('demo-token');
    const reply = await graphGet(p, '/me/adaccounts');
    expect(errorOf(reply)).toMatchObject({ code: 190, error_subcode: 463 });
    p.controls.reset();
    expect((await graphGet(p, '/me/adaccounts')).status).toBe(200);
  });

  it('answers unknown accounts with code 100', async () => {
    const reply = await graphGet(p, '/act_999/campaigns');
    expect(reply.status).toBe(400);
    expect(errorOf(reply)).toMatchObject({ code: 100, error_subcode: 33 });
  });

  it.each([17, 80000, 4, 613] as const)(
    'throttles with code %i and a usage header to wait on',
    async (code) => {
      p.controls.throttleNext(1, code, { regainMinutes: 2 });
      const reply = await graphGet(p, `/${large}/insights`, { fields: 'spend' });
      expect(reply.status).toBe(400);
      expect(errorOf(reply)).toMatchObject({ code, is_transient: true });
      const usage = JSON.parse(reply.headers.get('x-business-use-case-usage') ?? '{}') as Record<
        string,
        Array<{ call_count: number; estimated_time_to_regain_access: number }>
      >;
      const entries = usage[large.slice(4)] ?? [];
      expect(entries[0]).toMatchObject({ call_count: 100, estimated_time_to_regain_access: 2 });
      expect((await graphGet(p, `/${large}/insights`, { fields: 'spend' })).status).toBe(200);
    },
  );

  it('fails with HTTP 500: code 1 (reduce the data) and code 2 (transient)', async () => {
    p.controls.failNext(1, 1);
    const reduce = await graphGet(p, `/${large}/campaigns`);
    expect(reduce.status).toBe(500);
    expect(errorOf(reduce).message).toContain('reduce the amount of data');
    p.controls.failNext(2);
    expect(errorOf(await graphGet(p, '/me'))).toMatchObject({ code: 2 });
    expect((await graphGet(p, '/me')).status).toBe(500);
    expect((await graphGet(p, '/me')).status).toBe(200);
  });

  it('reports usage on account calls, rising with calls, and counts requests', async () => {
    const before = p.controls.requestCount();
    for (let i = 0; i < 21; i++) await graphGet(p, `/${large}/campaigns`, { limit: '1' });
    const reply = await graphGet(p, `/${large}/campaigns`, { limit: '1' });
    const usage = JSON.parse(reply.headers.get('x-business-use-case-usage') ?? '{}') as Record<
      string,
      Array<{ type: string; call_count: number }>
    >;
    expect(usage[large.slice(4)]?.find((u) => u.type === 'ads_management')?.call_count).toBeGreaterThan(0);
    expect(reply.headers.get('x-app-usage')).toBeTruthy();
    expect(p.controls.requestCount() - before).toBe(22);
    expect(p.controls.requestLog().at(-1)).toBe(`GET /v25.0/${large}/campaigns?limit=1`);
  });

  it('delays responses when latency is set', async () => {
    p.controls.setLatency(120);
    const started = performance.now();
    await graphGet(p, '/me');
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });
});

describe('oauth', () => {
  it('exchanges a code, then a long-lived token, and debug_token describes them', async () => {
    const code = await graphGet(
      p,
      '/oauth/access_token',
      {
        client_id: '1',
        client_secret: 's',
        redirect_uri: 'https://www.facebook.com/connect/login_success.html',
        code: 'abc',
      },
      '',
    );
    const short = code.body as { access_token: string; token_type: string; expires_in: number };
    expect(short.token_type).toBe('bearer');
    expect((await graphGet(p, '/me', {}, short.access_token)).status).toBe(200);
    const long = await graphGet(
      p,
      '/oauth/access_token',
      {
        grant_type: 'fb_exchange_token',
        client_id: '1',
        client_secret: 's',
        fb_exchange_token: short.access_token,
      },
      '',
    );
    const token = (long.body as { access_token: string }).access_token;
    const debug = await graphGet(p, '/debug_token', { input_token: token }, '1|s');
    expect(debug.body.data).toMatchObject({
      type: 'USER',
      is_valid: true,
      scopes: ['ads_read', 'read_insights'],
    });
    p.controls.expireToken(token);
    const expired = await graphGet(p, '/debug_token', { input_token: token }, '1|s');
    expect(expired.body.data).toMatchObject({ is_valid: false, error: { code: 190, subcode: 463 } });
    const invalid = await graphGet(p, '/debug_token', { input_token: 'nope' }, '1|s');
    expect(invalid.body.data).toMatchObject({ is_valid: false, error: { code: 190, subcode: 467 } });
  });

  it('serves /me and a batch of requests', async () => {
    const me = await graphGet(p, '/me', { fields: 'id,name' });
    expect(Object.keys(me.body).sort()).toEqual(['id', 'name']);
    const res = await fetch(`${p.url}/${p.apiVersion}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        access_token: 'demo-token',
        batch: JSON.stringify([
          { method: 'GET', relative_url: 'v25.0/me' },
          { method: 'GET', relative_url: `${large}/campaigns?limit=2` },
          { method: 'GET', relative_url: 'act_1/campaigns' },
        ]),
      }).toString(),
    });
    const batch = (await res.json()) as Array<{ code: number; body: string }>;
    expect(batch.map((b) => b.code)).toEqual([200, 200, 400]);
    expect((JSON.parse(batch[1]?.body ?? '{}') as { data: Row[] }).data).toHaveLength(2);
  });
});
