import { newId } from '../ids';
import {
  budgetMicros,
  conversionEvent,
  graphTimeToIso,
  insightMetrics,
  type InsightMetrics,
  unixToIso,
  type PlatformAd,
  type PlatformAdSet,
  type PlatformCampaign,
  type PlatformInsightRow,
} from '../platform/parse';
import type { Db } from '../store/open';

/** Platform ID → service IDs of an account's synced objects, for linking children and insight rows. */
export interface ObjectMaps {
  campaigns: Map<string, { id: string }>;
  adSets: Map<string, { id: string; campaignId: string; event: string | null }>;
  ads: Map<string, { id: string; campaignId: string; adSetId: string; event: string | null }>;
  /** The conversion event of a campaign: its ad sets' event when they agree, else null (purchase first). */
  campaignEvents: Map<string, string | null>;
}

/**
 * Prepared statements for everything a sync writes. Each upsert keys on (account, platform ID), so
 * re-reading an object updates it in place and keeps its service ID; insight rows key on (object, date).
 */
export class SyncWriter {
  private readonly campaign;
  private readonly adSet;
  private readonly snapshot;
  private readonly ad;
  private readonly campaignDaily;
  private readonly adSetDaily;
  private readonly adDaily;

  constructor(
    private readonly db: Db,
    private readonly accountId: string,
    private readonly currency: string,
  ) {
    this.campaign = db.prepare(`
      INSERT INTO campaigns (id, account_id, platform_campaign_id, name, status, effective_status, objective,
        buying_type, bid_strategy, daily_budget_micros, lifetime_budget_micros, special_ad_categories,
        start_time, stop_time, created_time, updated_time, last_synced_at)
      VALUES (@id, @account_id, @platform_campaign_id, @name, @status, @effective_status, @objective,
        @buying_type, @bid_strategy, @daily_budget_micros, @lifetime_budget_micros, @special_ad_categories,
        @start_time, @stop_time, @created_time, @updated_time, @last_synced_at)
      ON CONFLICT (account_id, platform_campaign_id) DO UPDATE SET
        name = excluded.name, status = excluded.status, effective_status = excluded.effective_status,
        objective = excluded.objective, buying_type = excluded.buying_type, bid_strategy = excluded.bid_strategy,
        daily_budget_micros = excluded.daily_budget_micros, lifetime_budget_micros = excluded.lifetime_budget_micros,
        special_ad_categories = excluded.special_ad_categories, start_time = excluded.start_time,
        stop_time = excluded.stop_time, created_time = excluded.created_time, updated_time = excluded.updated_time,
        last_synced_at = excluded.last_synced_at`);
    this.adSet = db.prepare(`
      INSERT INTO ad_sets (id, account_id, campaign_id, platform_ad_set_id, name, status, effective_status,
        daily_budget_micros, lifetime_budget_micros, bid_strategy, bid_amount_micros, billing_event,
        optimization_goal, promoted_event, targeting, learning_status, learning_conversions,
        last_significant_edit_at, created_time, updated_time, last_synced_at)
      VALUES (@id, @account_id, @campaign_id, @platform_ad_set_id, @name, @status, @effective_status,
        @daily_budget_micros, @lifetime_budget_micros, @bid_strategy, @bid_amount_micros, @billing_event,
        @optimization_goal, @promoted_event, @targeting, @learning_status, @learning_conversions,
        @last_significant_edit_at, @created_time, @updated_time, @last_synced_at)
      ON CONFLICT (account_id, platform_ad_set_id) DO UPDATE SET
        campaign_id = excluded.campaign_id, name = excluded.name, status = excluded.status,
        effective_status = excluded.effective_status, daily_budget_micros = excluded.daily_budget_micros,
        lifetime_budget_micros = excluded.lifetime_budget_micros, bid_strategy = excluded.bid_strategy,
        bid_amount_micros = excluded.bid_amount_micros, billing_event = excluded.billing_event,
        optimization_goal = excluded.optimization_goal, promoted_event = excluded.promoted_event,
        targeting = excluded.targeting, learning_status = excluded.learning_status,
        learning_conversions = excluded.learning_conversions,
        last_significant_edit_at = excluded.last_significant_edit_at, created_time = excluded.created_time,
        updated_time = excluded.updated_time, last_synced_at = excluded.last_synced_at
      RETURNING id`);
    this.snapshot = db.prepare(`
      INSERT INTO learning_stage_snapshots (ad_set_id, observed_on, status, conversions, last_significant_edit_at)
      VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (ad_set_id, observed_on) DO UPDATE SET status = excluded.status,
        conversions = excluded.conversions, last_significant_edit_at = excluded.last_significant_edit_at`);
    this.ad = db.prepare(`
      INSERT INTO ads (id, account_id, campaign_id, ad_set_id, platform_ad_id, name, status, effective_status,
        creative_id, created_time, updated_time, last_synced_at)
      VALUES (@id, @account_id, @campaign_id, @ad_set_id, @platform_ad_id, @name, @status, @effective_status,
        @creative_id, @created_time, @updated_time, @last_synced_at)
      ON CONFLICT (account_id, platform_ad_id) DO UPDATE SET
        campaign_id = excluded.campaign_id, ad_set_id = excluded.ad_set_id, name = excluded.name,
        status = excluded.status, effective_status = excluded.effective_status, creative_id = excluded.creative_id,
        created_time = excluded.created_time, updated_time = excluded.updated_time,
        last_synced_at = excluded.last_synced_at`);
    // Positional parameters: the hot path of a sync writes ~100k of these rows.
    const metrics = `spend_micros, impressions, clicks, conversions, revenue_micros, reach, frequency`;
    const update = `spend_micros = excluded.spend_micros, impressions = excluded.impressions,
        clicks = excluded.clicks, conversions = excluded.conversions, revenue_micros = excluded.revenue_micros,
        reach = excluded.reach, frequency = excluded.frequency`;
    this.campaignDaily = db.prepare(`
      INSERT INTO insights_campaign_daily (campaign_id, date, account_id, ${metrics})
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (campaign_id, date) DO UPDATE SET ${update}`);
    this.adSetDaily = db.prepare(`
      INSERT INTO insights_ad_set_daily (ad_set_id, date, account_id, campaign_id, ${metrics})
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (ad_set_id, date) DO UPDATE SET ${update}`);
    this.adDaily = db.prepare(`
      INSERT INTO insights_ad_daily (ad_id, date, account_id, campaign_id, ad_set_id, ${metrics})
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
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
        });
      }
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
    const accountId = this.accountId;
    this.db.transaction(() => {
      for (const row of rows) {
        if (level === 'campaign') {
          const campaign = row.campaign_id ? maps.campaigns.get(row.campaign_id) : undefined;
          if (!campaign || !row.campaign_id) {
            unknown += 1;
            continue;
          }
          const m = insightMetrics(row, maps.campaignEvents.get(row.campaign_id) ?? null);
          this.campaignDaily.run(campaign.id, m.date, accountId, ...metricValues(m));
        } else if (level === 'adset') {
          const adSet = row.adset_id ? maps.adSets.get(row.adset_id) : undefined;
          if (!adSet) {
            unknown += 1;
            continue;
          }
          const m = insightMetrics(row, adSet.event);
          this.adSetDaily.run(adSet.id, m.date, accountId, adSet.campaignId, ...metricValues(m));
        } else {
          const ad = row.ad_id ? maps.ads.get(row.ad_id) : undefined;
          if (!ad) {
            unknown += 1;
            continue;
          }
          const m = insightMetrics(row, ad.event);
          this.adDaily.run(ad.id, m.date, accountId, ad.campaignId, ad.adSetId, ...metricValues(m));
        }
      }
    })();
    return unknown;
  }
}

function metricValues(m: InsightMetrics): [number, number, number, number, number, number, number] {
  return [m.spendMicros, m.impressions, m.clicks, m.conversions, m.revenueMicros, m.reach, m.frequency];
}

/** Loads the account's objects as synced so far (children link to parents through these). */
export function loadObjectMaps(db: Db, accountId: string): ObjectMaps {
  const campaigns = new Map<string, { id: string }>();
  for (const row of db
    .prepare(`SELECT id, platform_campaign_id FROM campaigns WHERE account_id = ?`)
    .all(accountId) as { id: string; platform_campaign_id: string }[]) {
    campaigns.set(row.platform_campaign_id, { id: row.id });
  }
  const adSets = new Map<string, { id: string; campaignId: string; event: string | null }>();
  const eventsByCampaign = new Map<string, Set<string | null>>();
  const platformCampaignOf = new Map<string, string>();
  for (const [platformId, { id }] of campaigns) platformCampaignOf.set(id, platformId);
  for (const row of db
    .prepare(`SELECT id, campaign_id, platform_ad_set_id, promoted_event FROM ad_sets WHERE account_id = ?`)
    .all(accountId) as {
    id: string;
    campaign_id: string;
    platform_ad_set_id: string;
    promoted_event: string | null;
  }[]) {
    const event = conversionEvent(row.promoted_event);
    adSets.set(row.platform_ad_set_id, { id: row.id, campaignId: row.campaign_id, event });
    const platformCampaign = platformCampaignOf.get(row.campaign_id);
    if (platformCampaign) {
      const set = eventsByCampaign.get(platformCampaign) ?? new Set();
      set.add(event);
      eventsByCampaign.set(platformCampaign, set);
    }
  }
  const campaignEvents = new Map<string, string | null>();
  for (const [platformCampaign, events] of eventsByCampaign) {
    campaignEvents.set(platformCampaign, events.size === 1 ? ([...events][0] ?? null) : null);
  }
  const eventOfAdSet = new Map<string, string | null>();
  for (const adSet of adSets.values()) eventOfAdSet.set(adSet.id, adSet.event);
  const ads = new Map<string, { id: string; campaignId: string; adSetId: string; event: string | null }>();
  for (const row of db
    .prepare(`SELECT id, campaign_id, ad_set_id, platform_ad_id FROM ads WHERE account_id = ?`)
    .all(accountId) as { id: string; campaign_id: string; ad_set_id: string; platform_ad_id: string }[]) {
    ads.set(row.platform_ad_id, {
      id: row.id,
      campaignId: row.campaign_id,
      adSetId: row.ad_set_id,
      event: eventOfAdSet.get(row.ad_set_id) ?? null,
    });
  }
  return { campaigns, adSets, ads, campaignEvents };
}
