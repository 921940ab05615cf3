// Campaigns table (every campaign of the workspace with its insight columns and latest diagnostic, in
// two set-based queries so 1,000 rows stay cheap) and campaign detail (daily series, ad sets, ads).
import { AppError } from '../errors';
import { resolveAccount, resolveCampaign } from '../identity/access';
import { campaignDaily, campaignInsights } from '../insights';
import { deriveMetrics } from '../insights/metrics';
import { microsToAmount } from '../money';
import type { AdSetView, AdView, CampaignRow, LatestDiagnostic, RiskLevel } from '../../shared/ipc/types';
import type { HandlerContext, HandlerEnv } from './context';
import type { HandlerImpls } from './dispatch';
import { resolveRange } from './ranges';

interface CampaignDbRow {
  id: string;
  platform_campaign_id: string;
  account_id: string;
  account_name: string;
  currency: string;
  timezone: string;
  name: string;
  effective_status: string;
  objective: string;
  bid_strategy: string | null;
  daily_budget_micros: number | null;
  lifetime_budget_micros: number | null;
  target_cpa_micros: number | null;
  insights_synced_at: string | null;
  last_synced_at: string | null;
  ad_set_count: number;
  ad_count: number;
}

const money = (micros: number | null): number | null => (micros === null ? null : microsToAmount(micros));

function campaignRows(
  env: HandlerEnv,
  ctx: HandlerContext,
  where: string,
  params: string[],
): CampaignDbRow[] {
  return env.app.core.db
    .prepare(
      `SELECT c.id, c.platform_campaign_id, c.account_id, a.name AS account_name, a.currency, a.timezone,
         c.name, c.effective_status, c.objective, c.bid_strategy, c.daily_budget_micros,
         c.lifetime_budget_micros, c.target_cpa_micros, c.insights_synced_at, c.last_synced_at,
         (SELECT COUNT(*) FROM ad_sets s WHERE s.campaign_id = c.id) AS ad_set_count,
         (SELECT COUNT(*) FROM ads d WHERE d.campaign_id = c.id) AS ad_count
       FROM campaigns c JOIN ad_accounts a ON a.id = c.account_id
       WHERE a.workspace_id = ? ${where}
       ORDER BY c.name, c.id`,
    )
    .all(ctx.workspaceId, ...params) as CampaignDbRow[];
}

/** The newest finished diagnostic per campaign, in one query. */
function latestDiagnostics(env: HandlerEnv, ctx: HandlerContext): Map<string, LatestDiagnostic> {
  const rows = env.app.core.db
    .prepare(
      `SELECT id, campaign_id, risk_level, issues_detected, completed_at FROM (
         SELECT d.*, ROW_NUMBER() OVER (PARTITION BY campaign_id ORDER BY completed_at DESC, id DESC) AS n
         FROM diagnostics d
         WHERE workspace_id = ? AND campaign_id IS NOT NULL AND status = 'completed')
       WHERE n = 1`,
    )
    .all(ctx.workspaceId) as Array<{
    id: string;
    campaign_id: string;
    risk_level: RiskLevel | null;
    issues_detected: number;
    completed_at: string | null;
  }>;
  return new Map(
    rows.map((r) => [
      r.campaign_id,
      { id: r.id, riskLevel: r.risk_level, issuesDetected: r.issues_detected, completedAt: r.completed_at },
    ]),
  );
}

function toRows(
  env: HandlerEnv,
  ctx: HandlerContext,
  rows: CampaignDbRow[],
  from: string,
  to: string,
): CampaignRow[] {
  const metrics = campaignInsights(
    env.app.core.db,
    rows.map((r) => r.id),
    from,
    to,
  );
  const latest = latestDiagnostics(env, ctx);
  return rows.map((r) => {
    const m = metrics.get(r.id);
    return {
      id: r.id,
      platformCampaignId: r.platform_campaign_id,
      accountId: r.account_id,
      accountName: r.account_name,
      name: r.name,
      status: r.effective_status,
      objective: r.objective,
      bidStrategy: r.bid_strategy,
      dailyBudget: money(r.daily_budget_micros),
      lifetimeBudget: money(r.lifetime_budget_micros),
      currency: r.currency,
      adSetCount: r.ad_set_count,
      adCount: r.ad_count,
      synced: r.insights_synced_at !== null,
      lastSyncedAt: r.last_synced_at,
      spend: m?.spend ?? 0,
      impressions: m?.impressions ?? 0,
      clicks: m?.clicks ?? 0,
      conversions: m?.conversions ?? 0,
      revenue: m?.revenue ?? 0,
      cpa: m?.cpa ?? null,
      roas: m?.roas ?? null,
      ctr: m?.ctr ?? null,
      cpm: m?.cpm ?? null,
      latestDiagnostic: latest.get(r.id) ?? null,
    };
  });
}

const LEARNING: Record<string, AdSetView['learningPhaseStatus']> = {
  LEARNING: 'IN_LEARNING',
  SUCCESS: 'EXITED',
  FAIL: 'FAIL',
};

const GENDERS: Record<string, string> = { '1': 'male', '2': 'female' };

function parseTargeting(text: string): AdSetView['targeting'] {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(text) as Record<string, unknown>;
  } catch {
    raw = {};
  }
  const geo = (raw.geo_locations ?? {}) as { countries?: unknown };
  const genders = Array.isArray(raw.genders) ? raw.genders.map((g) => GENDERS[String(g)] ?? String(g)) : [];
  return {
    geoLocations: Array.isArray(geo.countries) ? geo.countries.map(String) : [],
    ageMin: typeof raw.age_min === 'number' ? raw.age_min : null,
    ageMax: typeof raw.age_max === 'number' ? raw.age_max : null,
    genders: genders.length === 0 ? ['all'] : genders,
  };
}

export function campaignHandlers(
  env: HandlerEnv,
): Pick<HandlerImpls, 'campaigns.list' | 'campaigns.get' | 'campaigns.setTargetCpa'> {
  const { db, clock } = env.app.core;
  return {
    // The diagnostics' CPA target when the campaign has no cost cap (decision order: cost cap,
    // this target, the campaign's own baseline).
    'campaigns.setTargetCpa': (ctx, args) => {
      const campaign = resolveCampaign(db, ctx, args.campaignId);
      env.app.diagnostics.setTargetCpa(ctx, campaign.id, args.targetCpa);
      const row = db
        .prepare(`SELECT target_cpa_micros AS t FROM campaigns WHERE id = ?`)
        .get(campaign.id) as {
        t: number | null;
      };
      return { campaignId: campaign.id, targetCpa: row.t === null ? null : microsToAmount(row.t) };
    },
    'campaigns.list': (ctx, args) => {
      let timezone = 'UTC';
      let where = '';
      const params: string[] = [];
      if (args.accountId) {
        const account = resolveAccount(db, ctx, args.accountId);
        timezone = account.timezone;
        where = 'AND c.account_id = ?';
        params.push(account.id);
      }
      const { from, to } = resolveRange(clock, args.range, timezone, 7);
      return {
        dateRange: { from, to },
        items: toRows(env, ctx, campaignRows(env, ctx, where, params), from, to),
      };
    },
    'campaigns.get': (ctx, args) => {
      const visible = resolveCampaign(db, ctx, args.campaignId);
      const row = campaignRows(env, ctx, 'AND c.id = ?', [visible.id])[0];
      if (!row) throw new AppError('not_found', `campaign ${args.campaignId} does not exist`);
      const { from, to } = resolveRange(clock, args.range, row.timezone, 30);
      const campaign = toRows(env, ctx, [row], from, to)[0] as CampaignRow;
      const adSetRows = db
        .prepare(
          `SELECT s.id, s.platform_ad_set_id, s.name, s.effective_status, s.learning_status, s.learning_conversions,
             s.daily_budget_micros, s.targeting, s.optimization_goal,
             (SELECT COUNT(*) FROM ads d WHERE d.ad_set_id = s.id) AS ad_count,
             COALESCE(i.spend_micros, 0) AS spend_micros, COALESCE(i.conversions, 0) AS conversions
           FROM ad_sets s
           LEFT JOIN (SELECT ad_set_id, SUM(spend_micros) AS spend_micros, SUM(conversions) AS conversions
                      FROM insights_ad_set_daily WHERE campaign_id = ? AND date BETWEEN ? AND ?
                      GROUP BY ad_set_id) i ON i.ad_set_id = s.id
           WHERE s.campaign_id = ? ORDER BY spend_micros DESC, s.name`,
        )
        .all(row.id, from, to, row.id) as Array<{
        id: string;
        platform_ad_set_id: string;
        name: string;
        effective_status: string;
        learning_status: string | null;
        learning_conversions: number | null;
        daily_budget_micros: number | null;
        targeting: string;
        optimization_goal: string | null;
        ad_count: number;
        spend_micros: number;
        conversions: number;
      }>;
      const adSets: AdSetView[] = adSetRows.map((s) => ({
        id: s.id,
        platformAdSetId: s.platform_ad_set_id,
        name: s.name,
        status: s.effective_status,
        learningPhaseStatus: s.learning_status ? (LEARNING[s.learning_status] ?? null) : null,
        learningConversions: s.learning_conversions,
        dailyBudget: money(s.daily_budget_micros),
        targeting: parseTargeting(s.targeting),
        optimization: s.optimization_goal,
        adCount: s.ad_count,
        spend: microsToAmount(s.spend_micros),
        conversions: s.conversions,
      }));
      const adRows = db
        .prepare(
          `SELECT d.id, d.ad_set_id, s.name AS ad_set_name, d.name, d.effective_status,
             COALESCE(SUM(i.spend_micros), 0) AS spendMicros, COALESCE(SUM(i.impressions), 0) AS impressions,
             COALESCE(SUM(i.clicks), 0) AS clicks, COALESCE(SUM(i.conversions), 0) AS conversions,
             COALESCE(SUM(i.revenue_micros), 0) AS revenueMicros, COALESCE(SUM(i.reach), 0) AS reach
           FROM ads d JOIN ad_sets s ON s.id = d.ad_set_id
           LEFT JOIN insights_ad_daily i ON i.ad_id = d.id AND i.date BETWEEN ? AND ?
           WHERE d.campaign_id = ? GROUP BY d.id ORDER BY spendMicros DESC, d.name`,
        )
        .all(from, to, row.id) as Array<{
        id: string;
        ad_set_id: string;
        ad_set_name: string;
        name: string;
        effective_status: string;
        spendMicros: number;
        impressions: number;
        clicks: number;
        conversions: number;
        revenueMicros: number;
        reach: number;
      }>;
      const ads: AdView[] = adRows.map((d) => {
        const m = deriveMetrics(d);
        return {
          id: d.id,
          adSetId: d.ad_set_id,
          adSetName: d.ad_set_name,
          name: d.name,
          status: d.effective_status,
          spend: m.spend,
          impressions: m.impressions,
          clicks: m.clicks,
          conversions: m.conversions,
          ctr: m.ctr,
        };
      });
      return {
        campaign,
        targetCpa: money(row.target_cpa_micros),
        dateRange: { from, to },
        daily: campaignDaily(db, row.id, from, to).map((d) => ({
          date: d.date,
          spend: d.spend,
          conversions: d.conversions,
          cpa: d.cpa,
          roas: d.roas,
          impressions: d.impressions,
          clicks: d.clicks,
        })),
        adSets,
        ads,
      };
    },
  };
}
