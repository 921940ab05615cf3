// Parity: for the same data, every transport (/v1, the desktop's IPC handler map, the web bridge and
// the CLI) shows the same view of each resource, because each only translates a use case. A transport
// that computed its own number (a UTC "today", its own default window) would differ here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toApiAccount, type Account } from '../shared/api/accounts';
import type { AccountView } from '../shared/ipc/types';
import { addDays, dateInZone } from './clock';
import { microsToAmount } from './money';
import { transportWorld, type TransportWorld } from '../test-support/transports';

let w: TransportWorld;

beforeAll(async () => {
  w = await transportWorld(2);
}, 180_000);

afterAll(async () => {
  await w?.close();
});

const byId = <T extends { id: string }>(items: T[]): T[] =>
  [...items].sort((a, b) => a.id.localeCompare(b.id));

describe('accounts', () => {
  it('has accounts in different time zones, so "today" differs between them at 18:00 UTC', () => {
    expect(w.accounts.length).toBe(2);
    const days = new Set(w.accounts.map((a) => dateInZone(w.app.core.clock.now(), a.timezone)));
    expect(days.size).toBe(2);
  });

  it('lists the same accounts with the same figures through /v1, IPC and the web bridge', async () => {
    const v1 = await w.v1('/v1/accounts?page_size=100');
    expect(v1.status).toBe(200);
    const ipc = await w.ipc<AccountView[]>('accounts.list');
    const bridge = await w.bridge<AccountView[]>('accounts.list');
    const api = byId(v1.body.data as Account[]);
    expect(api).toEqual(byId(ipc.map(toApiAccount)));
    expect(byId(bridge)).toEqual(byId(ipc));
    for (const account of api) {
      const one = await w.v1(`/v1/accounts/${account.platformAccountId}`);
      expect(one.body.data).toEqual(account);
    }
  });

  it("sums the 30-day spend over the 30 days ending today in each account's own time zone", async () => {
    const ipc = await w.ipc<AccountView[]>('accounts.list');
    const synced = new Set(w.accounts.map((a) => a.id));
    for (const account of ipc.filter((a) => synced.has(a.id))) {
      const today = dateInZone(w.app.core.clock.now(), account.timezone);
      const micros = w.app.core.db
        .prepare(
          `SELECT coalesce(sum(spend_micros), 0) FROM insights_campaign_daily WHERE account_id = ? AND date BETWEEN ? AND ?`,
        )
        .pluck()
        .get(account.id, addDays(today, -29), today) as number;
      expect(micros).toBeGreaterThan(0);
      expect(account.totalSpendLast30d).toBe(microsToAmount(micros));
    }
  });
});
