// Loads campaign snapshots for the engine with a fixed set of statements, one per table, for any
// number of campaigns at once (an account-level diagnostic never does N+1 queries), through the store
// boundary: the diagnosis worker's own SQLite connection, or a team server's PostgreSQL.
import { parseIssues } from '../campaigns/blockers';
import { addDays } from '../clock';
import type { MetaRecommendations } from '../../shared/api/diagnostics';
import { jsonValues } from '../store/dialect';
import type { Sql } from '../store/sql';
import type { PeerTotals } from './goal-judgement';
import { parseTargeting } from './targeting';
import type { AdData, AdSetData, CampaignData, ChangeRecord, DayRow, LearningSnapshot } from './types';

interface CampaignRow {
  id: string;
  account_id: string;
  platform_campaign_id: string;
  name: string;
  status: string;
  effective_status: string;
  objective: string;
  result_type: string | null;
  smart_promotion_type: string | null;
  bid_strategy: string | null;
  daily_budget_micros: number | null;
  lifetime_budget_micros: number | null;
  start_time: string | null;
  stop_time: string | null;
  target_cpa_micros: number | null;
  currency: string;
  timezone: string;
  account_status: string;
  disable_reason: number;
  spend_cap_micros: number | null;
  amount_spent_micros: number | null;
}

interface ChangeRow {
  campaign_id: string;
  event_time: string;
  change_type: string;
  event_type: string;
  object_type: string;
  ad_set_id: string | null;
  ad_id: string | null;
  old_value: string | null;
  new_value: string | null;
}

interface AdSetRow {
  id: string;
  campaign_id: string;
  platform_ad_set_id: string;
  name: string;
  status: string;
  effective_status: string;
  daily_budget_micros: number | null;
  lifetime_budget_micros: number | null;
  bid_strategy: string | null;
  bid_amount_micros: number | null;
  optimization_goal: string | null;
  promoted_event: string | null;
  result_type: string | null;
  result_name: string | null;
  targeting: string;
  learning_status: string | null;
  learning_conversions: number | null;
  last_significant_edit_at: string | null;
  created_time: string;
}

interface AdRow {
  id: string;
  campaign_id: string;
  ad_set_id: string;
  name: string;
  status: string;
  effective_status: string;
  created_time: string;
  issues_info: string;
}

/** A daily row as read (arrays, not objects: an account's diagnosis reads hundreds of thousands). */
type DailyTuple = [
  entityId: string,
  date: string,
  spend: number,
  impressions: number,
  clicks: number,
  linkClicks: number,
  conversions: number,
  revenue: number,
  reach: number,
  frequency: number,
];

interface SnapshotRow {
  ad_set_id: string;
  observed_on: string;
  status: string;
  conversions: number;
  last_significant_edit_at: string | null;
}

interface Statements {
  campaigns: string;
  adSets: string;
  snapshots: string;
  ads: string;
  campaignDaily: string;
  adSetDaily: string;
  adDaily: string;
  delivering: string;
  changes: string;
}

const METRICS = `date, spend_micros, impressions, clicks, link_clicks, conversions, revenue_micros, reach, frequency`;

/** One text per statement and engine (only the JSON list of IDs differs), so plans stay cached. */
function statementsFor(sql: Sql): Statements {
  const IDS = jsonValues(sql);
  return {
    campaigns: `
      SELECT c.id, c.account_id, c.platform_campaign_id, c.name, c.status, c.effective_status, c.objective, c.result_type,
        c.smart_promotion_type, c.bid_strategy, c.daily_budget_micros, c.lifetime_budget_micros, c.start_time, c.stop_time,
        c.target_cpa_micros, a.currency, a.timezone, a.status AS account_status, a.disable_reason,
        a.spend_cap_micros, a.amount_spent_micros
      FROM campaigns c JOIN ad_accounts a ON a.id = c.account_id
      WHERE c.id IN ${IDS} ORDER BY c.id`,
    adSets: `
      SELECT id, campaign_id, platform_ad_set_id, name, status, effective_status, daily_budget_micros,
        lifetime_budget_micros, bid_strategy, bid_amount_micros, optimization_goal, promoted_event, result_type, result_name, targeting,
        learning_status, learning_conversions, last_significant_edit_at, created_time
      FROM ad_sets WHERE campaign_id IN ${IDS} ORDER BY id`,
    snapshots: `
      SELECT l.ad_set_id, l.observed_on, l.status, l.conversions, l.last_significant_edit_at
      FROM learning_stage_snapshots l JOIN ad_sets s ON s.id = l.ad_set_id
      WHERE s.campaign_id IN ${IDS} AND l.observed_on <= ? ORDER BY l.ad_set_id, l.observed_on`,
    ads: `
      SELECT id, campaign_id, ad_set_id, name, status, effective_status, created_time, issues_info
      FROM ads WHERE campaign_id IN ${IDS} ORDER BY id`,
    changes: `
      SELECT campaign_id, event_time, change_type, event_type, object_type, ad_set_id, ad_id, old_value, new_value
      FROM change_events WHERE campaign_id IN ${IDS} AND event_time >= ? AND event_time < ?
      ORDER BY campaign_id, event_time, id`,
    // Days in date order within each campaign (SQLite reads them so from its (campaign_id, date) key
    // at no extra cost; PostgreSQL needs telling): each entity's days keep one order on both engines.
    campaignDaily: `SELECT campaign_id AS entity_id, ${METRICS} FROM insights_campaign_daily WHERE campaign_id IN ${IDS} AND date BETWEEN ? AND ?
      ORDER BY campaign_id, date`,
    adSetDaily: `SELECT ad_set_id AS entity_id, ${METRICS} FROM insights_ad_set_daily WHERE campaign_id IN ${IDS} AND date BETWEEN ? AND ?
      ORDER BY campaign_id, date`,
    adDaily: `SELECT ad_id AS entity_id, ${METRICS} FROM insights_ad_daily WHERE campaign_id IN ${IDS} AND date BETWEEN ? AND ?
      ORDER BY campaign_id, date`,
    // Archived and deleted campaigns are history: an account-level diagnostic does not judge them.
    delivering: `
      SELECT DISTINCT d.campaign_id FROM insights_campaign_daily d JOIN campaigns c ON c.id = d.campaign_id
      WHERE d.account_id = ? AND d.date BETWEEN ? AND ? AND (d.spend_micros > 0 OR d.impressions > 0)
        AND c.effective_status NOT IN ('ARCHIVED', 'DELETED')
      ORDER BY d.campaign_id`,
  };
}

const TEXTS: Partial<Record<Sql['engine'], Statements>> = {};
const statements = (sql: Sql): Statements => (TEXTS[sql.engine] ??= statementsFor(sql));

function fillDaily(rows: DailyTuple[], target: Map<string, Map<string, DayRow>>): void {
  for (const [
    entityId,
    date,
    spend,
    impressions,
    clicks,
    linkClicks,
    conversions,
    revenue,
    reach,
    frequency,
  ] of rows) {
    let map = target.get(entityId);
    if (!map) {
      map = new Map();
      target.set(entityId, map);
    }
    map.set(date, { date, spend, impressions, clicks, linkClicks, conversions, revenue, reach, frequency });
  }
}

/** Live (not archived or deleted) campaigns of an account with any delivery in [from, to]. */
export async function campaignsWithDelivery(
  sql: Sql,
  accountId: string,
  from: string,
  to: string,
): Promise<string[]> {
  const rows = await sql.all<{ campaign_id: string }>(statements(sql).delivering, [accountId, from, to]);
  return rows.map((r) => r.campaign_id);
}

/**
 * Snapshots of the given campaigns with daily rows from `loadFrom` to `to` (range plus baseline),
 * and learning snapshots observed up to `to`. Missing campaign IDs are skipped.
 */
export async function loadCampaigns(
  sql: Sql,
  campaignIds: readonly string[],
  loadFrom: string,
  to: string,
  /** `adSetsOnly`: campaigns and ad sets with their daily rows, no ads (sibling campaigns for overlap). */
  options: { adSetsOnly?: boolean } = {},
): Promise<CampaignData[]> {
  if (campaignIds.length === 0) return [];
  const s = statements(sql);
  const ids = JSON.stringify(campaignIds);
  const light = options.adSetsOnly === true;
  const campaignRows = await sql.all<CampaignRow>(s.campaigns, [ids]);
  const adSetRows = await sql.all<AdSetRow>(s.adSets, [ids]);
  const snapshotRows = light ? [] : await sql.all<SnapshotRow>(s.snapshots, [ids, to]);
  const adRows = light ? [] : await sql.all<AdRow>(s.ads, [ids]);
  const campaignDaily = new Map<string, Map<string, DayRow>>();
  const adSetDaily = new Map<string, Map<string, DayRow>>();
  const adDaily = new Map<string, Map<string, DayRow>>();
  if (!light) fillDaily(await sql.values<DailyTuple>(s.campaignDaily, [ids, loadFrom, to]), campaignDaily);
  fillDaily(await sql.values<DailyTuple>(s.adSetDaily, [ids, loadFrom, to]), adSetDaily);
  if (!light) fillDaily(await sql.values<DailyTuple>(s.adDaily, [ids, loadFrom, to]), adDaily);

  const snapshots = new Map<string, LearningSnapshot[]>();
  for (const r of snapshotRows) {
    const list = snapshots.get(r.ad_set_id) ?? [];
    list.push({
      observedOn: r.observed_on,
      status: r.status,
      conversions: r.conversions,
      lastSignificantEditAt: r.last_significant_edit_at,
    });
    snapshots.set(r.ad_set_id, list);
  }
  const adSetsByCampaign = new Map<string, AdSetData[]>();
  for (const r of adSetRows) {
    const adSet: AdSetData = {
      id: r.id,
      platformAdSetId: r.platform_ad_set_id,
      name: r.name,
      status: r.status,
      effectiveStatus: r.effective_status,
      dailyBudget: r.daily_budget_micros,
      lifetimeBudget: r.lifetime_budget_micros,
      bidStrategy: r.bid_strategy,
      bidAmount: r.bid_amount_micros,
      optimizationGoal: r.optimization_goal,
      promotedEvent: r.promoted_event,
      resultType: r.result_type,
      resultName: r.result_name,
      targeting: parseTargeting(r.targeting),
      learningStatus: r.learning_status,
      learningConversions: r.learning_conversions,
      lastSignificantEditAt: r.last_significant_edit_at,
      createdTime: r.created_time,
      snapshots: snapshots.get(r.id) ?? [],
      daily: adSetDaily.get(r.id) ?? new Map(),
    };
    const list = adSetsByCampaign.get(r.campaign_id) ?? [];
    list.push(adSet);
    adSetsByCampaign.set(r.campaign_id, list);
  }
  const adsByCampaign = new Map<string, AdData[]>();
  for (const r of adRows) {
    const list = adsByCampaign.get(r.campaign_id) ?? [];
    list.push({
      id: r.id,
      adSetId: r.ad_set_id,
      name: r.name,
      status: r.status,
      effectiveStatus: r.effective_status,
      createdTime: r.created_time,
      daily: adDaily.get(r.id) ?? new Map(),
      issues: parseIssues(r.issues_info),
    });
    adsByCampaign.set(r.campaign_id, list);
  }
  // Edits up to the end of `to` (UTC bounds: a day of slack either side of the account's own day).
  const changeRows = light
    ? []
    : await sql.all<ChangeRow>(s.changes, [ids, addDays(loadFrom, -1), `${addDays(to, 2)}T00:00:00.000Z`]);
  const changesByCampaign = new Map<string, ChangeRecord[]>();
  for (const r of changeRows) {
    const list = changesByCampaign.get(r.campaign_id) ?? [];
    list.push({
      at: r.event_time,
      changeType: r.change_type,
      eventType: r.event_type,
      objectType: r.object_type,
      adSetId: r.ad_set_id,
      adId: r.ad_id,
      oldValue: r.old_value,
      newValue: r.new_value,
    });
    changesByCampaign.set(r.campaign_id, list);
  }
  return campaignRows.map((r) => ({
    id: r.id,
    accountId: r.account_id,
    platformCampaignId: r.platform_campaign_id,
    name: r.name,
    status: r.status,
    effectiveStatus: r.effective_status,
    objective: r.objective,
    smartPromotionType: r.smart_promotion_type,
    resultType: r.result_type,
    bidStrategy: r.bid_strategy,
    dailyBudget: r.daily_budget_micros,
    lifetimeBudget: r.lifetime_budget_micros,
    startTime: r.start_time,
    stopTime: r.stop_time,
    targetCpa: r.target_cpa_micros,
    currency: r.currency,
    timezone: r.timezone,
    adSets: adSetsByCampaign.get(r.id) ?? [],
    ads: adsByCampaign.get(r.id) ?? [],
    daily: campaignDaily.get(r.id) ?? new Map(),
    account: {
      status: r.account_status,
      disableReason: r.disable_reason,
      spendCap: r.spend_cap_micros,
      amountSpent: r.amount_spent_micros,
    },
    changes: changesByCampaign.get(r.id) ?? [],
  }));
}

/**
 * Meta's own recommendations for the account as last synced: all of them for an account-level
 * diagnostic, the campaign's and the account-wide ones for a campaign. Null: Meta offers none here.
 */
export async function loadMetaRecommendations(
  sql: Sql,
  accountId: string,
  campaignId: string | null,
): Promise<MetaRecommendations | null> {
  const account = await sql.get<{
    opportunity_score: number | null;
    platform_recommendations_read_at: string | null;
  }>(`SELECT opportunity_score, platform_recommendations_read_at FROM ad_accounts WHERE id = ?`, [accountId]);
  if (!account?.platform_recommendations_read_at) return null;
  const rows = await sql.all<{
    type: string;
    title: string;
    body: string;
    lift_estimate: string | null;
    points: number | null;
    campaign_id: string | null;
    campaign_name: string | null;
  }>(
    `SELECT r.type, r.title, r.body, r.lift_estimate, r.points, r.campaign_id, c.name AS campaign_name
     FROM platform_recommendations r LEFT JOIN campaigns c ON c.id = r.campaign_id
     WHERE r.account_id = ? AND (CAST(? AS TEXT) IS NULL OR r.campaign_id IS NULL OR r.campaign_id = ?)
     ORDER BY r.position`,
    [accountId, campaignId, campaignId],
  );
  return {
    opportunityScore: account.opportunity_score,
    readAt: account.platform_recommendations_read_at,
    items: rows.map((r) => ({
      type: r.type,
      title: r.title,
      body: r.body,
      liftEstimate: r.lift_estimate,
      points: r.points,
      campaignId: r.campaign_id,
      campaignName: r.campaign_name,
    })),
  };
}

/**
 * Every campaign of the account summed over a window (micros), with its result type: the account's
 * median cost per result and ROAS that a campaign is shown beside (goal-judgement.ts).
 */
export function accountPeers(sql: Sql, accountId: string, from: string, to: string): Promise<PeerTotals[]> {
  // The result type is the campaign's own (one per campaign): grouped on it for PostgreSQL.
  return sql.all<PeerTotals>(
    `SELECT d.campaign_id AS campaignId, c.result_type AS resultType, sum(d.spend_micros) AS spend,
       sum(d.conversions) AS conversions, sum(d.revenue_micros) AS revenue
     FROM insights_campaign_daily d JOIN campaigns c ON c.id = d.campaign_id
     WHERE d.account_id = ? AND d.date BETWEEN ? AND ?
     GROUP BY d.campaign_id, c.result_type ORDER BY d.campaign_id`,
    [accountId, from, to],
  );
}
