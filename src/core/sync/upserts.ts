// What a sync writes: campaigns, ad sets, ads, statuses, learning snapshots and daily insight rows of
// one account, upserted through the store boundary; and the maps that link children to parents.
import { newId } from '../ids';
import {
  budgetMicros,
  graphTimeToIso,
  insightMetrics,
  type InsightMetrics,
  unixToIso,
  type PlatformAd,
  type PlatformAdAccount,
  type PlatformAdIssues,
  type PlatformAdSet,
  type PlatformAdSetStatus,
  type PlatformAdStatus,
  type PlatformCampaign,
  type PlatformCampaignStatus,
  type PlatformInsightRow,
  type PlatformRecommendation,
} from '../platform/parse';
import { minorToMicros } from '../money';
import { campaignResult, resultName, resultOf, type ResultSpec, type ResultType } from '../platform/results';
import { jsonRows, type JsonColumnKind } from '../store/dialect';
import type { Sql, SqlValue } from '../store/sql';

/** Platform ID → service IDs of an account's synced objects, for linking children and insight rows. */
export interface ObjectMaps {
  campaigns: Map<string, { id: string }>;
  adSets: Map<string, { id: string; campaignId: string; result: ResultSpec | null }>;
  ads: Map<string, { id: string; campaignId: string; adSetId: string; result: ResultSpec | null }>;
  /** A campaign's result: its ad sets' when they agree; null (nothing counted) when mixed or unknown. */
  campaignResults: Map<string, ResultSpec | null>;
  /** The campaign's result type as shown (MIXED and UNKNOWN included), when its ad sets have one. */
  campaignResultTypes: Map<string, ResultType>;
}

/** Statuses that mean an object is gone from Ads Manager's live lists; kept locally as history. */
export const REMOVED_STATUSES = ['ARCHIVED', 'DELETED'] as const;

const UPSERT_CAMPAIGN = `INSERT INTO campaigns (id, account_id, platform_campaign_id, name, status, effective_status,
    objective, buying_type, bid_strategy, daily_budget_micros, lifetime_budget_micros, special_ad_categories,
    start_time, stop_time, created_time, updated_time, last_synced_at, smart_promotion_type)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (account_id, platform_campaign_id) DO UPDATE SET
    name = excluded.name, status = excluded.status, effective_status = excluded.effective_status,
    objective = excluded.objective, buying_type = excluded.buying_type, bid_strategy = excluded.bid_strategy,
    daily_budget_micros = excluded.daily_budget_micros, lifetime_budget_micros = excluded.lifetime_budget_micros,
    special_ad_categories = excluded.special_ad_categories, start_time = excluded.start_time,
    stop_time = excluded.stop_time, created_time = excluded.created_time, updated_time = excluded.updated_time,
    last_synced_at = excluded.last_synced_at, smart_promotion_type = excluded.smart_promotion_type`;

const UPSERT_AD_SET = `INSERT INTO ad_sets (id, account_id, campaign_id, platform_ad_set_id, name, status,
    effective_status, daily_budget_micros, lifetime_budget_micros, bid_strategy, bid_amount_micros, billing_event,
    optimization_goal, promoted_event, targeting, learning_status, learning_conversions,
    last_significant_edit_at, created_time, updated_time, last_synced_at, result_type, result_detail,
    result_name, attribution_spec)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (account_id, platform_ad_set_id) DO UPDATE SET
    campaign_id = excluded.campaign_id, name = excluded.name, status = excluded.status,
    effective_status = excluded.effective_status, daily_budget_micros = excluded.daily_budget_micros,
    lifetime_budget_micros = excluded.lifetime_budget_micros, bid_strategy = excluded.bid_strategy,
    bid_amount_micros = excluded.bid_amount_micros, billing_event = excluded.billing_event,
    optimization_goal = excluded.optimization_goal, promoted_event = excluded.promoted_event,
    targeting = excluded.targeting, learning_status = excluded.learning_status,
    learning_conversions = excluded.learning_conversions,
    last_significant_edit_at = excluded.last_significant_edit_at, created_time = excluded.created_time,
    updated_time = excluded.updated_time, last_synced_at = excluded.last_synced_at,
    result_type = excluded.result_type, result_detail = excluded.result_detail,
    result_name = excluded.result_name, attribution_spec = excluded.attribution_spec
  RETURNING id`;

const UPDATE_AD_SET_STATUS = `UPDATE ad_sets SET status = ?, effective_status = ?, learning_status = ?,
    learning_conversions = ?,
    last_significant_edit_at = COALESCE(CAST(? AS TEXT), last_significant_edit_at), last_synced_at = ?
  WHERE account_id = ? AND platform_ad_set_id = ?
  RETURNING id`;

const UPDATE_CAMPAIGN_STATUS = `UPDATE campaigns SET status = ?, effective_status = ?
  WHERE account_id = ? AND platform_campaign_id = ?
    AND (status IS DISTINCT FROM ? OR effective_status IS DISTINCT FROM ?)`;

// Children of a removed parent are removed with it (Meta derives their effective status so).
const REMOVE_AD_SET_CHILDREN = `UPDATE ads SET effective_status = ?
  WHERE ad_set_id = ? AND effective_status NOT IN ('ARCHIVED', 'DELETED')`;

const REMOVE_CAMPAIGN_CHILDREN = `UPDATE ad_sets SET effective_status = ?, learning_status = NULL
  WHERE account_id = ? AND campaign_id = (
    SELECT id FROM campaigns WHERE account_id = ? AND platform_campaign_id = ?)
    AND effective_status NOT IN ('ARCHIVED', 'DELETED')`;

const UPSERT_SNAPSHOT = `INSERT INTO learning_stage_snapshots (ad_set_id, observed_on, status, conversions,
    last_significant_edit_at)
  VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (ad_set_id, observed_on) DO UPDATE SET status = excluded.status,
    conversions = excluded.conversions, last_significant_edit_at = excluded.last_significant_edit_at`;

const UPSERT_AD = `INSERT INTO ads (id, account_id, campaign_id, ad_set_id, platform_ad_id, name, status,
    effective_status, creative_id, issues_info, created_time, updated_time, last_synced_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (account_id, platform_ad_id) DO UPDATE SET
    campaign_id = excluded.campaign_id, ad_set_id = excluded.ad_set_id, name = excluded.name,
    status = excluded.status, effective_status = excluded.effective_status, creative_id = excluded.creative_id,
    issues_info = excluded.issues_info,
    created_time = excluded.created_time, updated_time = excluded.updated_time,
    last_synced_at = excluded.last_synced_at`;

const UPDATE_AD_STATUS = `UPDATE ads SET status = ?, effective_status = ?, issues_info = ?
  WHERE account_id = ? AND platform_ad_id = ?
    AND (status IS DISTINCT FROM ? OR effective_status IS DISTINCT FROM ? OR issues_info IS DISTINCT FROM ?)`;

const METRICS = [
  'spend_micros',
  'impressions',
  'clicks',
  'link_clicks',
  'conversions',
  'revenue_micros',
  'reach',
  'frequency',
] as const;
const METRIC_KINDS: readonly JsonColumnKind[] = METRICS.map((m) => (m === 'frequency' ? 'real' : 'integer'));

// The hot path of a sync writes ~100k of these rows. An update that would leave the row as it is is
// skipped (WHERE), so re-reading 28 days writes (and rolls up) only what changed: such a row is not
// counted (`changes` 0, or not RETURNed) on either engine.
function upsertDaily(table: string, keys: readonly string[], rows: string): string {
  const [objectKey, dateKey] = keys;
  return `INSERT INTO ${table} (${[...keys, ...METRICS].join(', ')})
  ${rows}
  ON CONFLICT (${objectKey}, ${dateKey}) DO UPDATE SET ${METRICS.map((m) => `${m} = excluded.${m}`).join(', ')}
  WHERE ${METRICS.map((m) => `${table}.${m} IS DISTINCT FROM excluded.${m}`).join(' OR ')}`;
}

/**
 * A daily insight table: its key columns (object, date, then the parents it is filed under), its
 * one-row upsert (SQLite), and the same upsert of a page of rows in one JSON parameter, RETURNING the
 * keys it wrote (PostgreSQL).
 */
interface DailyTable {
  oneRow: string;
  pageOfRows: string;
}

function dailyTable(table: string, keys: readonly string[]): DailyTable {
  const columns = [...keys, ...METRICS];
  const kinds: JsonColumnKind[] = [...keys.map(() => 'text' as const), ...METRIC_KINDS];
  return {
    oneRow: upsertDaily(table, keys, `VALUES (${columns.map(() => '?').join(', ')})`),
    pageOfRows: `${upsertDaily(table, keys, `${jsonRows('postgres', kinds)} WHERE true`)}
  RETURNING ${keys[0]}, ${keys[1]}`,
  };
}

const CAMPAIGN_DAILY = dailyTable('insights_campaign_daily', ['campaign_id', 'date', 'account_id']);
const AD_SET_DAILY = dailyTable('insights_ad_set_daily', ['ad_set_id', 'date', 'account_id', 'campaign_id']);
const AD_DAILY = dailyTable('insights_ad_daily', ['ad_id', 'date', 'account_id', 'campaign_id', 'ad_set_id']);

/** Rows per statement on PostgreSQL: one JSON parameter each. */
const ROWS_PER_STATEMENT = 1000;

/**
 * Upserts a page of one level's daily rows (each in `upsertDaily`'s column order); returns the
 * indexes of the rows inserted or changed. A key twice in a page is written once, with its last
 * values (what row-by-row upserts leave). SQLite runs a prepared statement per row, in process. On
 * PostgreSQL each statement is a round trip and fires the account rollup's statement trigger, so the
 * page goes as one statement per 1,000 rows that RETURNs the keys it wrote.
 */
async function upsertDays(tx: Sql, daily: DailyTable, rows: readonly SqlValue[][]): Promise<number[]> {
  // The last row of each key, in page order.
  const last = new Map<string, number>();
  for (const [i, values] of rows.entries()) last.set(`${String(values[0])}|${String(values[1])}`, i);
  const indexes = last.size === rows.length ? [...rows.keys()] : [...last.values()].sort((a, b) => a - b);
  const written: number[] = [];
  if (tx.engine === 'sqlite') {
    for (const i of indexes) if ((await tx.run(daily.oneRow, rows[i] as SqlValue[])).changes) written.push(i);
    return written;
  }
  for (let start = 0; start < indexes.length; start += ROWS_PER_STATEMENT) {
    const chunk = indexes.slice(start, start + ROWS_PER_STATEMENT);
    const returned = await tx.values<[string, string]>(daily.pageOfRows, [
      JSON.stringify(chunk.map((i) => rows[i])),
    ]);
    for (const [objectId, date] of returned) {
      const i = last.get(`${objectId}|${date}`);
      if (i !== undefined) written.push(i);
    }
  }
  return written.sort((a, b) => a - b);
}

const MARK_CAMPAIGN_MISSING = `UPDATE campaigns SET status = 'DELETED', effective_status = 'DELETED'
  WHERE account_id = ? AND platform_campaign_id = ? AND effective_status <> 'DELETED'`;
const MARK_AD_SET_MISSING = `UPDATE ad_sets SET status = 'DELETED', effective_status = 'DELETED',
    learning_status = NULL
  WHERE account_id = ? AND platform_ad_set_id = ? AND effective_status <> 'DELETED'`;

const NAME_CUSTOM_CONVERSION = `UPDATE ad_sets SET result_name = ?
  WHERE account_id = ? AND result_type = 'CUSTOM_CONVERSION' AND result_detail = ?
    AND result_name IS DISTINCT FROM ?`;

const STORE_CAMPAIGN_RESULT = `UPDATE campaigns SET result_type = ?, result_name = ?
  WHERE id = ? AND (result_type IS DISTINCT FROM ? OR result_name IS DISTINCT FROM ?)`;

/**
 * Everything a sync writes, a page per transaction (a process killed mid-way keeps what it
 * committed). Each upsert keys on (account, platform ID), so re-reading an object updates it in place
 * and keeps its service ID; insight rows key on (object, date). Writes of one sync are serialized:
 * insight pieces read side by side, and on PostgreSQL two of their pages rolling up the same
 * account-days in different orders could deadlock.
 */
export class SyncWriter {
  /** Insight rows actually inserted or changed (an identical re-read writes nothing). */
  rowsWritten = 0;
  /** Campaigns (service IDs) with an insight row inserted or changed: what a re-diagnosis re-judges. */
  readonly changedCampaigns = new Set<string>();
  /**
   * While set, ad-set days before `before` whose stored row changed are recorded here: an incremental
   * sync re-reads the ads of those ad sets only (an ad set's day is the sum of its ads' days).
   */
  adSetChanges: { before: string; ids: Set<string>; from: string | null; until: string | null } | null = null;
  private writing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly sql: Sql,
    private readonly accountId: string,
    private readonly currency: string,
  ) {}

  /** One transaction after the writes this sync queued before it. */
  private write<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    const run = () => this.sql.transaction(work);
    const next = this.writing.then(run, run);
    this.writing = next.catch(() => undefined);
    return next;
  }

  async campaigns(rows: readonly PlatformCampaign[], now: string): Promise<void> {
    await this.write(async (tx) => {
      for (const c of rows) {
        await tx.run(UPSERT_CAMPAIGN, [
          newId('camp'),
          this.accountId,
          c.id,
          c.name,
          c.status,
          c.effective_status ?? c.status,
          c.objective,
          c.buying_type,
          c.bid_strategy ?? null,
          budgetMicros(c.daily_budget, this.currency),
          budgetMicros(c.lifetime_budget, this.currency),
          JSON.stringify(c.special_ad_categories),
          graphTimeToIso(c.start_time),
          graphTimeToIso(c.stop_time),
          graphTimeToIso(c.created_time) ?? now,
          graphTimeToIso(c.updated_time ?? c.created_time) ?? now,
          now,
          c.smart_promotion_type ?? null,
        ]);
      }
    });
  }

  /**
   * Meta's own recommendations for the account, replacing the last read; each is tied to the campaign
   * of the first object it names that is synced (a campaign, an ad set or an ad). Null: unavailable.
   */
  async platformRecommendations(
    read: { opportunityScore: number | null; items: readonly PlatformRecommendation[] } | null,
    maps: ObjectMaps,
    now: string,
  ): Promise<void> {
    const campaignOf = (objectId: string): string | null =>
      maps.campaigns.get(objectId)?.id ??
      maps.adSets.get(objectId)?.campaignId ??
      maps.ads.get(objectId)?.campaignId ??
      null;
    await this.write(async (tx) => {
      await tx.run(`DELETE FROM platform_recommendations WHERE account_id = ?`, [this.accountId]);
      await tx.run(
        `UPDATE ad_accounts SET opportunity_score = ?, platform_recommendations_read_at = ? WHERE id = ?`,
        [read?.opportunityScore ?? null, read ? now : null, this.accountId],
      );
      if (!read) return;
      for (const [position, r] of read.items.entries()) {
        const content = r.recommendation_content ?? {};
        const campaignId = r.object_ids.map(campaignOf).find((id) => id !== null) ?? null;
        await tx.run(
          `INSERT INTO platform_recommendations (account_id, position, type, title, body, lift_estimate, points,
             object_ids, campaign_id)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
            this.accountId,
            position,
            r.type,
            content.headline ?? content.title ?? r.type.toLowerCase().replace(/_/g, ' '),
            content.body ?? '',
            content.lift_estimate ?? null,
            content.opportunity_score_lift ?? null,
            JSON.stringify(r.object_ids),
            campaignId,
          ],
        );
      }
    });
  }

  /** Returns how many were skipped because their campaign is unknown (hidden or deleted parents). */
  async adSets(
    rows: readonly PlatformAdSet[],
    maps: ObjectMaps,
    now: string,
    observedOn: string,
  ): Promise<number> {
    let orphans = 0;
    await this.write(async (tx) => {
      for (const s of rows) {
        const campaign = maps.campaigns.get(s.campaign_id);
        if (!campaign) {
          orphans += 1;
          continue;
        }
        const learning = s.learning_stage_info ?? null;
        const lastEdit = unixToIso(learning?.last_sig_edit_ts);
        const result = resultOf(s.optimization_goal, s.promoted_object);
        const stored = await tx.get<{ id: string }>(UPSERT_AD_SET, [
          newId('adset'),
          this.accountId,
          campaign.id,
          s.id,
          s.name,
          s.status,
          s.effective_status ?? s.status,
          budgetMicros(s.daily_budget, this.currency),
          budgetMicros(s.lifetime_budget, this.currency),
          s.bid_strategy ?? null,
          budgetMicros(s.bid_amount, this.currency),
          s.billing_event ?? null,
          s.optimization_goal ?? null,
          s.promoted_object?.custom_event_type ?? null,
          JSON.stringify(s.targeting ?? {}),
          learning?.status ?? null,
          learning ? Math.round(learning.conversions) : null,
          lastEdit,
          graphTimeToIso(s.created_time) ?? now,
          graphTimeToIso(s.updated_time ?? s.created_time) ?? now,
          now,
          result.type,
          result.detail,
          resultName(result),
          s.attribution_spec ? JSON.stringify(s.attribution_spec) : null,
        ]);
        if (learning && stored) await saveSnapshot(tx, stored.id, observedOn, learning, lastEdit);
      }
    });
    return orphans;
  }

  async ads(rows: readonly PlatformAd[], maps: ObjectMaps, now: string): Promise<number> {
    let orphans = 0;
    await this.write(async (tx) => {
      for (const a of rows) {
        const adSet = maps.adSets.get(a.adset_id);
        if (!adSet) {
          orphans += 1;
          continue;
        }
        await tx.run(UPSERT_AD, [
          newId('ad'),
          this.accountId,
          adSet.campaignId,
          adSet.id,
          a.id,
          a.name,
          a.status,
          a.effective_status ?? a.status,
          a.creative?.id ?? null,
          issuesJson(a.issues_info),
          graphTimeToIso(a.created_time) ?? now,
          graphTimeToIso(a.updated_time ?? a.created_time) ?? now,
          now,
        ]);
      }
    });
    return orphans;
  }

  /** Writes one page of insight rows at a level in one transaction; returns rows skipped as unknown. */
  async insights(
    level: 'campaign' | 'adset' | 'ad',
    rows: readonly PlatformInsightRow[],
    maps: ObjectMaps,
  ): Promise<number> {
    let unknown = 0;
    const accountId = this.accountId;
    // Each row as written, with what a change to it means: its campaign, and for an ad-set day the
    // ad set's platform ID (an incremental sync re-reads that ad set's ads).
    const days: SqlValue[][] = [];
    const meaning: { campaignId: string; adSetDay?: { platformId: string; date: string } }[] = [];
    for (const row of rows) {
      if (level === 'campaign') {
        const campaign = row.campaign_id ? maps.campaigns.get(row.campaign_id) : undefined;
        if (!campaign || !row.campaign_id) {
          unknown += 1;
          continue;
        }
        const m = insightMetrics(row, maps.campaignResults.get(row.campaign_id) ?? null);
        days.push([campaign.id, m.date, accountId, ...metricValues(m)]);
        meaning.push({ campaignId: campaign.id });
      } else if (level === 'adset') {
        const adSet = row.adset_id ? maps.adSets.get(row.adset_id) : undefined;
        if (!adSet || !row.adset_id) {
          unknown += 1;
          continue;
        }
        const m = insightMetrics(row, adSet.result);
        days.push([adSet.id, m.date, accountId, adSet.campaignId, ...metricValues(m)]);
        meaning.push({ campaignId: adSet.campaignId, adSetDay: { platformId: row.adset_id, date: m.date } });
      } else {
        const ad = row.ad_id ? maps.ads.get(row.ad_id) : undefined;
        if (!ad) {
          unknown += 1;
          continue;
        }
        const m = insightMetrics(row, ad.result);
        days.push([ad.id, m.date, accountId, ad.campaignId, ad.adSetId, ...metricValues(m)]);
        meaning.push({ campaignId: ad.campaignId });
      }
    }
    const daily = level === 'campaign' ? CAMPAIGN_DAILY : level === 'adset' ? AD_SET_DAILY : AD_DAILY;
    // What changed is applied once the page is committed (a rolled-back page changed nothing).
    const changed = await this.write((tx) => upsertDays(tx, daily, days));
    this.rowsWritten += changed.length;
    const tracked = this.adSetChanges;
    for (const i of changed) {
      const { campaignId, adSetDay } = meaning[i] as (typeof meaning)[number];
      this.changedCampaigns.add(campaignId);
      if (!tracked || !adSetDay || adSetDay.date >= tracked.before) continue;
      tracked.ids.add(adSetDay.platformId);
      if (tracked.from === null || adSetDay.date < tracked.from) tracked.from = adSetDay.date;
      if (tracked.until === null || adSetDay.date > tracked.until) tracked.until = adSetDay.date;
    }
    return unknown;
  }

  /**
   * The every-sync refresh of every ad set's status and learning stage (incremental listings only
   * return edited objects, and leaving learning is no edit). Returns the platform IDs seen.
   */
  async adSetStatuses(
    rows: readonly PlatformAdSetStatus[],
    now: string,
    observedOn: string,
  ): Promise<string[]> {
    const seen: string[] = [];
    await this.write(async (tx) => {
      for (const s of rows) {
        const learning = s.learning_stage_info ?? null;
        const lastEdit = unixToIso(learning?.last_sig_edit_ts);
        const status = s.effective_status ?? s.status;
        const hit = await tx.get<{ id: string }>(UPDATE_AD_SET_STATUS, [
          s.status,
          status,
          learning?.status ?? null,
          learning ? Math.round(learning.conversions) : null,
          lastEdit,
          now,
          this.accountId,
          s.id,
        ]);
        if (!hit) continue;
        seen.push(s.id);
        if (learning) await saveSnapshot(tx, hit.id, observedOn, learning, lastEdit);
        if (isRemoved(status)) await tx.run(REMOVE_AD_SET_CHILDREN, [status, hit.id]);
      }
    });
    return seen;
  }

  /** Every ad's status (an ad archived upstream must not stay active here). */
  async adStatuses(rows: readonly PlatformAdStatus[]): Promise<void> {
    await this.write(async (tx) => {
      for (const a of rows) {
        const status = a.effective_status ?? a.status;
        const issues = issuesJson(a.issues_info);
        await tx.run(UPDATE_AD_STATUS, [
          a.status,
          status,
          issues,
          this.accountId,
          a.id,
          a.status,
          status,
          issues,
        ]);
      }
    });
  }

  /** The account's disable reason, spend cap (0 = none) and amount spent, in micros. */
  async accountLimits(a: PlatformAdAccount): Promise<void> {
    const micros = (value: string | null | undefined) =>
      value === null || value === undefined || value === '' ? null : minorToMicros(value, this.currency);
    const cap = micros(a.spend_cap);
    await this.write((tx) =>
      tx.run(
        `UPDATE ad_accounts SET disable_reason = ?, spend_cap_micros = ?, amount_spent_micros = ? WHERE id = ?`,
        [a.disable_reason ?? 0, cap === 0 ? null : cap, micros(a.amount_spent), this.accountId],
      ),
    );
  }

  async campaignStatuses(rows: readonly PlatformCampaignStatus[]): Promise<string[]> {
    const seen: string[] = [];
    await this.write(async (tx) => {
      for (const c of rows) {
        const status = c.effective_status ?? c.status;
        seen.push(c.id);
        await tx.run(UPDATE_CAMPAIGN_STATUS, [c.status, status, this.accountId, c.id, c.status, status]);
        if (isRemoved(status))
          await tx.run(REMOVE_CAMPAIGN_CHILDREN, [status, this.accountId, this.accountId, c.id]);
      }
    });
    return seen;
  }

  /**
   * Objects a listing of every status no longer returns are gone upstream (Meta stops returning
   * deleted objects on edges): marked DELETED, kept as history.
   */
  async markMissing(
    kind: 'campaigns' | 'ad_sets',
    platformIds: Iterable<string>,
    seen: readonly string[],
  ): Promise<void> {
    const seenSet = new Set(seen);
    const missing = [...platformIds].filter((id) => !seenSet.has(id));
    if (missing.length === 0) return;
    const update = kind === 'campaigns' ? MARK_CAMPAIGN_MISSING : MARK_AD_SET_MISSING;
    await this.write(async (tx) => {
      for (const id of missing) await tx.run(update, [this.accountId, id]);
    });
  }

  /** Ad sets synced before result types were read: the next listing must return them all. */
  async hasUnresolvedResults(): Promise<boolean> {
    const row = await this.sql.get(
      `SELECT 1 AS one FROM ad_sets WHERE account_id = ? AND result_type IS NULL LIMIT 1`,
      [this.accountId],
    );
    return row !== undefined;
  }

  async hasCustomConversions(): Promise<boolean> {
    const row = await this.sql.get(
      `SELECT 1 AS one FROM ad_sets WHERE account_id = ? AND result_type = 'CUSTOM_CONVERSION' LIMIT 1`,
      [this.accountId],
    );
    return row !== undefined;
  }

  /** "Custom conversion: <name>" once the account's custom conversions are read. */
  async nameCustomConversions(names: ReadonlyMap<string, string>): Promise<void> {
    await this.write(async (tx) => {
      for (const [id, name] of names) {
        const shown = resultName({ type: 'CUSTOM_CONVERSION', detail: id }, name);
        await tx.run(NAME_CUSTOM_CONVERSION, [shown, this.accountId, id, shown]);
      }
    });
  }

  /** Stores each campaign's result type and name (its ad sets' result when they agree). */
  async storeCampaignResults(maps: ObjectMaps): Promise<void> {
    const nameOf = new Map<string, string>();
    for (const r of await this.sql.all<{
      campaign_id: string;
      result_type: string;
      result_name: string | null;
    }>(
      `SELECT campaign_id, result_type, result_name FROM ad_sets WHERE account_id = ? AND result_type IS NOT NULL`,
      [this.accountId],
    ))
      nameOf.set(`${r.campaign_id}/${r.result_type}`, r.result_name ?? r.result_type);
    await this.write(async (tx) => {
      for (const [platformId, campaign] of maps.campaigns) {
        const result = maps.campaignResults.get(platformId) ?? null;
        const type: ResultType | null = result?.type ?? maps.campaignResultTypes.get(platformId) ?? null;
        if (type === null) continue;
        const name =
          result === null
            ? resultName({ type, detail: null })
            : (nameOf.get(`${campaign.id}/${type}`) ?? type);
        await tx.run(STORE_CAMPAIGN_RESULT, [type, name, campaign.id, type, name]);
      }
    });
  }
}

/** The ad set's learning stage as observed today (one row per ad set and day; a re-read replaces it). */
async function saveSnapshot(
  tx: Sql,
  adSetId: string,
  observedOn: string,
  learning: { status: string; conversions: number },
  lastEdit: string | null,
): Promise<void> {
  await tx.run(UPSERT_SNAPSHOT, [
    adSetId,
    observedOn,
    learning.status,
    Math.round(learning.conversions),
    lastEdit,
  ]);
}

function isRemoved(status: string): boolean {
  return (REMOVED_STATUSES as readonly string[]).includes(status);
}

function metricValues(m: InsightMetrics): [number, number, number, number, number, number, number, number] {
  return [
    m.spendMicros,
    m.impressions,
    m.clicks,
    m.linkClicks,
    m.conversions,
    m.revenueMicros,
    m.reach,
    m.frequency,
  ];
}

/** Loads the account's objects as synced so far (children link to parents through these). */
export async function loadObjectMaps(sql: Sql, accountId: string): Promise<ObjectMaps> {
  const campaigns = new Map<string, { id: string }>();
  const platformCampaignOf = new Map<string, string>();
  for (const row of await sql.all<{ id: string; platform_campaign_id: string }>(
    `SELECT id, platform_campaign_id FROM campaigns WHERE account_id = ?`,
    [accountId],
  )) {
    campaigns.set(row.platform_campaign_id, { id: row.id });
    platformCampaignOf.set(row.id, row.platform_campaign_id);
  }
  const adSets = new Map<string, { id: string; campaignId: string; result: ResultSpec | null }>();
  const resultsByCampaign = new Map<string, (ResultSpec | null)[]>();
  for (const row of await sql.all<{
    id: string;
    campaign_id: string;
    platform_ad_set_id: string;
    result_type: string | null;
    result_detail: string | null;
  }>(
    `SELECT id, campaign_id, platform_ad_set_id, result_type, result_detail FROM ad_sets WHERE account_id = ?`,
    [accountId],
  )) {
    const spec =
      row.result_type === null ? null : { type: row.result_type as ResultType, detail: row.result_detail };
    const result = spec && spec.type !== 'UNKNOWN' ? spec : null;
    adSets.set(row.platform_ad_set_id, { id: row.id, campaignId: row.campaign_id, result });
    const platformCampaign = platformCampaignOf.get(row.campaign_id);
    if (platformCampaign) {
      const list = resultsByCampaign.get(platformCampaign) ?? [];
      list.push(spec);
      resultsByCampaign.set(platformCampaign, list);
    }
  }
  const campaignResults = new Map<string, ResultSpec | null>();
  const campaignResultTypes = new Map<string, ResultType>();
  for (const [platformCampaign, list] of resultsByCampaign) {
    const result = campaignResult(list);
    if (result) campaignResultTypes.set(platformCampaign, result.type);
    campaignResults.set(
      platformCampaign,
      result && result.type !== 'MIXED' && result.type !== 'UNKNOWN' ? result : null,
    );
  }
  const resultOfAdSet = new Map<string, ResultSpec | null>();
  for (const adSet of adSets.values()) resultOfAdSet.set(adSet.id, adSet.result);
  const ads = new Map<
    string,
    { id: string; campaignId: string; adSetId: string; result: ResultSpec | null }
  >();
  for (const row of await sql.all<{
    id: string;
    campaign_id: string;
    ad_set_id: string;
    platform_ad_id: string;
  }>(`SELECT id, campaign_id, ad_set_id, platform_ad_id FROM ads WHERE account_id = ?`, [accountId])) {
    ads.set(row.platform_ad_id, {
      id: row.id,
      campaignId: row.campaign_id,
      adSetId: row.ad_set_id,
      result: resultOfAdSet.get(row.ad_set_id) ?? null,
    });
  }
  return { campaigns, adSets, ads, campaignResults, campaignResultTypes };
}

/** issues_info as stored: the fields the views show, in Meta's order; "[]" when the ad has none. */
function issuesJson(issues: PlatformAdIssues): string {
  return JSON.stringify(
    (issues ?? []).map((i) => ({
      errorCode: i.error_code ?? null,
      summary: i.error_summary ?? '',
      message: i.error_message ?? '',
      level: i.level ?? 'AD',
    })),
  );
}
