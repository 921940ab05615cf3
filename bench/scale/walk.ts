// The scale bench's agency as rows, engine-neutral: one walk over the generator (accounts, their
// connection, campaigns, ad sets and daily insights) that hands each row, in its table's column order,
// to an engine's sink (bench/scale/load-*.ts). Both loaders write exactly the same rows.
import { addDays } from '../../src/core/clock';
import { DIAGNOSES_KEPT_WHOLE_DAYS, SYNC_RUNS_KEPT_DAYS } from '../../src/core/watch/retention';
import { diagnosticWindow } from '../../src/core/windows';
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
  // The history the watcher leaves an account in steady state (src/core/watch/retention.ts): a month
  // of hourly sync runs, and automatic diagnoses hour by hour for the last days, then one a day.
  sync_runs: {
    id: 'text',
    account_id: 'text',
    kind: 'text',
    status: 'text',
    phase: 'text',
    percent: 'bigint',
    error: 'text',
    stats: 'text',
    started_at: 'text',
    finished_at: 'text',
    judged_at: 'text',
  },
  diagnostics: {
    id: 'text',
    workspace_id: 'text',
    account_id: 'text',
    status: 'text',
    date_from: 'text',
    date_to: 'text',
    risk_level: 'text',
    summary: 'text',
    issues_detected: 'bigint',
    recommendation_count: 'bigint',
    result: 'text',
    processing_time_ms: 'bigint',
    created_at: 'text',
    started_at: 'text',
    completed_at: 'text',
    trigger: 'text',
    campaign_scope: 'text',
    retained: 'bigint',
  },
  // Issues the watcher opened and later saw resolved: kept for ever, the analyst's record.
  issues: {
    id: 'text',
    workspace_id: 'text',
    account_id: 'text',
    type: 'text',
    entity_id: 'text',
    entity_name: 'text',
    state: 'text',
    severity: 'text',
    peak_severity: 'text',
    title: 'text',
    description: 'text',
    evidence: 'text',
    diagnostic_id: 'text',
    opened_at: 'text',
    updated_at: 'text',
    resolved_at: 'text',
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
  rows: {
    campaigns: number;
    adSets: number;
    campaignDays: number;
    adSetDays: number;
    syncRuns: number;
    diagnoses: number;
    resolvedIssues: number;
  };
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
    run: sequentialIds('run'),
    diag: sequentialIds('diag'),
    issue: sequentialIds('iss'),
  };
  const campaignDates = datesEnding(shape.today, shape.campaignDays);
  const adSetDates = datesEnding(shape.today, shape.adSetDays);
  const out: WalkedAgency = {
    accountIds: [],
    sampleCampaignIds: [],
    currencies: [],
    rows: {
      campaigns: 0,
      adSets: 0,
      campaignDays: 0,
      adSetDays: 0,
      syncRuns: 0,
      diagnoses: 0,
      resolvedIssues: 0,
    },
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
    history(shape, { workspaceId, accountId, index }, nextId, sink, out.rows);
    await sink.endAccount();
    progress(index + 1, out.rows);
  }
  out.currencies = [...currencies].sort();
  return out;
}

const HOUR_MS = 3_600_000;
/** Days of automatic diagnoses an account holds, one a day past the last whole ones. */
const DIAGNOSIS_HISTORY_DAYS = 90;
/** Days of resolved issues, two a day: 200 an account, 100,000 in the agency. */
const RESOLVED_ISSUE_DAYS = 100;
/**
 * A diagnosis's stored result, small: real ones are about 65 KB for 100 campaigns, which is disk, not
 * the reads measured here (a list never reads it; a stored diagnosis's GET reads one the bench made).
 */
const HISTORY_RESULT = JSON.stringify({
  metrics: null,
  issues: [],
  recommendations: [],
  campaignsAnalyzed: 100,
});

/**
 * An account's history in steady state: an hourly sync for the last SYNC_RUNS_KEPT_DAYS days (the
 * 03:00 one full, one in 40 failed), each judged, with the automatic diagnosis it brought kept hour by
 * hour for DIAGNOSES_KEPT_WHOLE_DAYS days and the day's last before that.
 */
function history(
  shape: AgencyShape,
  owner: { workspaceId: string; accountId: string; index: number },
  nextId: { run: () => string; diag: () => string; issue: () => string },
  sink: AgencySink,
  rows: WalkedAgency['rows'],
): void {
  const { workspaceId, accountId, index } = owner;
  // The last hour of `today`, each account a few minutes apart.
  const last = Date.parse(`${shape.today}T23:00:00Z`) + (index % 50) * 60_000;
  const iso = (ms: number) => new Date(ms).toISOString();
  for (let h = SYNC_RUNS_KEPT_DAYS * 24 - 1; h >= 0; h--) {
    const started = last - h * HOUR_MS;
    const failed = (index + h) % 40 === 7;
    const full = new Date(started).getUTCHours() === 3;
    sink.row('sync_runs', [
      nextId.run(),
      accountId,
      full ? 'full' : 'incremental',
      failed ? 'failed' : 'completed',
      'done',
      100,
      failed ? '{"type":"platform_error","message":"Service temporarily unavailable"}' : null,
      failed ? '{}' : `{"changedCampaignIds":[],"campaigns":100,"insightRows":${full ? 2400 : 100}}`,
      iso(started),
      iso(started + 40_000),
      failed ? null : iso(started + 60_000),
    ]);
    rows.syncRuns += 1;
  }
  for (let h = DIAGNOSIS_HISTORY_DAYS * 24 - 1; h >= 0; h--) {
    const created = last - h * HOUR_MS + 90_000;
    const wholeDay = h < DIAGNOSES_KEPT_WHOLE_DAYS * 24;
    const lastOfDay = new Date(created).getUTCHours() === 23;
    if (!wholeDay && !lastOfDay) continue;
    // The watcher's window, as of the day it ran.
    const window = diagnosticWindow(addDays(shape.today, -Math.floor(h / 24)));
    const risk = ['LOW', 'MEDIUM', 'HIGH', 'LOW'][(index + h) % 4] as string;
    sink.row('diagnostics', [
      nextId.diag(),
      workspaceId,
      accountId,
      'completed',
      window.from,
      window.to,
      risk,
      `${risk === 'LOW' ? 'No' : 'Two'} issues across 100 campaigns`,
      risk === 'LOW' ? 0 : 2,
      risk === 'LOW' ? 0 : 3,
      HISTORY_RESULT,
      1800,
      iso(created),
      iso(created + 1_000),
      iso(created + 2_800),
      'automatic',
      '[]',
      wholeDay ? 0 : 1,
    ]);
    rows.diagnoses += 1;
  }
  // Two problems a day found and later resolved over the last RESOLVED_ISSUE_DAYS days, of every
  // severity, each on an entity of its own (account-wide, so no campaign is named).
  const types = ['CPA_DEGRADATION', 'CTR_DECLINE', 'CREATIVE_FATIGUE', 'BUDGET_PACING'];
  const severities = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'];
  for (let n = 0; n < RESOLVED_ISSUE_DAYS * 2; n++) {
    const opened = last - (RESOLVED_ISSUE_DAYS * 24 - n * 12) * HOUR_MS;
    const resolved = Math.min(last, opened + ((n % 5) + 1) * 6 * HOUR_MS);
    const severity = severities[(index + n) % 4] as string;
    sink.row('issues', [
      nextId.issue(),
      workspaceId,
      accountId,
      types[n % 4] as string,
      `${accountId}:${n}`,
      `Ad set ${n}`,
      'resolved',
      severity,
      severity,
      'Cost per result up',
      'Cost per result rose 40% against the previous 7 days.',
      '{"cpaChange":0.4}',
      `diag_history_${n}`,
      iso(opened),
      iso(resolved),
      iso(resolved),
    ]);
    rows.resolvedIssues += 1;
  }
}
