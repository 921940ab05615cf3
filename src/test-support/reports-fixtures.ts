// Test and bench data for reports, written straight into a store with SQL: workspaces, an ad account,
// campaigns (with Cyrillic and accented names), daily insights and completed diagnostics.
import { addDays, dateRange } from '../core/clock';
import { newId } from '../core/ids';
import type { Db } from '../core/store/open';

export const FIXTURE_NAMES = [
  'Кампания Осень',
  'Été Promo Société',
  'Spring Sale | Retargeting',
  'Brand *Awareness* Q2',
  'Prospecting – Lookalike 1%',
  'Zürich Öffnungszeiten',
];

export interface ReportFixture {
  workspaceId: string;
  userId: string;
  accountId: string;
  platformAccountId: string;
  campaignIds: string[];
  /** Another workspace, with its own account and campaign (for isolation tests). */
  other: { workspaceId: string; accountId: string; campaignId: string };
}

/** Deterministic pseudo-random numbers (mulberry32), so fixtures are the same on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function insertAccount(
  db: Db,
  workspaceId: string,
  name: string,
  platformAccountId: string,
  now: string,
): string {
  const connectionId = newId('conn');
  db.prepare(
    `INSERT INTO platform_connections (id, workspace_id, base_url, api_version, mode, token_encrypted, created_at, updated_at)
     VALUES (?, ?, 'http://127.0.0.1:1', 'v25.0', 'test', ?, ?, ?)`,
  ).run(connectionId, workspaceId, Buffer.from('fixture'), now, now);
  const accountId = newId('act');
  db.prepare(
    `INSERT INTO ad_accounts (id, workspace_id, connection_id, platform_account_id, mode, name, currency, timezone,
       status, connected_at)
     VALUES (?, ?, ?, ?, 'test', ?, 'EUR', 'Europe/Berlin', 'active', ?)`,
  ).run(accountId, workspaceId, connectionId, platformAccountId, name, now);
  return accountId;
}

function insertCampaign(db: Db, accountId: string, name: string, index: number, now: string): string {
  const id = newId('camp');
  db.prepare(
    `INSERT INTO campaigns (id, account_id, platform_campaign_id, name, status, effective_status, objective,
       buying_type, created_time, updated_time, insights_synced_at)
     VALUES (?, ?, ?, ?, 'ACTIVE', 'ACTIVE', 'OUTCOME_SALES', 'AUCTION', ?, ?, ?)`,
  ).run(id, accountId, String(2_384_000_000 + index), name, now, now, now);
  return id;
}

export function seedReportFixture(
  db: Db,
  opts: {
    campaigns?: number;
    plan?: 'agency' | 'trial' | 'pro';
    today?: string;
    days?: number;
    seed?: number;
  } = {},
): ReportFixture {
  const count = opts.campaigns ?? 6;
  const today = opts.today ?? '2026-03-31';
  const days = opts.days ?? 200;
  const rand = random(opts.seed ?? 7);
  const now = `${today}T12:00:00.000Z`;
  const workspaceId = newId('ws');
  const userId = newId('user');
  const insertDaily = db.prepare(
    `INSERT INTO insights_campaign_daily (campaign_id, date, account_id, spend_micros, impressions, clicks,
       conversions, revenue_micros, reach, frequency, link_clicks)
     SELECT c, d, a, s, i, k, v, r, h, f, k FROM (SELECT ? AS c, ? AS d, ? AS a, ? AS s, ? AS i, ? AS k, ? AS v,
       ? AS r, ? AS h, ? AS f)`,
  );
  const seed = db.transaction(() => {
    db.prepare(`INSERT INTO workspaces (id, name, plan, created_at) VALUES (?, 'Agence Nord', ?, ?)`).run(
      workspaceId,
      opts.plan ?? 'agency',
      now,
    );
    db.prepare(
      `INSERT INTO users (id, workspace_id, email, name, role, created_at) VALUES (?, ?, 'owner@example.test', 'Owner', 'owner', ?)`,
    ).run(userId, workspaceId, now);
    const platformAccountId = 'act_1234567890';
    const accountId = insertAccount(
      db,
      workspaceId,
      'Boulangerie Électrique — Москва',
      platformAccountId,
      now,
    );
    const campaignIds: string[] = [];
    const first = addDays(today, -(days - 1));
    for (let i = 0; i < count; i += 1) {
      const name = FIXTURE_NAMES[i] ?? `Campaign ${String(i + 1).padStart(2, '0')} Prospecting`;
      const id = insertCampaign(db, accountId, name, i, now);
      campaignIds.push(id);
      const scale = 40 + 25 * i;
      for (const date of dateRange(first, today)) {
        const spend = Math.round(scale * (0.6 + rand() * 0.8) * 1_000_000);
        const impressions = Math.round((spend / 1_000_000) * (80 + rand() * 40));
        const clicks = Math.round(impressions * (0.008 + rand() * 0.01));
        const conversions = Math.round(clicks * (0.02 + rand() * 0.05));
        const revenue = Math.round(conversions * (30 + rand() * 40) * 1_000_000);
        const reach = Math.round(impressions / (1.2 + rand()));
        insertDaily.run(id, date, accountId, spend, impressions, clicks, conversions, revenue, reach, 0);
      }
    }
    const otherWorkspace = newId('ws');
    db.prepare(
      `INSERT INTO workspaces (id, name, plan, created_at) VALUES (?, 'Other Agency', 'agency', ?)`,
    ).run(otherWorkspace, now);
    const otherAccount = insertAccount(db, otherWorkspace, 'Other Account', 'act_999', now);
    const otherCampaign = insertCampaign(db, otherAccount, 'Other Campaign', 99, now);
    return {
      workspaceId,
      userId,
      accountId,
      platformAccountId,
      campaignIds,
      other: { workspaceId: otherWorkspace, accountId: otherAccount, campaignId: otherCampaign },
    };
  });
  return seed();
}

/** A completed campaign diagnostic with one issue and two recommendations, as the diagnostics engine stores it. */
export function seedDiagnostic(
  db: Db,
  f: { workspaceId: string; accountId: string; campaignId: string | null; issueCampaignId?: string },
  opts: { riskLevel: 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL'; from: string; to: string; completedAt: string },
): string {
  const id = newId('diag');
  const issues = [
    {
      id: 'issue_1',
      type: 'CREATIVE_FATIGUE',
      severity: opts.riskLevel === 'LOW' ? 'MEDIUM' : 'HIGH',
      title: 'Creative fatigue in «Осень» ad set',
      description: 'Frequency rose from 1.8 to 4.2 while CTR fell by 38% over 14 days.',
      affectedEntity: { type: 'adSet', id: 'adset_x', name: 'Осень | Broad' },
      ...(f.issueCampaignId ? { campaignId: f.issueCampaignId } : {}),
      evidence: { frequencyTrend: [1.8, 2.5, 4.2], ctrTrend: [1.4, 1.1, 0.87] },
    },
  ];
  const recommendations = [
    {
      id: 'rec_2',
      priority: 2,
      action: 'Broaden the audience of the ad set',
      rationale: 'Reach has flattened; new people are needed.',
      expectedImpact: 'Frequency back under 3 within a week',
      riskLevel: 'MEDIUM',
      relatedIssues: ['issue_1'],
    },
    {
      id: 'rec_1',
      priority: 1,
      action: 'Refresh the creatives of «Осень | Broad»',
      rationale: 'The current ads have been shown too often to the same people.',
      expectedImpact: 'CTR recovers by about 20-30%',
      riskLevel: 'LOW',
      relatedIssues: ['issue_1'],
    },
  ];
  db.prepare(
    `INSERT INTO diagnostics (id, workspace_id, account_id, campaign_id, status, date_from, date_to, risk_level,
       summary, issues_detected, recommendation_count, result, created_at, started_at, completed_at)
     VALUES (?, ?, ?, ?, 'completed', ?, ?, ?, ?, 1, 2, ?, ?, ?, ?)`,
  ).run(
    id,
    f.workspaceId,
    f.accountId,
    f.campaignId,
    opts.from,
    opts.to,
    opts.riskLevel,
    `Risk ${opts.riskLevel}: creative fatigue is lifting costs; CPA is up 24% on the previous fortnight.`,
    JSON.stringify({ issues, recommendations }),
    opts.completedAt,
    opts.completedAt,
    opts.completedAt,
  );
  return id;
}
