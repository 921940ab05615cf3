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
import type { Db } from '../store/open';

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

/**
 * Prepared statements for everything a sync writes. Each upsert keys on (account, platform ID), so
 * re-reading an object updates it in place and keeps its service ID; insight rows key on (object, date).
 */
export class SyncWriter {
  private readonly campaign;
  private readonly adSet;
  private readonly snapshot;
  private readonly adSetStatus;
  private readonly campaignStatus;
  private readonly removeAdSetChildren;
  private readonly removeCampaignChildren;
  private readonly ad;
  private readonly campaignDaily;
  private readonly adSetDaily;
  private readonly adDaily;
  /** Insight rows actually inserted or changed (an identical re-read writes nothing). */
  rowsWritten = 0;
  /** Campaigns (service IDs) with an insight row inserted or changed: what a re-diagnosis re-judges. */
  readonly changedCampaigns = new Set<string>();
  /**
   * While set, ad-set days before `before` whose stored row changed are recorded here: an incremental
   * sync re-reads the ads of those ad sets only (an ad set's day is the sum of its ads' days).
   */
  adSetChanges: { before: string; ids: Set<string>; from: string | null; until: string | null } | null = null;

  constructor(
    private readonly db: Db,
    private readonly accountId: string,
    private readonly currency: string,
  ) {
    this.campaign = db.prepare(`
      INSERT INTO campaigns (id, account_id, platform_campaign_id, name, status, effective_status, objective,
        buying_type, bid_strategy, daily_budget_micros, lifetime_budget_micros, special_ad_categories,
        start_time, stop_time, created_time, updated_time, last_synced_at, smart_promotion_type)
      VALUES (@id, @account_id, @platform_campaign_id, @name, @status, @effective_status, @objective,
        @buying_type, @bid_strategy, @daily_budget_micros, @lifetime_budget_micros, @special_ad_categories,
        @start_time, @stop_time, @created_time, @updated_time, @last_synced_at, @smart_promotion_type)
      ON CONFLICT (account_id, platform_campaign_id) DO UPDATE SET
        name = excluded.name, status = excluded.status, effective_status = excluded.effective_status,
        objective = excluded.objective, buying_type = excluded.buying_type, bid_strategy = excluded.bid_strategy,
        daily_budget_micros = excluded.daily_budget_micros, lifetime_budget_micros = excluded.lifetime_budget_micros,
        special_ad_categories = excluded.special_ad_categories, start_time = excluded.start_time,
        stop_time = excluded.stop_time, created_time = excluded.created_time, updated_time = excluded.updated_time,
        last_synced_at = excluded.last_synced_at, smart_promotion_type = excluded.smart_promotion_type`);
    this.adSet = db.prepare(`
      INSERT INTO ad_sets (id, account_id, campaign_id, platform_ad_set_id, name, status, effective_status,
        daily_budget_micros, lifetime_budget_micros, bid_strategy, bid_amount_micros, billing_event,
        optimization_goal, promoted_event, targeting, learning_status, learning_conversions,
        last_significant_edit_at, created_time, updated_time, last_synced_at, result_type, result_detail,
        result_name, attribution_spec)
      VALUES (@id, @account_id, @campaign_id, @platform_ad_set_id, @name, @status, @effective_status,
        @daily_budget_micros, @lifetime_budget_micros, @bid_strategy, @bid_amount_micros, @billing_event,
        @optimization_goal, @promoted_event, @targeting, @learning_status, @learning_conversions,
        @last_significant_edit_at, @created_time, @updated_time, @last_synced_at, @result_type, @result_detail,
        @result_name, @attribution_spec)
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
      RETURNING id`);
    this.adSetStatus = db.prepare(`
      UPDATE ad_sets SET status = @status, effective_status = @effective_status,
        learning_status = @learning_status, learning_conversions = @learning_conversions,
        last_significant_edit_at = COALESCE(@last_significant_edit_at, last_significant_edit_at),
        last_synced_at = @now
      WHERE account_id = @account_id AND platform_ad_set_id = @platform_ad_set_id
      RETURNING id`);
    this.campaignStatus = db.prepare(`
      UPDATE campaigns SET status = @status, effective_status = @effective_status
      WHERE account_id = @account_id AND platform_campaign_id = @platform_campaign_id
        AND (status IS NOT @status OR effective_status IS NOT @effective_status)`);
    // Children of a removed parent are removed with it (Meta derives their effective status so).
    this.removeAdSetChildren = db.prepare(`
      UPDATE ads SET effective_status = @status
      WHERE ad_set_id = @ad_set_id AND effective_status NOT IN ('ARCHIVED', 'DELETED')`);
    this.removeCampaignChildren = db.prepare(`
      UPDATE ad_sets SET effective_status = @status, learning_status = NULL
      WHERE account_id = @account_id AND campaign_id = (
        SELECT id FROM campaigns WHERE account_id = @account_id AND platform_campaign_id = @platform_campaign_id)
        AND effective_status NOT IN ('ARCHIVED', 'DELETED')`);
    this.snapshot = db.prepare(`
      INSERT INTO learning_stage_snapshots (ad_set_id, observed_on, status, conversions, last_significant_edit_at)
      VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (ad_set_id, observed_on) DO UPDATE SET status = excluded.status,
        conversions = excluded.conversions, last_significant_edit_at = excluded.last_significant_edit_at`);
    this.ad = db.prepare(`
      INSERT INTO ads (id, account_id, campaign_id, ad_set_id, platform_ad_id, name, status, effective_status,
        creative_id, issues_info, created_time, updated_time, last_synced_at)
      VALUES (@id, @account_id, @campaign_id, @ad_set_id, @platform_ad_id, @name, @status, @effective_status,
        @creative_id, @issues_info, @created_time, @updated_time, @last_synced_at)
      ON CONFLICT (account_id, platform_ad_id) DO UPDATE SET
        campaign_id = excluded.campaign_id, ad_set_id = excluded.ad_set_id, name = excluded.name,
        status = excluded.status, effective_status = excluded.effective_status, creative_id = excluded.creative_id,
        issues_info = excluded.issues_info,
        created_time = excluded.created_time, updated_time = excluded.updated_time,
        last_synced_at = excluded.last_synced_at`);
    // Positional parameters: the hot path of a sync writes ~100k of these rows. An update that would
    // leave the row as it is is skipped (WHERE), so re-reading 28 days writes (and rolls up) only what
    // changed.
    const metrics = `spend_micros, impressions, clicks, link_clicks, conversions, revenue_micros, reach, frequency`;
    const update = `spend_micros = excluded.spend_micros, impressions = excluded.impressions,
        clicks = excluded.clicks, link_clicks = excluded.link_clicks, conversions = excluded.conversions,
        revenue_micros = excluded.revenue_micros, reach = excluded.reach, frequency = excluded.frequency
      WHERE spend_micros IS NOT excluded.spend_micros OR impressions IS NOT excluded.impressions
        OR clicks IS NOT excluded.clicks OR link_clicks IS NOT excluded.link_clicks
        OR conversions IS NOT excluded.conversions OR revenue_micros IS NOT excluded.revenue_micros
        OR reach IS NOT excluded.reach OR frequency IS NOT excluded.frequency`;
    this.campaignDaily = db.prepare(`
      INSERT INTO insights_campaign_daily (campaign_id, date, account_id, ${metrics})
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (campaign_id, date) DO UPDATE SET ${update}`);
    this.adSetDaily = db.prepare(`
      INSERT INTO insights_ad_set_daily (ad_set_id, date, account_id, campaign_id, ${metrics})
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (ad_set_id, date) DO UPDATE SET ${update}`);
    this.adDaily = db.prepare(`
      INSERT INTO insights_ad_daily (ad_id, date, account_id, campaign_id, ad_set_id, ${metrics})
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (ad_id, date) DO UPDATE SET ${update}`);
  }

  campaigns(rows: readonly PlatformCampaign[], now: string): void {
    this.db.transaction(() => {
      for (const c of rows) {
        this.campaign.run({
          id: newId('camp'),
          account_id: this.accountId,
          platform_campaign_id: c.id,
          name: c.name,
          status: c.status,
          effective_status: c.effective_status ?? c.status,
          objective: c.objective,
          buying_type: c.buying_type,
          bid_strategy: c.bid_strategy ?? null,
          daily_budget_micros: budgetMicros(c.daily_budget, this.currency),
          lifetime_budget_micros: budgetMicros(c.lifetime_budget, this.currency),
          special_ad_categories: JSON.stringify(c.special_ad_categories),
          start_time: graphTimeToIso(c.start_time),
          stop_time: graphTimeToIso(c.stop_time),
          created_time: graphTimeToIso(c.created_time) ?? now,
          updated_time: graphTimeToIso(c.updated_time ?? c.created_time) ?? now,
          last_synced_at: now,
          smart_promotion_type: c.smart_promotion_type ?? null,
        });
      }
    })();
  }

  /**
   * Meta's own recommendations for the account, replacing the last read; each is tied to the campaign
   * of the first object it names that is synced (a campaign, an ad set or an ad). Null: unavailable.
   */
  platformRecommendations(
    read: { opportunityScore: number | null; items: readonly PlatformRecommendation[] } | null,
    maps: ObjectMaps,
    now: string,
  ): void {
    const campaignOf = (objectId: string): string | null =>
      maps.campaigns.get(objectId)?.id ??
      maps.adSets.get(objectId)?.campaignId ??
      maps.ads.get(objectId)?.campaignId ??
      null;
    this.db.transaction(() => {
      this.db.prepare(`DELETE FROM platform_recommendations WHERE account_id = ?`).run(this.accountId);
      this.db
        .prepare(
          `UPDATE ad_accounts SET opportunity_score = ?, platform_recommendations_read_at = ? WHERE id = ?`,
        )
        .run(read?.opportunityScore ?? null, read ? now : null, this.accountId);
      if (!read) return;
      const insert = this.db.prepare(
        `INSERT INTO platform_recommendations (account_id, position, type, title, body, lift_estimate, points, object_ids, campaign_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      read.items.forEach((r, position) => {
        const content = r.recommendation_content ?? {};
        const campaignId = r.object_ids.map(campaignOf).find((id) => id !== null) ?? null;
        insert.run(
          this.accountId,
          position,
          r.type,
          content.headline ?? content.title ?? r.type.toLowerCase().replace(/_/g, ' '),
          content.body ?? '',
          content.lift_estimate ?? null,
          content.opportunity_score_lift ?? null,
          JSON.stringify(r.object_ids),
          campaignId,
        );
      });
    })();
  }

  /** Returns how many were skipped because their campaign is unknown (hidden or deleted parents). */
  adSets(rows: readonly PlatformAdSet[], maps: ObjectMaps, now: string, observedOn: string): number {
    let orphans = 0;
    this.db.transaction(() => {
      for (const s of rows) {
        const campaign = maps.campaigns.get(s.campaign_id);
        if (!campaign) {
          orphans += 1;
          continue;
        }
        const learning = s.learning_stage_info ?? null;
        const lastEdit = unixToIso(learning?.last_sig_edit_ts);
        const result = resultOf(s.optimization_goal, s.promoted_object);
        const { id } = this.adSet.get({
          id: newId('adset'),
          account_id: this.accountId,
          campaign_id: campaign.id,
          platform_ad_set_id: s.id,
          name: s.name,
          status: s.status,
          effective_status: s.effective_status ?? s.status,
          daily_budget_micros: budgetMicros(s.daily_budget, this.currency),
          lifetime_budget_micros: budgetMicros(s.lifetime_budget, this.currency),
          bid_strategy: s.bid_strategy ?? null,
          bid_amount_micros: budgetMicros(s.bid_amount, this.currency),
          billing_event: s.billing_event ?? null,
          optimization_goal: s.optimization_goal ?? null,
          promoted_event: s.promoted_object?.custom_event_type ?? null,
          targeting: JSON.stringify(s.targeting ?? {}),
          learning_status: learning?.status ?? null,
          learning_conversions: learning ? Math.round(learning.conversions) : null,
          last_significant_edit_at: lastEdit,
          created_time: graphTimeToIso(s.created_time) ?? now,
          updated_time: graphTimeToIso(s.updated_time ?? s.created_time) ?? now,
          last_synced_at: now,
          result_type: result.type,
          result_detail: result.detail,
          result_name: resultName(result),
          attribution_spec: s.attribution_spec ? JSON.stringify(s.attribution_spec) : null,
        }) as { id: string };
        if (learning)
          this.snapshot.run(id, observedOn, learning.status, Math.round(learning.conversions), lastEdit);
      }
    })();
    return orphans;
  }

  ads(rows: readonly PlatformAd[], maps: ObjectMaps, now: string): number {
    let orphans = 0;
    this.db.transaction(() => {
      for (const a of rows) {
        const adSet = maps.adSets.get(a.adset_id);
        if (!adSet) {
          orphans += 1;
          continue;
        }
        this.ad.run({
          id: newId('ad'),
          account_id: this.accountId,
          campaign_id: adSet.campaignId,
          ad_set_id: adSet.id,
          platform_ad_id: a.id,
          name: a.name,
          status: a.status,
          effective_status: a.effective_status ?? a.status,
          creative_id: a.creative?.id ?? null,
          issues_info: issuesJson(a.issues_info),
          created_time: graphTimeToIso(a.created_time) ?? now,
          updated_time: graphTimeToIso(a.updated_time ?? a.created_time) ?? now,
          last_synced_at: now,
        });
      }
    })();
    return orphans;
  }

  /** Writes one page of insight rows at a level in one transaction; returns rows skipped as unknown. */
  insights(
    level: 'campaign' | 'adset' | 'ad',
    rows: readonly PlatformInsightRow[],
    maps: ObjectMaps,
  ): number {
    let unknown = 0;
    let written = 0;
    const accountId = this.accountId;
    this.db.transaction(() => {
      for (const row of rows) {
        if (level === 'campaign') {
          const campaign = row.campaign_id ? maps.campaigns.get(row.campaign_id) : undefined;
          if (!campaign || !row.campaign_id) {
            unknown += 1;
            continue;
          }
          const m = insightMetrics(row, maps.campaignResults.get(row.campaign_id) ?? null);
          const changed = this.campaignDaily.run(campaign.id, m.date, accountId, ...metricValues(m)).changes;
          if (changed) this.changedCampaigns.add(campaign.id);
          written += changed;
        } else if (level === 'adset') {
          const adSet = row.adset_id ? maps.adSets.get(row.adset_id) : undefined;
          if (!adSet) {
            unknown += 1;
            continue;
          }
          const m = insightMetrics(row, adSet.result);
          const changed = this.adSetDaily.run(
            adSet.id,
            m.date,
            accountId,
            adSet.campaignId,
            ...metricValues(m),
          ).changes;
          if (changed) this.changedCampaigns.add(adSet.campaignId);
          written += changed;
          const tracked = this.adSetChanges;
          if (changed > 0 && tracked && row.adset_id && m.date < tracked.before) {
            tracked.ids.add(row.adset_id);
            if (tracked.from === null || m.date < tracked.from) tracked.from = m.date;
            if (tracked.until === null || m.date > tracked.until) tracked.until = m.date;
          }
        } else {
          const ad = row.ad_id ? maps.ads.get(row.ad_id) : undefined;
          if (!ad) {
            unknown += 1;
            continue;
          }
          const m = insightMetrics(row, ad.result);
          const changed = this.adDaily.run(
            ad.id,
            m.date,
            accountId,
            ad.campaignId,
            ad.adSetId,
            ...metricValues(m),
          ).changes;
          if (changed) this.changedCampaigns.add(ad.campaignId);
          written += changed;
        }
      }
    })();
    this.rowsWritten += written;
    return unknown;
  }

  /**
   * The every-sync refresh of every ad set's status and learning stage (incremental listings only
   * return edited objects, and leaving learning is no edit). Returns the platform IDs seen.
   */
  adSetStatuses(rows: readonly PlatformAdSetStatus[], now: string, observedOn: string): string[] {
    const seen: string[] = [];
    this.db.transaction(() => {
      for (const s of rows) {
        const learning = s.learning_stage_info ?? null;
        const lastEdit = unixToIso(learning?.last_sig_edit_ts);
        const status = s.effective_status ?? s.status;
        const hit = this.adSetStatus.get({
          status: s.status,
          effective_status: status,
          learning_status: learning?.status ?? null,
          learning_conversions: learning ? Math.round(learning.conversions) : null,
          last_significant_edit_at: lastEdit,
          now,
          account_id: this.accountId,
          platform_ad_set_id: s.id,
        }) as { id: string } | undefined;
        if (!hit) continue;
        seen.push(s.id);
        if (learning)
          this.snapshot.run(hit.id, observedOn, learning.status, Math.round(learning.conversions), lastEdit);
        if (isRemoved(status)) this.removeAdSetChildren.run({ status, ad_set_id: hit.id });
      }
    })();
    return seen;
  }

  /** Every ad's status (an ad archived upstream must not stay active here). */
  adStatuses(rows: readonly PlatformAdStatus[]): void {
    const update = this.db.prepare(
      `UPDATE ads SET status = @status, effective_status = @effective_status, issues_info = @issues_info
       WHERE account_id = @account_id AND platform_ad_id = @id
         AND (status IS NOT @status OR effective_status IS NOT @effective_status OR issues_info IS NOT @issues_info)`,
    );
    this.db.transaction(() => {
      for (const a of rows)
        update.run({
          id: a.id,
          status: a.status,
          effective_status: a.effective_status ?? a.status,
          issues_info: issuesJson(a.issues_info),
          account_id: this.accountId,
        });
    })();
  }

  /** The account's disable reason, spend cap (0 = none) and amount spent, in micros. */
  accountLimits(a: PlatformAdAccount): void {
    const micros = (value: string | null | undefined) =>
      value === null || value === undefined || value === '' ? null : minorToMicros(value, this.currency);
    const cap = micros(a.spend_cap);
    this.db
      .prepare(
        `UPDATE ad_accounts SET disable_reason = ?, spend_cap_micros = ?, amount_spent_micros = ? WHERE id = ?`,
      )
      .run(a.disable_reason ?? 0, cap === 0 ? null : cap, micros(a.amount_spent), this.accountId);
  }

  campaignStatuses(rows: readonly PlatformCampaignStatus[]): string[] {
    const seen: string[] = [];
    this.db.transaction(() => {
      for (const c of rows) {
        const status = c.effective_status ?? c.status;
        seen.push(c.id);
        this.campaignStatus.run({
          status: c.status,
          effective_status: status,
          account_id: this.accountId,
          platform_campaign_id: c.id,
        });
        if (isRemoved(status))
          this.removeCampaignChildren.run({ status, account_id: this.accountId, platform_campaign_id: c.id });
      }
    })();
    return seen;
  }

  /**
   * Objects a listing of every status no longer returns are gone upstream (Meta stops returning
   * deleted objects on edges): marked DELETED, kept as history.
   */
  markMissing(kind: 'campaigns' | 'ad_sets', platformIds: Iterable<string>, seen: readonly string[]): void {
    const seenSet = new Set(seen);
    const missing = [...platformIds].filter((id) => !seenSet.has(id));
    if (missing.length === 0) return;
    const update =
      kind === 'campaigns'
        ? this.db.prepare(
            `UPDATE campaigns SET status = 'DELETED', effective_status = 'DELETED'
             WHERE account_id = ? AND platform_campaign_id = ? AND effective_status <> 'DELETED'`,
          )
        : this.db.prepare(
            `UPDATE ad_sets SET status = 'DELETED', effective_status = 'DELETED', learning_status = NULL
             WHERE account_id = ? AND platform_ad_set_id = ? AND effective_status <> 'DELETED'`,
          );
    this.db.transaction(() => {
      for (const id of missing) update.run(this.accountId, id);
    })();
  }

  /** Ad sets synced before result types were read: the next listing must return them all. */
  hasUnresolvedResults(): boolean {
    return (
      this.db
        .prepare(`SELECT 1 FROM ad_sets WHERE account_id = ? AND result_type IS NULL LIMIT 1`)
        .get(this.accountId) !== undefined
    );
  }

  hasCustomConversions(): boolean {
    return (
      this.db
        .prepare(`SELECT 1 FROM ad_sets WHERE account_id = ? AND result_type = 'CUSTOM_CONVERSION' LIMIT 1`)
        .get(this.accountId) !== undefined
    );
  }

  /** "Custom conversion: <name>" once the account's custom conversions are read. */
  nameCustomConversions(names: ReadonlyMap<string, string>): void {
    const update = this.db.prepare(
      `UPDATE ad_sets SET result_name = @name
       WHERE account_id = @account_id AND result_type = 'CUSTOM_CONVERSION' AND result_detail = @id
         AND result_name IS NOT @name`,
    );
    this.db.transaction(() => {
      for (const [id, name] of names)
        update.run({
          id,
          account_id: this.accountId,
          name: resultName({ type: 'CUSTOM_CONVERSION', detail: id }, name),
        });
    })();
  }

  /** Stores each campaign's result type and name (its ad sets' result when they agree). */
  storeCampaignResults(maps: ObjectMaps): void {
    const update = this.db.prepare(
      `UPDATE campaigns SET result_type = @result_type, result_name = @result_name
       WHERE id = @id AND (result_type IS NOT @result_type OR result_name IS NOT @result_name)`,
    );
    const names = this.db.prepare(
      `SELECT campaign_id, result_type, result_name FROM ad_sets WHERE account_id = ? AND result_type IS NOT NULL`,
    );
    const nameOf = new Map<string, string>();
    for (const r of names.all(this.accountId) as {
      campaign_id: string;
      result_type: string;
      result_name: string | null;
    }[])
      nameOf.set(`${r.campaign_id}/${r.result_type}`, r.result_name ?? r.result_type);
    this.db.transaction(() => {
      for (const [platformId, campaign] of maps.campaigns) {
        const result = maps.campaignResults.get(platformId) ?? null;
        const type: ResultType | null = result?.type ?? maps.campaignResultTypes.get(platformId) ?? null;
        if (type === null) continue;
        const name =
          result === null
            ? resultName({ type, detail: null })
            : (nameOf.get(`${campaign.id}/${type}`) ?? type);
        update.run({ id: campaign.id, result_type: type, result_name: name });
      }
    })();
  }
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
export function loadObjectMaps(db: Db, accountId: string): ObjectMaps {
  const campaigns = new Map<string, { id: string }>();
  const platformCampaignOf = new Map<string, string>();
  for (const row of db
    .prepare(`SELECT id, platform_campaign_id FROM campaigns WHERE account_id = ?`)
    .all(accountId) as { id: string; platform_campaign_id: string }[]) {
    campaigns.set(row.platform_campaign_id, { id: row.id });
    platformCampaignOf.set(row.id, row.platform_campaign_id);
  }
  const adSets = new Map<string, { id: string; campaignId: string; result: ResultSpec | null }>();
  const resultsByCampaign = new Map<string, (ResultSpec | null)[]>();
  for (const row of db
    .prepare(
      `SELECT id, campaign_id, platform_ad_set_id, result_type, result_detail FROM ad_sets WHERE account_id = ?`,
    )
    .all(accountId) as {
    id: string;
    campaign_id: string;
    platform_ad_set_id: string;
    result_type: string | null;
    result_detail: string | null;
  }[]) {
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
  for (const row of db
    .prepare(`SELECT id, campaign_id, ad_set_id, platform_ad_id FROM ads WHERE account_id = ?`)
    .all(accountId) as { id: string; campaign_id: string; ad_set_id: string; platform_ad_id: string }[]) {
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
