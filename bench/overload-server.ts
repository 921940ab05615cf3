// The server side of the overload bench, in its own process so the load generator does not share
// its event loop: two /v1 servers over the same seeded data, one with the response cache off.
// Prints one JSON line with their URLs, keys and IDs, and stops when stdin closes.
import { addDays } from '../src/core/clock';
import { newId } from '../src/core/ids';
import { seedAccount, seedKey, seedWorkspace } from '../src/test-support/api-fixtures';
import { startTestApi, type TestApi } from '../src/test-support/api-server';

const CAMPAIGNS = 300;
const DAYS = 120;
const TODAY = '2026-03-10';

async function seed(t: TestApi): Promise<{ key: string; accountId: string; campaignIds: string[] }> {
  const db = t.core.db;
  const ws = seedWorkspace(db, { plan: 'agency' });
  const account = seedAccount(db, { workspaceId: ws.workspaceId, mode: 'live' });
  const big = 1e9;
  const { key } = await seedKey(db, t.clock, {
    workspaceId: ws.workspaceId,
    limitOverrides: { reads: big, writes: big, diagnostics: big, reports: big },
  });
  const insertCampaign = db.prepare(
    `INSERT INTO campaigns (id, account_id, platform_campaign_id, name, status, effective_status, objective, buying_type,
       bid_strategy, daily_budget_micros, special_ad_categories, created_time, updated_time, last_synced_at, insights_synced_at)
     VALUES (?, ?, ?, ?, 'ACTIVE', 'ACTIVE', 'OUTCOME_SALES', 'AUCTION', 'LOWEST_COST_WITHOUT_CAP', 50000000, '[]',
       '2025-01-01T00:00:00+0000', '2026-03-01T00:00:00+0000', '2026-03-10T00:00:00.000Z', '2026-03-10T00:00:00.000Z')`,
  );
  const insertDay = db.prepare(
    `INSERT INTO insights_campaign_daily (campaign_id, date, account_id, spend_micros, impressions, clicks, conversions,
       revenue_micros, reach, frequency) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const campaignIds: string[] = [];
  db.transaction(() => {
    for (let c = 0; c < CAMPAIGNS; c++) {
      const id = newId('camp');
      campaignIds.push(id);
      insertCampaign.run(id, account.id, `2385${String(c).padStart(10, '0')}`, `Campaign ${c}`);
      for (let d = 0; d < DAYS; d++) {
        const spend = 5_000_000 + ((c * 7919 + d * 104_729) % 50_000_000);
        insertDay.run(
          id,
          addDays(TODAY, -d),
          account.id,
          spend,
          1000 + d,
          20,
          (c + d) % 7,
          spend * 2,
          800,
          1.2,
        );
      }
    }
  })();
  return { key, accountId: account.id, campaignIds };
}

async function main(): Promise<void> {
  const uncached = await startTestApi({ now: `${TODAY}T12:00:00.000Z`, server: { cacheResponses: false } });
  const cached = await startTestApi({ now: `${TODAY}T12:00:00.000Z` });
  const u = await seed(uncached);
  const c = await seed(cached);
  process.stdout.write(
    `${JSON.stringify({ uncached: { url: uncached.url, ...u }, cached: { url: cached.url, ...c } })}\n`,
  );
  process.stdin.resume();
  process.stdin.on('end', () => {
    void Promise.all([uncached.close(), cached.close()]).then(() => process.exit(0));
  });
}

void main();
