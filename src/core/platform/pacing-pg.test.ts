// Meta pacing shared across the team server's processes: each pool here stands for one serve process.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGraph } from '../../test-support/fake-graph-server';
import { startTestPostgres, type TestPostgres } from '../../test-support/postgres';
import { connectPg, type PgPool } from '../store/pg/connect';
import { migratePg } from '../store/pg/migrate';
import { GraphClient } from './graph-client';
import { paceDelayMs, PACE_MAX_DELAY_MS, pacingKey } from './pacing';
import { PgPacing } from './pacing-pg';

let server: TestPostgres;
const pools: PgPool[] = [];

beforeAll(async () => {
  server = await startTestPostgres();
}, 120_000);
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.end()));
});
afterAll(async () => {
  await server?.stop();
});

/** Two processes on one fresh database. */
async function twoProcesses(): Promise<[PgPacing, PgPacing]> {
  const url = await server.createDatabase();
  const [a, b] = [connectPg(url), connectPg(url)];
  pools.push(a, b);
  await migratePg(a);
  return [new PgPacing(a), new PgPacing(b)];
}

describe('PgPacing', () => {
  const account = pacingKey('https://graph.facebook.com', 'act_101');

  it('paces every process by the usage one process read', async () => {
    const [one, other] = await twoProcesses();
    expect(await other.waitMs(account)).toBe(0);

    await one.record(account, { maxPercent: 90, regainAccessMs: 0, accessTier: 'standard_access' });
    expect(await other.waitMs(account)).toBe(paceDelayMs(90));
    expect(await other.accessTier(account)).toBe('standard_access');
    // Another ad account keeps its own budget; the demo's act_101 is not Meta's.
    expect(await other.waitMs(pacingKey('http://127.0.0.1:4000', 'act_101'))).toBe(0);

    // The latest utilisation wins; a reading without a tier keeps the known one.
    await other.record(account, { maxPercent: 20, regainAccessMs: 0 });
    expect(await one.waitMs(account)).toBe(0);
    expect(await one.accessTier(account)).toBe('standard_access');
  });

  it('holds every process back while Meta throttles the account, and never shortens the throttle', async () => {
    const [one, other] = await twoProcesses();
    await one.record(account, { maxPercent: 100, regainAccessMs: 120_000 });
    const blocked = await other.waitMs(account);
    // Generous bounds: the database clock moved on between the two statements.
    expect(blocked).toBeGreaterThan(100_000);
    expect(blocked).toBeLessThanOrEqual(120_000);

    await other.record(account, { maxPercent: 100, regainAccessMs: 60_000 });
    expect(await one.waitMs(account)).toBeGreaterThan(100_000);

    // A throttle in the past no longer holds anyone back: the usage pace applies again.
    await one.record(account, { maxPercent: 100, regainAccessMs: 0 });
    const pool = pools[0] as PgPool;
    await pool.query(`UPDATE ad_account_pacing SET blocked_until = now() - interval '1 second'`);
    expect(await other.waitMs(account)).toBe(PACE_MAX_DELAY_MS);
  });

  it("slows one process's Graph client by the usage another process's client read", async () => {
    const [one, other] = await twoProcesses();
    const usage = JSON.stringify({ acc_id_util_pct: 90, ads_api_access_tier: 'standard_access' });
    const graph = await startFakeGraph(() => ({
      body: { data: [] },
      headers: { 'x-ad-account-usage': usage },
    }));
    try {
      const client = (pacing: PgPacing, sleeps: number[]) =>
        new GraphClient({
          baseUrl: graph.url,
          token: 'tok',
          sleep: async (ms) => void sleeps.push(ms),
          sharedPacing: { pacing, accountKey: pacingKey(graph.url, 'act_7') },
        });
      const [first, second]: [number[], number[]] = [[], []];
      await client(one, first).listCampaigns('act_7').next();
      expect(first).toEqual([]);
      // A fresh client in another process: its own pacer knows nothing, the shared one does.
      await client(other, second).listCampaigns('act_7').next();
      expect(second).toEqual([paceDelayMs(90)]);

      // The database out of reach: the client goes on with its own pacer alone.
      await Promise.all(pools.splice(0).map((pool) => pool.end()));
      const alone: number[] = [];
      await client(other, alone).listCampaigns('act_7').next();
      expect(alone).toEqual([]);
    } finally {
      await graph.close();
    }
  });
});
