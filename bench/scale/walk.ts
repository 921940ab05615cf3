// The scale bench's agency as rows, engine-neutral: one walk over the generator (accounts, their
// connection, campaigns, ad sets and daily insights) that hands each row, in its table's column order,
// to an engine's sink (bench/scale/load-*.ts). Both loaders write exactly the same rows.
import { account, adSet, campaign, datesEnding, days, type AgencyShape, type GeneratedDay } from './agency';

export type ColumnType = 'text' | 'bigint' | 'double' | 'bytea';
export type Value = string | number | Buffer | null;

/** A day's metrics, in the order `dayValues` gives them. */
const METRICS = {
  spend_micros: 'bigint',
  impressions: 'bigint',
  clicks: 'bigint',
  conversions: 'bigint',
  revenue_micros: 'bigint',
  reach: 'bigint',
  frequency: 'double',
  link_clicks: 'bigint',
} as const;

/** The loaded tables, parents first, with their columns and PostgreSQL types. */
export const TABLES = {
  platform_connections: {
    id: 'text',
    workspace_id: 'text',
    base_url: 'text',
    api_version: 'text',
    mode: 'text',
    token_encrypted: 'bytea',
    status: 'text',
    connected_by: 'text',
    created_at: 'text',
    updated_at: 'text',
  },
  ad_accounts: {
    id: 'text',
    workspace_id: 'text',
    connection_id: 'text',
    platform_account_id: 'text',
    mode: 'text',
    name: 'text',
    currency: 'text',
    timezone: 'text',
    status: 'text',
    connection_status: 'text',
    business_id: 'text',
    business_name: 'text',
    permissions: 'text',
    connected_at: 'text',
    connected_by: 'text',
    last_synced_at: 'text',
  },
  campaigns: {
    id: 'text',
    account_id: 'text',
    platform_campaign_id: 'text',
    name: 'text',
    status: 'text',
    effective_status: 'text',
    objective: 'text',
    buying_type: 'text',
    bid_strategy: 'text',
    daily_budget_micros: 'bigint',
    special_ad_categories: 'text',
    created_time: 'text',
    updated_time: 'text',
    last_synced_at: 'text',
    insights_synced_at: 'text',
    insights_synced_through: 'text',
    result_type: 'text',
  },
  insights_campaign_daily: {
    campaign_id: 'text',
    date: 'text',
    account_id: 'text',
    ...METRICS,
  },
  ad_sets: {
    id: 'text',
    account_id: 'text',
    campaign_id: 'text',
    platform_ad_set_id: 'text',
    name: 'text',
    status: 'text',
    effective_status: 'text',
    daily_budget_micros: 'bigint',
    optimization_goal: 'text',
    targeting: 'text',
    learning_status: 'text',
    created_time: 'text',
    updated_time: 'text',
    last_synced_at: 'text',
  },
  insights_ad_set_daily: {
    ad_set_id: 'text',
    date: 'text',
    account_id: 'text',
    campaign_id: 'text',
    ...METRICS,
  },
} as const satisfies Record<string, Record<string, ColumnType>>;

export type Table = keyof typeof TABLES;

export interface AgencySink {
  row(table: Table, values: Value[]): void;
  /** Called after each account's rows (a loader commits or flushes there). */
  endAccount(): Promise<void> | void;
}

export interface WalkedAgency {
  /** Service IDs, in generation order. */
  accountIds: string[];
  /** A few campaigns per account (the first ones) for detail reads. */
  sampleCampaignIds: string[];
  currencies: string[];
  rows: { campaigns: number; adSets: number; campaignDays: number; adSetDays: number };
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

const dayValues = (d: GeneratedDay): Value[] => [
  d.spendMicros,
  d.impressions,
  d.clicks,
  d.conversions,
  d.revenueMicros,
  d.reach,
  d.frequency,
  d.linkClicks,
];

export async function walkAgency(
  shape: AgencyShape,
  owner: { workspaceId: string; userId: string; at: string },
  sink: AgencySink,
  progress: (accountsDone: number, rows: WalkedAgency['rows']) => void,
): Promise<WalkedAgency> {
  const { workspaceId, userId, at } = owner;
  const nextId = {
    conn: sequentialIds('conn'),
    act: sequentialIds('act'),
    camp: sequentialIds('camp'),
    adset: sequentialIds('adset'),
  };
  const campaignDates = datesEnding(shape.today, shape.campaignDays);
  const adSetDates = datesEnding(shape.today, shape.adSetDays);
  const out: WalkedAgency = {
    accountIds: [],
    sampleCampaignIds: [],
    currencies: [],
    rows: { campaigns: 0, adSets: 0, campaignDays: 0, adSetDays: 0 },
  };
  const currencies = new Set<string>();
  const token = Buffer.from('scale-bench');
  for (let index = 0; index < shape.accounts; index++) {
    const a = account(index);
    currencies.add(a.currency);
    const connectionId = nextId.conn();
    sink.row('platform_connections', [
      connectionId,
      workspaceId,
      'https://graph.facebook.com',
      'v25.0',
      'live',
      token,
      'active',
      userId,
      at,
      at,
    ]);
    const accountId = nextId.act();
    out.accountIds.push(accountId);
    sink.row('ad_accounts', [
      accountId,
      workspaceId,
      connectionId,
      a.platformAccountId,
      'live',
      a.name,
      a.currency,
      a.timezone,
      'active',
      'active',
      'biz_scale',
      'Scale Agency',
      '["read_insights","read_campaigns","read_ads"]',
      at,
      userId,
      at,
    ]);
    for (let c = 0; c < shape.campaignsPerAccount; c++) {
      const g = campaign(index, c, shape.today);
      const campaignId = nextId.camp();
      if (c < 3) out.sampleCampaignIds.push(campaignId);
      sink.row('campaigns', [
        campaignId,
        accountId,
        g.platformCampaignId,
        g.name,
        g.status,
        g.status,
        g.objective,
        'AUCTION',
        'LOWEST_COST_WITHOUT_CAP',
        g.dailyBudgetMicros,
        '[]',
        g.createdTime,
        g.createdTime,
        at,
        at,
        shape.today,
        g.resultType,
      ]);
      out.rows.campaigns += 1;
      const seed = index * 1000 + c + 1;
      days(seed, campaignDates, 1, (d: GeneratedDay) =>
        sink.row('insights_campaign_daily', [campaignId, d.date, accountId, ...dayValues(d)]),
      );
      out.rows.campaignDays += campaignDates.length;
      for (let s = 0; s < shape.adSetsPerCampaign; s++) {
        const g2 = adSet(index, c, s);
        const adSetId = nextId.adset();
        sink.row('ad_sets', [
          adSetId,
          accountId,
          campaignId,
          g2.platformAdSetId,
          g2.name,
          'ACTIVE',
          'ACTIVE',
          g2.dailyBudgetMicros,
          'OFFSITE_CONVERSIONS',
          '{"geo_locations":{"countries":["US"]}}',
          'SUCCESS',
          g.createdTime,
          g.createdTime,
          at,
        ]);
        out.rows.adSets += 1;
        days(seed * 10 + s, adSetDates, 1 / shape.adSetsPerCampaign, (d: GeneratedDay) =>
          sink.row('insights_ad_set_daily', [adSetId, d.date, accountId, campaignId, ...dayValues(d)]),
        );
        out.rows.adSetDays += adSetDates.length;
      }
    }
    await sink.endAccount();
    progress(index + 1, out.rows);
  }
  out.currencies = [...currencies].sort();
  return out;
}
