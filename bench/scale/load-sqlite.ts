// The SQLite loader of the scale bench: the agency written straight into a real store file, opened
// (and migrated) the way the host opens it, in one transaction per account with prepared statements.
// Indexes and rollup triggers stay in place: a sync writes through them too, so the load time is what
// the product pays (dropping them around the load would measure a path the product never takes).
import { sqliteSql } from '../../src/core/store/sql';
import { statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '../../src/core/clock';
import { createApiKey } from '../../src/core/identity/api-keys';
import { createUser } from '../../src/core/identity/users';
import { createWorkspace } from '../../src/core/identity/workspaces';
import { openStore } from '../../src/core/store/open';
import { account, adSet, campaign, datesEnding, days, type AgencyShape, type GeneratedDay } from './agency';

export interface LoadedAgency {
  key: string;
  workspaceId: string;
  /** Service IDs, in generation order. */
  accountIds: string[];
  /** A few campaigns per account (the first ones) for detail reads. */
  sampleCampaignIds: string[];
  currencies: string[];
  rows: { campaigns: number; adSets: number; campaignDays: number; adSetDays: number };
  loadMs: number;
  bytesOnDisk: number;
}

/**
 * Service IDs in the product's form (prefix, 16 base62 characters with a letter) but ascending, so the
 * load appends to each b-tree: a sync's random IDs land all over the file, which is the sync's cost to
 * pay a few thousand rows at a time, not a 16 GB bulk load's.
 */
function sequentialIds(prefix: string): () => string {
  let n = 0;
  return () => `${prefix}_S${String(n++).padStart(15, '0')}`;
}

function bytesIn(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

export async function loadSqlite(
  dataDir: string,
  shape: AgencyShape,
  log: (line: string) => void,
): Promise<LoadedAgency> {
  const started = performance.now();
  const store = openStore(dataDir);
  const db = store.db;
  // A bigger page cache for the load only (the host keeps its own setting).
  db.pragma('cache_size = -524288');
  const now = new Date();
  const workspace = createWorkspace(db, { name: 'Scale Agency', plan: 'agency' }, now);
  const owner = createUser(db, { workspaceId: workspace.id, email: 'owner@scale.test', role: 'owner' }, now);
  const big = 1e9;
  const { key } = await createApiKey(sqliteSql(db), systemClock, {
    workspaceId: workspace.id,
    mode: 'live',
    name: 'scale bench',
    userId: owner.id,
    limitOverrides: { reads: big, writes: big, diagnostics: big, reports: big },
  });
  const at = now.toISOString();
  const nextId = {
    conn: sequentialIds('conn'),
    act: sequentialIds('act'),
    camp: sequentialIds('camp'),
    adset: sequentialIds('adset'),
  };
  const insertConnection = db.prepare(
    `INSERT INTO platform_connections (id, workspace_id, base_url, api_version, mode, token_encrypted, status, connected_by, created_at, updated_at)
     VALUES (?, ?, 'https://graph.facebook.com', 'v25.0', 'live', ?, 'active', ?, ?, ?)`,
  );
  const insertAccount = db.prepare(
    `INSERT INTO ad_accounts (id, workspace_id, connection_id, platform_account_id, mode, name, currency, timezone,
       status, connection_status, business_id, business_name, permissions, connected_at, connected_by, last_synced_at)
     VALUES (?, ?, ?, ?, 'live', ?, ?, ?, 'active', 'active', 'biz_scale', 'Scale Agency',
       '["read_insights","read_campaigns","read_ads"]', ?, ?, ?)`,
  );
  const insertCampaign = db.prepare(
    `INSERT INTO campaigns (id, account_id, platform_campaign_id, name, status, effective_status, objective, buying_type,
       bid_strategy, daily_budget_micros, special_ad_categories, created_time, updated_time, last_synced_at,
       insights_synced_at, insights_synced_through, result_type)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'AUCTION', 'LOWEST_COST_WITHOUT_CAP', ?, '[]', ?, ?, ?, ?, ?, ?)`,
  );
  const insertAdSet = db.prepare(
    `INSERT INTO ad_sets (id, account_id, campaign_id, platform_ad_set_id, name, status, effective_status,
       daily_budget_micros, optimization_goal, targeting, learning_status, created_time, updated_time, last_synced_at)
     VALUES (?, ?, ?, ?, ?, 'ACTIVE', 'ACTIVE', ?, 'OFFSITE_CONVERSIONS', '{"geo_locations":{"countries":["US"]}}',
       'SUCCESS', ?, ?, ?)`,
  );
  const insertCampaignDay = db.prepare(
    `INSERT INTO insights_campaign_daily (campaign_id, date, account_id, spend_micros, impressions, clicks, conversions,
       revenue_micros, reach, frequency, link_clicks) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertAdSetDay = db.prepare(
    `INSERT INTO insights_ad_set_daily (ad_set_id, date, account_id, campaign_id, spend_micros, impressions, clicks,
       conversions, revenue_micros, reach, frequency, link_clicks) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const campaignDates = datesEnding(shape.today, shape.campaignDays);
  const adSetDates = datesEnding(shape.today, shape.adSetDays);
  const accountIds: string[] = [];
  const sampleCampaignIds: string[] = [];
  const rows = { campaigns: 0, adSets: 0, campaignDays: 0, adSetDays: 0 };
  const currencies = new Set<string>();
  const loadAccount = db.transaction((index: number) => {
    const a = account(index);
    currencies.add(a.currency);
    const connectionId = nextId.conn();
    insertConnection.run(connectionId, workspace.id, Buffer.from('scale-bench'), owner.id, at, at);
    const accountId = nextId.act();
    accountIds.push(accountId);
    insertAccount.run(
      accountId,
      workspace.id,
      connectionId,
      a.platformAccountId,
      a.name,
      a.currency,
      a.timezone,
      at,
      owner.id,
      at,
    );
    for (let c = 0; c < shape.campaignsPerAccount; c++) {
      const g = campaign(index, c, shape.today);
      const campaignId = nextId.camp();
      if (c < 3) sampleCampaignIds.push(campaignId);
      insertCampaign.run(
        campaignId,
        accountId,
        g.platformCampaignId,
        g.name,
        g.status,
        g.status,
        g.objective,
        g.dailyBudgetMicros,
        g.createdTime,
        g.createdTime,
        at,
        at,
        shape.today,
        g.resultType,
      );
      rows.campaigns += 1;
      const seed = index * 1000 + c + 1;
      days(seed, campaignDates, 1, (d: GeneratedDay) => {
        insertCampaignDay.run(
          campaignId,
          d.date,
          accountId,
          d.spendMicros,
          d.impressions,
          d.clicks,
          d.conversions,
          d.revenueMicros,
          d.reach,
          d.frequency,
          d.linkClicks,
        );
      });
      rows.campaignDays += campaignDates.length;
      for (let s = 0; s < shape.adSetsPerCampaign; s++) {
        const g2 = adSet(index, c, s);
        const adSetId = nextId.adset();
        insertAdSet.run(
          adSetId,
          accountId,
          campaignId,
          g2.platformAdSetId,
          g2.name,
          g2.dailyBudgetMicros,
          g.createdTime,
          g.createdTime,
          at,
        );
        rows.adSets += 1;
        days(seed * 10 + s, adSetDates, 1 / shape.adSetsPerCampaign, (d: GeneratedDay) => {
          insertAdSetDay.run(
            adSetId,
            d.date,
            accountId,
            campaignId,
            d.spendMicros,
            d.impressions,
            d.clicks,
            d.conversions,
            d.revenueMicros,
            d.reach,
            d.frequency,
            d.linkClicks,
          );
        });
        rows.adSetDays += adSetDates.length;
      }
    }
  });
  for (let index = 0; index < shape.accounts; index++) {
    loadAccount(index);
    if ((index + 1) % 25 === 0 || index + 1 === shape.accounts) {
      const s = (performance.now() - started) / 1000;
      log(
        `  loaded ${index + 1}/${shape.accounts} accounts, ${rows.campaignDays.toLocaleString('en-US')} campaign days (${s.toFixed(0)} s)`,
      );
    }
  }
  // No ANALYZE: the product never runs it, so the planner sees what a user's file gives it.
  db.pragma('wal_checkpoint(TRUNCATE)');
  store.close();
  return {
    key,
    workspaceId: workspace.id,
    accountIds,
    sampleCampaignIds,
    currencies: [...currencies].sort(),
    rows,
    loadMs: performance.now() - started,
    bytesOnDisk: bytesIn(dataDir),
  };
}
