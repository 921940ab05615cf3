import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SYSTEM_USER_TOKEN } from '../platform/demo';
import { DEMO_TOKEN, startDemoPlatform, type DemoPlatform } from './index';

let demo: DemoPlatform;
beforeAll(async () => {
  demo = await startDemoPlatform({ seed: 1, today: '2026-11-22' });
});
afterAll(() => demo.close());

interface Listed {
  data: Array<Record<string, unknown>>;
  paging?: { next?: string };
}

async function get(path: string, token = DEMO_TOKEN): Promise<Listed & Record<string, unknown>> {
  const sep = path.includes('?') ? '&' : '?';
  const res = await fetch(`${demo.url}/${demo.apiVersion}/${path}${sep}access_token=${token}`);
  return (await res.json()) as Listed & Record<string, unknown>;
}

async function all(path: string): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  let page = await get(path);
  out.push(...page.data);
  while (page.paging?.next) {
    page = (await (await fetch(page.paging.next)).json()) as Listed & Record<string, unknown>;
    out.push(...page.data);
  }
  return out;
}

describe('demo platform: businesses and token kinds', () => {
  it('lists businesses with their owned and client ad accounts, paged by cursor', async () => {
    const businesses = await all('me/businesses?fields=id,name&limit=1');
    expect(businesses).toHaveLength(3);
    const personal = new Set((await all('me/adaccounts?fields=id')).map((a) => a.id));
    const owned: unknown[] = [];
    const clients: Array<Record<string, unknown>> = [];
    for (const b of businesses) {
      owned.push(...(await all(`${String(b.id)}/owned_ad_accounts?fields=id,user_tasks&limit=1`)));
      clients.push(
        ...(await all(`${String(b.id)}/client_ad_accounts?fields=id,name,user_tasks,business&limit=1`)),
      );
    }
    expect(owned).toHaveLength(personal.size);
    expect(clients).toHaveLength(3);
    // Client accounts are reachable only through a business, and belong to the client's business.
    for (const c of clients) {
      expect(personal.has(c.id)).toBe(false);
      expect(businesses.map((b) => b.id)).not.toContain((c.business as { id: string }).id);
    }
    expect(clients.map((c) => c.user_tasks)).toEqual(
      expect.arrayContaining([['ANALYZE'], ['DRAFT'], ['DRAFT', 'ANALYZE', 'ADVERTISE']]),
    );
    const client = clients[0] as { id: string };
    const campaigns = await get(`${client.id}/campaigns?fields=id,name`);
    expect(campaigns.data.length).toBeGreaterThan(0);
  });

  it('answers for a system user token, and reports its kind and expiry in debug_token', async () => {
    const me = await get('me?fields=id,name', DEMO_SYSTEM_USER_TOKEN);
    expect(me.name).toContain('system user');
    const debug = (await get(`debug_token?input_token=${DEMO_SYSTEM_USER_TOKEN}`)) as unknown as {
      data: { type: string; expires_at: number; is_valid: boolean; profile_id: string };
    };
    expect(debug.data).toMatchObject({ type: 'SYSTEM_USER', expires_at: 0, is_valid: true });
    const accounts = await get('me/adaccounts?fields=id', DEMO_SYSTEM_USER_TOKEN);
    expect(accounts.data.length).toBeGreaterThan(0);
  });

  it('sets a token expiry that debug_token reports and that lapses', async () => {
    const token = await get('oauth/access_token?client_id=1&client_secret=s&code=abc');
    const issued = token.access_token as string;
    const before = (await get(`debug_token?input_token=${issued}`)) as unknown as {
      data: { expires_at: number };
    };
    const now = Math.floor(Date.now() / 1000);
    expect(before.data.expires_at).toBeGreaterThan(now + 59 * 86400);
    demo.controls.setTokenExpiry(issued, now + 3 * 86400);
    const soon = (await get(`debug_token?input_token=${issued}`)) as unknown as {
      data: { expires_at: number; is_valid: boolean };
    };
    expect(soon.data).toEqual(expect.objectContaining({ expires_at: now + 3 * 86400, is_valid: true }));
    demo.controls.setTokenExpiry(issued, now - 10);
    const lapsed = await get('me', issued);
    expect((lapsed.error as { code: number; error_subcode: number }).error_subcode).toBe(463);
  });
});
