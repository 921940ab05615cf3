// Test fixtures for the /v1 server: a store seeded with plain SQL (workspaces, accounts, campaigns,
// ad sets, ads, daily insights) so API tests do not depend on the sync engine, and a server on an
// ephemeral port with a movable clock.
import { sqliteSql, type Sql } from '../core/store/sql';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../core/clock';
import { createCore, type Core } from '../core/core';
import { createApiKey, type KeyMode, type LimitOverrides } from '../core/identity/api-keys';
import type { Plan } from '../core/identity/access';
import { newId } from '../core/ids';
import type { Db } from '../core/store/open';

/** A clock tests move by hand (rate-limit windows, expiry) instead of sleeping. */
export class TestClock implements Clock {
  constructor(private at: number) {}
  now(): Date {
    return new Date(this.at);
  }
  advance(ms: number): void {
    this.at += ms;
  }
}

export function tempCore(clock: Clock): { core: Core; dataDir: string; cleanup(): void } {
  const dataDir = mkdtempSync(join(tmpdir(), 'adlens-api-'));
  const core = createCore({ dataDir, clock });
  return {
    core,
    dataDir,
    cleanup: () => {
      core.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function seedWorkspace(
  db: Db,
  input: { plan: Plan; name?: string; now?: string },
): { workspaceId: string; ownerId: string } {
  const workspaceId = newId('ws');
  const ownerId = newId('user');
  const now = input.now ?? '2026-01-01T00:00:00.000Z';
  db.prepare(`INSERT INTO workspaces (id, name, plan, created_at) VALUES (?, ?, ?, ?)`).run(
    workspaceId,
    input.name ?? `Workspace ${workspaceId.slice(-4)}`,
    input.plan,
    now,
  );
  db.prepare(
    `INSERT INTO users (id, workspace_id, email, name, role, created_at) VALUES (?, ?, ?, ?, 'owner', ?)`,
  ).run(ownerId, workspaceId, `owner-${ownerId.slice(-6).toLowerCase()}@agency.test`, 'Owner', now);
  return { workspaceId, ownerId };
}

export interface SeedAccountInput {
  workspaceId: string;
  mode: 'test' | 'live';
  platformAccountId?: string;
  name?: string;
  currency?: string;
  timezone?: string;
  connectionStatus?: 'active' | 'disconnected' | 'token_expired';
  connectedBy?: string | null;
  lastSyncedAt?: string | null;
}

let platformCounter = 1000;

export function seedAccount(db: Db, input: SeedAccountInput): { id: string; platformAccountId: string } {
  const connectionId = newId('conn');
  const now = '2026-01-02T00:00:00.000Z';
  db.prepare(
    `INSERT INTO platform_connections (id, workspace_id, base_url, api_version, mode, token_encrypted, status, created_at, updated_at)
     VALUES (?, ?, ?, 'v25.0', ?, ?, ?, ?, ?)`,
  ).run(
    connectionId,
    input.workspaceId,
    input.mode === 'test' ? 'demo:' : 'https://graph.facebook.com',
    input.mode,
    Buffer.from('sealed'),
    input.connectionStatus ?? 'active',
    now,
    now,
  );
  const id = newId('act');
  const platformAccountId = input.platformAccountId ?? `act_${++platformCounter}${Date.now() % 100000}`;
  db.prepare(
    `INSERT INTO ad_accounts (id, workspace_id, connection_id, platform_account_id, mode, name, currency, timezone,
       status, connection_status, business_id, business_name, permissions, connected_at, connected_by, last_synced_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, 'biz_1', 'Acme Agency', ?, ?, ?, ?)`,
  ).run(
    id,
    input.workspaceId,
    connectionId,
    platformAccountId,
    input.mode,
    input.name ?? `Account ${platformAccountId}`,
    input.currency ?? 'USD',
    input.timezone ?? 'UTC',
    input.connectionStatus ?? 'active',
    JSON.stringify(['read_insights', 'read_campaigns', 'read_ads']),
    now,
    input.connectedBy ?? null,
    input.lastSyncedAt === undefined ? '2026-03-01T00:00:00.000Z' : input.lastSyncedAt,
  );
  return { id, platformAccountId };
}

export interface SeedCampaignInput {
  accountId: string;
  name?: string;
  status?: string;
  dailyBudgetMicros?: number | null;
  synced?: boolean;
  createdTime?: string;
}

let campaignCounter = 1;

export function seedCampaign(db: Db, input: SeedCampaignInput): string {
  const id = newId('camp');
  const n = campaignCounter++;
  const created = input.createdTime ?? `2026-01-${String((n % 27) + 1).padStart(2, '0')}T10:00:00+0000`;
  db.prepare(
    `INSERT INTO campaigns (id, account_id, platform_campaign_id, name, status, effective_status, objective, buying_type,
       bid_strategy, daily_budget_micros, lifetime_budget_micros, special_ad_categories, created_time, updated_time,
       last_synced_at, insights_synced_at, insights_synced_through)
     VALUES (?, ?, ?, ?, ?, ?, 'OUTCOME_SALES', 'AUCTION', 'LOWEST_COST_WITHOUT_CAP', ?, NULL, '[]', ?, ?, ?, ?, ?)`,
  ).run(
    id,
    input.accountId,
    `2385${String(n).padStart(10, '0')}`,
    input.name ?? `Campaign ${n}`,
    input.status ?? 'ACTIVE',
    input.status ?? 'ACTIVE',
    input.dailyBudgetMicros === undefined ? 50_000_000 : input.dailyBudgetMicros,
    created,
    created,
    '2026-03-01T00:00:00.000Z',
    input.synced === false ? null : '2026-03-01T00:00:00.000Z',
    input.synced === false ? null : '2026-03-01',
  );
  return id;
}

export function seedAdSet(
  db: Db,
  input: {
    accountId: string;
    campaignId: string;
    name?: string;
    learningStatus?: string | null;
    targeting?: object;
  },
): string {
  const id = newId('adset');
  db.prepare(
    `INSERT INTO ad_sets (id, account_id, campaign_id, platform_ad_set_id, name, status, effective_status,
       daily_budget_micros, optimization_goal, targeting, learning_status, created_time, updated_time)
     VALUES (?, ?, ?, ?, ?, 'ACTIVE', 'ACTIVE', 20000000, 'OFFSITE_CONVERSIONS', ?, ?, ?, ?)`,
  ).run(
    id,
    input.accountId,
    input.campaignId,
    `2386${Math.floor(Math.random() * 1e10)}`,
    input.name ?? 'Ad set',
    JSON.stringify(input.targeting ?? { geo_locations: { countries: ['US'] }, age_min: 25, age_max: 54 }),
    input.learningStatus === undefined ? 'SUCCESS' : input.learningStatus,
    '2026-01-03T00:00:00+0000',
    '2026-01-04T00:00:00+0000',
  );
  return id;
}

export function seedAd(
  db: Db,
  input: { accountId: string; campaignId: string; adSetId: string; name?: string },
): string {
  const id = newId('ad');
  db.prepare(
    `INSERT INTO ads (id, account_id, campaign_id, ad_set_id, platform_ad_id, name, status, effective_status, creative_id,
       created_time, updated_time)
     VALUES (?, ?, ?, ?, ?, ?, 'ACTIVE', 'ACTIVE', 'cr_1', '2026-01-03T00:00:00+0000', '2026-01-04T00:00:00+0000')`,
  ).run(
    id,
    input.accountId,
    input.campaignId,
    input.adSetId,
    `2387${Math.floor(Math.random() * 1e10)}`,
    input.name ?? 'Ad',
  );
  return id;
}

export interface DailyRow {
  spendMicros: number;
  impressions: number;
  clicks: number;
  conversions: number;
  revenueMicros: number;
  reach?: number;
}

/** One insights row per day from `from` for `days` days; `row(i)` gives day i's numbers. */
export function seedDailyInsights(
  db: Db,
  input: { accountId: string; campaignId: string; from: string; days: number; row: (i: number) => DailyRow },
): void {
  const insert = db.prepare(
    // Link clicks = clicks in fixtures, so link CTR reads as the fixture's CTR.
    `INSERT INTO insights_campaign_daily (campaign_id, date, account_id, spend_micros, impressions, clicks, conversions,
       revenue_micros, reach, frequency, link_clicks)
     SELECT c, d, a, s, i, k, v, r, h, f, k FROM (SELECT ? AS c, ? AS d, ? AS a, ? AS s, ? AS i, ? AS k, ? AS v,
       ? AS r, ? AS h, ? AS f)`,
  );
  db.transaction(() => {
    const start = Date.parse(`${input.from}T00:00:00Z`);
    for (let i = 0; i < input.days; i++) {
      const date = new Date(start + i * 86_400_000).toISOString().slice(0, 10);
      const r = input.row(i);
      const reach = r.reach ?? Math.round(r.impressions / 1.5);
      insert.run(
        input.campaignId,
        date,
        input.accountId,
        r.spendMicros,
        r.impressions,
        r.clicks,
        r.conversions,
        r.revenueMicros,
        reach,
        reach ? r.impressions / reach : 0,
      );
    }
  })();
}

/** A key for a seeded workspace, on a SQLite handle (fixtures) or through the boundary (either engine). */
export async function seedKey(
  store: Db | Sql,
  clock: Clock,
  input: { workspaceId: string; mode?: KeyMode; limitOverrides?: LimitOverrides; expiresAt?: string },
): Promise<{ key: string; id: string }> {
  const sql = 'prepare' in store ? sqliteSql(store) : store;
  const { key, apiKey } = await createApiKey(sql, clock, input);
  return { key, id: apiKey.id };
}

/** A stable fingerprint of every table's content, to assert that requests changed nothing. */
export function storeChecksum(
  db: Db,
  ignore: Record<string, string[]> = { api_keys: ['last_used_at'] },
): string {
  const tables = db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
    .pluck()
    .all() as string[];
  const parts: string[] = [];
  for (const table of tables) {
    const rows = db.prepare(`SELECT * FROM "${table}" ORDER BY 1`).all() as Array<Record<string, unknown>>;
    const skip = new Set(ignore[table] ?? []);
    for (const row of rows) {
      for (const column of skip) delete row[column];
    }
    parts.push(
      `${table}:${JSON.stringify(rows, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('hex') : v))}`,
    );
  }
  return parts.join('\n');
}
