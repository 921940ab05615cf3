// Constructed campaigns for tests and the benchmark: daily series shaped by functions of the day,
// built in memory (for the pure detectors) or written into a store (for the loader and the service).
import { addDays, dateRange } from '../core/clock';
import { newId } from '../core/ids';
import type { Db } from '../core/store/open';
import { parseTargeting } from '../core/diagnostics/targeting';
import type { AdData, AdSetData, CampaignData, DayRow, LearningSnapshot } from '../core/diagnostics/types';

/** `d` counts days before the last day (0 = the last day of the series). */
export type Shape = (d: number) => number;

export interface AdSpec {
  name: string;
  impressions?: Shape;
  /** Click-through rate as a share (0.015 = 1.5%). */
  ctr?: Shape;
  /** Conversions per click. */
  cvr?: Shape;
  /** Cost per 1,000 impressions in currency units. */
  cpm?: Shape;
  frequency?: Shape;
  /** Revenue per conversion in currency units. */
  value?: number;
  createdDaysAgo?: number;
  status?: string;
}

export interface AdSetSpec {
  name: string;
  dailyBudget?: number | null;
  targeting?: Record<string, unknown>;
  optimizationGoal?: string;
  bidStrategy?: string | null;
  bidAmount?: number | null;
  learning?: { status: string; conversions: number; editDaysAgo: number } | null;
  createdDaysAgo?: number;
  status?: string;
  ads: AdSpec[];
}

export interface CampaignSpec {
  name: string;
  /** The last day with data. */
  today: string;
  days: number;
  dailyBudget?: number | null;
  bidStrategy?: string | null;
  targetCpa?: number | null;
  currency?: string;
  status?: string;
  /** Meta's smart_promotion_type (AUTOMATED_SHOPPING_ADS: an Advantage+ shopping campaign). */
  smartPromotionType?: string;
  adSets: AdSetSpec[];
}

const constant =
  (value: number): Shape =>
  () =>
    value;

/** A step change: `before` until `daysAgo` days before the end, then `after`. */
export const step =
  (before: number, after: number, daysAgo: number): Shape =>
  (d) =>
    d < daysAgo ? after : before;

/** A linear ramp from `before` to `after` over the last `daysAgo` days. */
export const ramp =
  (before: number, after: number, daysAgo: number): Shape =>
  (d) =>
    d >= daysAgo ? before : after + ((before - after) * d) / daysAgo;

const M = 1_000_000;

function adRow(spec: AdSpec, date: string, d: number): DayRow {
  const impressions = Math.round((spec.impressions ?? constant(4000))(d));
  const clicks = Math.round(impressions * (spec.ctr ?? constant(0.015))(d));
  const conversions = Math.round(clicks * (spec.cvr ?? constant(0.05))(d));
  const spend = Math.round((impressions * (spec.cpm ?? constant(10))(d) * M) / 1000);
  const frequency = (spec.frequency ?? constant(1.2))(d);
  const reach = Math.round(impressions / frequency);
  return {
    date,
    spend,
    impressions,
    clicks,
    // Fixtures make every click a link click, so link CTR reads as the fixture's CTR.
    linkClicks: clicks,
    conversions,
    revenue: conversions * (spec.value ?? 60) * M,
    reach,
    frequency,
  };
}

function sumRows(rows: DayRow[], date: string): DayRow {
  const out: DayRow = {
    date,
    spend: 0,
    impressions: 0,
    clicks: 0,
    linkClicks: 0,
    conversions: 0,
    revenue: 0,
    reach: 0,
    frequency: 0,
  };
  for (const r of rows) {
    out.spend += r.spend;
    out.impressions += r.impressions;
    out.clicks += r.clicks;
    out.linkClicks += r.linkClicks;
    out.conversions += r.conversions;
    out.revenue += r.revenue;
    out.reach += r.reach;
  }
  out.frequency = out.reach > 0 ? out.impressions / out.reach : 0;
  return out;
}

/** Builds the campaign in memory with service-style IDs. */
export function buildCampaign(spec: CampaignSpec, accountId = 'act_FixtureAccount00'): CampaignData {
  const from = addDays(spec.today, -(spec.days - 1));
  const dates = dateRange(from, spec.today);
  const campaignId = newId('camp');
  const campaignDaily = new Map<string, DayRow>();
  const adSets: AdSetData[] = [];
  const ads: AdData[] = [];
  const perDateAdSets = new Map<string, DayRow[]>();
  for (const s of spec.adSets) {
    const adSetId = newId('adset');
    const adSetDaily = new Map<string, DayRow>();
    const perDateAds = new Map<string, DayRow[]>();
    for (const a of s.ads) {
      const daily = new Map<string, DayRow>();
      const created = a.createdDaysAgo ?? spec.days + 30;
      dates.forEach((date, i) => {
        const d = dates.length - 1 - i;
        if (d > created) return;
        const row = adRow(a, date, d);
        if (row.impressions === 0) return;
        daily.set(date, row);
        perDateAds.set(date, [...(perDateAds.get(date) ?? []), row]);
      });
      ads.push({
        id: newId('ad'),
        adSetId,
        name: a.name,
        status: a.status ?? 'ACTIVE',
        effectiveStatus: a.status ?? 'ACTIVE',
        createdTime: `${addDays(spec.today, -created)}T10:00:00.000Z`,
        daily,
      });
    }
    for (const [date, rows] of perDateAds) {
      const row = sumRows(rows, date);
      adSetDaily.set(date, row);
      perDateAdSets.set(date, [...(perDateAdSets.get(date) ?? []), row]);
    }
    const created = s.createdDaysAgo ?? spec.days + 30;
    const snapshots: LearningSnapshot[] = s.learning
      ? [
          {
            observedOn: spec.today,
            status: s.learning.status,
            conversions: s.learning.conversions,
            lastSignificantEditAt: `${addDays(spec.today, -s.learning.editDaysAgo)}T09:00:00.000Z`,
          },
        ]
      : [];
    adSets.push({
      id: adSetId,
      platformAdSetId: String(9000 + adSets.length),
      name: s.name,
      status: s.status ?? 'ACTIVE',
      effectiveStatus: s.status ?? 'ACTIVE',
      dailyBudget: s.dailyBudget === undefined ? 120 * M : s.dailyBudget === null ? null : s.dailyBudget * M,
      lifetimeBudget: null,
      bidStrategy: s.bidStrategy ?? null,
      bidAmount: s.bidAmount ? s.bidAmount * M : null,
      optimizationGoal: s.optimizationGoal ?? 'OFFSITE_CONVERSIONS',
      promotedEvent: 'PURCHASE',
      targeting: parseTargeting(
        JSON.stringify(s.targeting ?? { geo_locations: { countries: ['US'] }, age_min: 18, age_max: 65 }),
      ),
      learningStatus: s.learning?.status ?? 'SUCCESS',
      learningConversions: s.learning?.conversions ?? 60,
      lastSignificantEditAt: s.learning
        ? `${addDays(spec.today, -s.learning.editDaysAgo)}T09:00:00.000Z`
        : null,
      createdTime: `${addDays(spec.today, -created)}T09:00:00.000Z`,
      snapshots,
      daily: adSetDaily,
    });
  }
  for (const [date, rows] of perDateAdSets) campaignDaily.set(date, sumRows(rows, date));
  return {
    id: campaignId,
    accountId,
    platformCampaignId: String(7000 + spec.name.length),
    name: spec.name,
    status: spec.status ?? 'ACTIVE',
    effectiveStatus: spec.status ?? 'ACTIVE',
    objective: 'OUTCOME_SALES',
    smartPromotionType: spec.smartPromotionType ?? 'GUIDED_CREATION',
    bidStrategy: spec.bidStrategy ?? 'LOWEST_COST_WITHOUT_CAP',
    dailyBudget: spec.dailyBudget ? spec.dailyBudget * M : null,
    lifetimeBudget: null,
    startTime: `${from}T00:00:00.000Z`,
    stopTime: null,
    targetCpa: spec.targetCpa ? spec.targetCpa * M : null,
    currency: spec.currency ?? 'USD',
    timezone: 'UTC',
    adSets,
    ads,
    daily: campaignDaily,
  };
}

export interface SeededWorkspace {
  workspaceId: string;
  userId: string;
  accountId: string;
}

/** A workspace with an owner and one synced test-mode ad account. */
export function seedWorkspace(db: Db, now = '2026-03-01T00:00:00.000Z', currency = 'USD'): SeededWorkspace {
  const workspaceId = newId('ws');
  const userId = newId('user');
  const connectionId = newId('conn');
  const accountId = newId('act');
  db.prepare(
    `INSERT INTO workspaces (id, name, plan, created_at) VALUES (?, 'Fixture agency', 'agency', ?)`,
  ).run(workspaceId, now);
  db.prepare(
    `INSERT INTO users (id, workspace_id, email, name, role, created_at) VALUES (?, ?, 'owner@example.test', 'Owner', 'owner', ?)`,
  ).run(userId, workspaceId, now);
  db.prepare(
    `INSERT INTO platform_connections (id, workspace_id, base_url, api_version, mode, token_encrypted, created_at, updated_at)
     VALUES (?, ?, 'http://127.0.0.1:1', 'v25.0', 'test', x'00', ?, ?)`,
  ).run(connectionId, workspaceId, now, now);
  db.prepare(
    `INSERT INTO ad_accounts (id, workspace_id, connection_id, platform_account_id, mode, name, currency, timezone, status, connected_at)
     VALUES (?, ?, ?, ?, 'test', 'Fixture account', ?, 'UTC', 'active', ?)`,
  ).run(accountId, workspaceId, connectionId, `act_${Math.floor(Math.random() * 1e12)}`, currency, now);
  return { workspaceId, userId, accountId };
}

/** Writes a built campaign (and its rows) into the store under the account; returns its ID. */
export function insertCampaign(db: Db, accountId: string, c: CampaignData, synced = true): string {
  const now = '2026-03-01T00:00:00.000Z';
  const write = db.transaction(() => {
    db.prepare(
      `INSERT INTO campaigns (id, account_id, platform_campaign_id, name, status, effective_status, objective, buying_type,
         bid_strategy, daily_budget_micros, lifetime_budget_micros, start_time, created_time, updated_time, insights_synced_at, target_cpa_micros)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'AUCTION', ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      c.id,
      accountId,
      `${c.platformCampaignId}${c.id.slice(-6)}`,
      c.name,
      c.status,
      c.effectiveStatus,
      c.objective,
      c.bidStrategy,
      c.dailyBudget,
      c.lifetimeBudget,
      c.startTime,
      now,
      now,
      synced ? now : null,
      c.targetCpa,
    );
    const daily = (
      table: string,
      keyCol: string,
      key: string,
      extra: Record<string, string>,
      rows: Map<string, DayRow>,
    ) => {
      const cols = Object.keys(extra);
      const stmt = db.prepare(
        `INSERT INTO ${table} (${keyCol}, date, account_id, ${cols.map((k) => `${k}, `).join('')}spend_micros, impressions, clicks, conversions, revenue_micros, reach, frequency)
         VALUES (?, ?, ?, ${cols.map(() => '?, ').join('')}?, ?, ?, ?, ?, ?, ?)`,
      );
      // Link clicks = clicks in these fixtures, so link CTR reads as the fixture's CTR.
      const links = db.prepare(`UPDATE ${table} SET link_clicks = clicks WHERE ${keyCol} = ?`);
      for (const r of rows.values())
        stmt.run(
          key,
          r.date,
          accountId,
          ...Object.values(extra),
          r.spend,
          r.impressions,
          r.clicks,
          r.conversions,
          r.revenue,
          r.reach,
          r.frequency,
        );
      links.run(key);
    };
    daily('insights_campaign_daily', 'campaign_id', c.id, {}, c.daily);
    for (const s of c.adSets) {
      db.prepare(
        `INSERT INTO ad_sets (id, account_id, campaign_id, platform_ad_set_id, name, status, effective_status, daily_budget_micros,
           lifetime_budget_micros, bid_strategy, bid_amount_micros, optimization_goal, promoted_event, targeting, learning_status,
           learning_conversions, last_significant_edit_at, created_time, updated_time)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        s.id,
        accountId,
        c.id,
        `${s.platformAdSetId}${s.id.slice(-6)}`,
        s.name,
        s.status,
        s.effectiveStatus,
        s.dailyBudget,
        s.lifetimeBudget,
        s.bidStrategy,
        s.bidAmount,
        s.optimizationGoal,
        s.promotedEvent,
        JSON.stringify({
          geo_locations: { countries: s.targeting.countries },
          age_min: s.targeting.ageMin,
          age_max: s.targeting.ageMax,
          ...(s.targeting.genders.includes('all')
            ? {}
            : { genders: s.targeting.genders.map((g) => (g === 'male' ? 1 : 2)) }),
        }),
        s.learningStatus,
        s.learningConversions,
        s.lastSignificantEditAt,
        s.createdTime,
        s.createdTime,
      );
      for (const snap of s.snapshots)
        db.prepare(
          `INSERT INTO learning_stage_snapshots (ad_set_id, observed_on, status, conversions, last_significant_edit_at) VALUES (?, ?, ?, ?, ?)`,
        ).run(s.id, snap.observedOn, snap.status, snap.conversions, snap.lastSignificantEditAt);
      daily('insights_ad_set_daily', 'ad_set_id', s.id, { campaign_id: c.id }, s.daily);
    }
    for (const a of c.ads) {
      db.prepare(
        `INSERT INTO ads (id, account_id, campaign_id, ad_set_id, platform_ad_id, name, status, effective_status, created_time, updated_time)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        a.id,
        accountId,
        c.id,
        a.adSetId,
        a.id,
        a.name,
        a.status,
        a.effectiveStatus,
        a.createdTime,
        a.createdTime,
      );
      daily('insights_ad_daily', 'ad_id', a.id, { campaign_id: c.id, ad_set_id: a.adSetId }, a.daily);
    }
  });
  write();
  return c.id;
}
