// The campaigns and accounts lists at agency shape, over real SQLite and real HTTP: pages taken from
// the name-ordered index with a stable order (names repeat across accounts), totals from the
// accounts' maintained counts, and ad-set / ad / campaign counts kept exact by the triggers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  seedAccount,
  seedAd,
  seedAdSet,
  seedCampaign,
  seedKey,
  seedWorkspace,
} from '../../test-support/api-fixtures';
import { call, startTestApi, type TestApi } from '../../test-support/api-server';

interface Item {
  id: string;
  accountId: string;
  name: string;
  status: string;
  adSetCount: number;
  adCount: number;
}
interface Page<T> {
  data: T[];
  pagination: { total: number; page: number; page_size: number; hasMore: boolean };
}

let t: TestApi;
let key: string;
const accounts: Array<{ id: string; platformAccountId: string }> = [];
const expected: Array<{ id: string; name: string; status: string; accountId: string }> = [];

beforeAll(async () => {
  t = await startTestApi({ now: '2026-03-10T12:00:00.000Z' });
  const db = t.core.db;
  const ws = seedWorkspace(db, { plan: 'agency' });
  key = (await seedKey(db, t.clock, { workspaceId: ws.workspaceId, mode: 'live' })).key;
  // Another workspace's campaigns share the index and must never appear.
  const other = seedWorkspace(db, { plan: 'agency' });
  const foreign = seedAccount(db, { workspaceId: other.workspaceId, mode: 'live' });
  seedCampaign(db, { accountId: foreign.id, name: 'Brand 1' });
  // So must the same workspace's test-mode (demo) campaigns, for a live key.
  const demo = seedAccount(db, { workspaceId: ws.workspaceId, mode: 'test' });
  seedCampaign(db, { accountId: demo.id, name: 'Brand 0' });
  for (let a = 0; a < 4; a++) {
    const account = seedAccount(db, {
      workspaceId: ws.workspaceId,
      mode: 'live',
      currency: a % 2 ? 'EUR' : 'USD',
    });
    accounts.push(account);
    for (let c = 0; c < 7; c++) {
      const name = `${['Brand', 'Leads', 'Retargeting'][c % 3]} ${c % 2}`; // repeats within and across accounts
      const status = c % 3 === 0 ? 'PAUSED' : 'ACTIVE';
      const id = seedCampaign(db, { accountId: account.id, name, status });
      expected.push({ id, name, status, accountId: account.id });
      for (let s = 0; s < c % 3; s++) {
        const adSetId = seedAdSet(db, { accountId: account.id, campaignId: id });
        seedAd(db, { accountId: account.id, campaignId: id, adSetId });
        seedAd(db, { accountId: account.id, campaignId: id, adSetId });
      }
    }
  }
  // The list's order: name, then ID (IDs are unique, so no two campaigns tie).
  expected.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : x.id < y.id ? -1 : 1));
});

afterAll(async () => {
  await t.close();
});

async function get<T>(path: string): Promise<Page<T>> {
  const res = await call(t.url, path, { key });
  expect(res.status, res.text).toBe(200);
  return res.body as Page<T>;
}

describe('the campaigns list of a whole workspace', () => {
  it('pages through every campaign once, in name then ID order, with the total from maintained counts', async () => {
    const seen: Item[] = [];
    for (let page = 1; page <= 6; page++) {
      const body = await get<Item>(`/v1/campaigns?page=${page}&page_size=5`);
      expect(body.pagination.total).toBe(28);
      expect(body.pagination.hasMore).toBe(page < 6);
      // Full pages: a campaign the key may not see never takes a place on a page (and is dropped).
      expect(body.data).toHaveLength(page < 6 ? 5 : 3);
      seen.push(...body.data);
    }
    expect(seen.map((c) => c.id)).toEqual(expected.map((c) => c.id));
    const reversed = await get<Item>(`/v1/campaigns?sort=-name&page_size=100`);
    expect(reversed.data.map((c) => c.id)).toEqual(expected.map((c) => c.id).reverse());
  });

  it('filters by status with the right total, and by account', async () => {
    const paused = await get<Item>(`/v1/campaigns?status=PAUSED&page_size=100`);
    const want = expected.filter((c) => c.status === 'PAUSED');
    expect(paused.pagination.total).toBe(want.length);
    expect(paused.data.map((c) => c.id)).toEqual(want.map((c) => c.id));
    const account = accounts[2] as { id: string; platformAccountId: string };
    const one = await get<Item>(`/v1/campaigns?account_id=${account.platformAccountId}&page=2&page_size=3`);
    const mine = expected.filter((c) => c.accountId === account.id);
    expect(one.pagination.total).toBe(7);
    expect(one.data.map((c) => c.id)).toEqual(mine.slice(3, 6).map((c) => c.id));
  });

  it('shows ad-set and ad counts kept by the triggers, also after a sync adds or moves some', async () => {
    const first = expected.find((c) => c.name.startsWith('Retargeting')) as (typeof expected)[number];
    const before = (await get<Item>(`/v1/campaigns?page_size=100`)).data.find((c) => c.id === first.id);
    expect(before).toMatchObject({ adSetCount: 2, adCount: 4 });
    const db = t.core.db;
    const adSetId = seedAdSet(db, { accountId: first.accountId, campaignId: first.id });
    seedAd(db, { accountId: first.accountId, campaignId: first.id, adSetId });
    const target = expected.find(
      (c) => c.accountId === first.accountId && c.id !== first.id,
    ) as (typeof expected)[number];
    db.prepare(`UPDATE ads SET campaign_id = ? WHERE ad_set_id = ?`).run(target.id, adSetId);
    db.prepare(`UPDATE ad_sets SET campaign_id = ? WHERE id = ?`).run(target.id, adSetId);
    const items = (await get<Item>(`/v1/campaigns?page_size=100`)).data;
    const counted = (id: string) =>
      db
        .prepare(
          `SELECT (SELECT count(*) FROM ad_sets WHERE campaign_id = @id) AS adSetCount,
                  (SELECT count(*) FROM ads WHERE campaign_id = @id) AS adCount`,
        )
        .get({ id });
    for (const item of items)
      expect({ adSetCount: item.adSetCount, adCount: item.adCount }).toEqual(counted(item.id));
  });
});

describe('the accounts list', () => {
  it('counts campaigns and active campaigns from the maintained columns, also after a status change', async () => {
    const db = t.core.db;
    const account = accounts[0] as { id: string; platformAccountId: string };
    db.prepare(`UPDATE campaigns SET effective_status = 'PAUSED' WHERE id = ?`).run(
      expected.find((c) => c.accountId === account.id && c.status === 'ACTIVE')?.id,
    );
    const body = await get<{ id: string; campaignCount: number; activeCampaignCount: number }>(
      '/v1/accounts?page_size=2&page=1',
    );
    expect(body.pagination.total).toBe(4);
    for (const item of (
      await get<{ id: string; campaignCount: number; activeCampaignCount: number }>('/v1/accounts')
    ).data) {
      const row = db
        .prepare(
          `SELECT count(*) AS campaignCount, coalesce(sum(effective_status = 'ACTIVE'), 0) AS activeCampaignCount
           FROM campaigns WHERE account_id = ?`,
        )
        .get(item.id);
      expect({ campaignCount: item.campaignCount, activeCampaignCount: item.activeCampaignCount }).toEqual(
        row,
      );
    }
  });
});
