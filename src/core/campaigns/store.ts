// The campaign read models' SQL: the /v1 list page (sorted, filtered, per-account insight windows),
// the screens' table and detail (ad sets and ads with their metrics) with each campaign's latest
// diagnostic (diagnostics/latest.ts), each computed set-based so 1,000 rows stay cheap.
import type { AdSetView, AdView, CampaignMetrics, CampaignRow } from '../../shared/ipc/types';
import { effectiveGoal, goalsOf } from '../goals/store';
import {
  accountScope,
  outsideAccountScope,
  visibleAccounts,
  type RequestContext,
  type VisibleAccount,
} from '../identity/access';
import { jsonValues } from '../store/dialect';
import { latestDiagnostics } from '../diagnostics/latest';
import { keptPlan, type Sql } from '../store/sql';
import { campaignInsights, type CampaignInsights as StoreInsights } from '../insights';
import { deriveMetrics } from '../insights/metrics';
import { microsToAmount } from '../money';
import type { PageAnchors } from './page-anchors';
import type { CampaignRow as CampaignBaseRow } from './views';

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
  result_type: string | null;
  result_name: string | null;
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

export function campaignRows(
  sql: Sql,
  ctx: RequestContext,
  where: string,
  params: string[],
): Promise<CampaignDbRow[]> {
  return sql.all<CampaignDbRow>(
    `SELECT c.id, c.platform_campaign_id, c.account_id, a.name AS account_name, a.currency, a.timezone,
         c.name, c.effective_status, c.objective, c.result_type, c.result_name, c.bid_strategy, c.daily_budget_micros,
         c.lifetime_budget_micros, c.target_cpa_micros, c.insights_synced_at, c.last_synced_at,
         c.ad_set_count, c.ad_count
       FROM campaigns c JOIN ad_accounts a ON a.id = c.account_id
       WHERE a.workspace_id = ? ${where}
       ORDER BY c.name, c.id`,
    [ctx.workspaceId, ...params],
  );
}

const ZERO_METRICS: CampaignMetrics = {
  spend: 0,
  impressions: 0,
  clicks: 0,
  conversions: 0,
  revenue: 0,
  cpa: null,
  roas: null,
  ctr: null,
  cpm: null,
  linkClicks: 0,
  reach: 0,
  frequency: null,
};

function metricsOf(m: StoreInsights | undefined): CampaignMetrics {
  if (!m) return ZERO_METRICS;
  return {
    spend: m.spend,
    impressions: m.impressions,
    clicks: m.clicks,
    conversions: m.conversions,
    revenue: m.revenue,
    cpa: m.cpa,
    roas: m.roas,
    ctr: m.ctr,
    cpm: m.cpm,
    linkClicks: m.linkClicks,
    reach: m.reach,
    frequency: m.frequency,
  };
}

/** Campaign rows with their metrics over the range and, when compared, over the comparison period. */
export async function toRows(
  sql: Sql,
  rows: CampaignDbRow[],
  metrics: Map<string, StoreInsights>,
  previous: Map<string, StoreInsights> | null,
): Promise<CampaignRow[]> {
  const latest = await latestDiagnostics(
    sql,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    platformCampaignId: r.platform_campaign_id,
    accountId: r.account_id,
    accountName: r.account_name,
    name: r.name,
    status: r.effective_status,
    objective: r.objective,
    resultType: r.result_type,
    resultName: r.result_name,
    bidStrategy: r.bid_strategy,
    dailyBudget: money(r.daily_budget_micros),
    lifetimeBudget: money(r.lifetime_budget_micros),
    currency: r.currency,
    adSetCount: r.ad_set_count,
    adCount: r.ad_count,
    synced: r.insights_synced_at !== null,
    lastSyncedAt: r.last_synced_at,
    ...metricsOf(metrics.get(r.id)),
    latestDiagnostic: latest.get(r.id) ?? null,
    previous: previous ? metricsOf(previous.get(r.id)) : null,
  }));
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

export async function screenAdSetsAndAds(
  sql: Sql,
  row: { id: string },
  from: string,
  to: string,
): Promise<{ adSets: AdSetView[]; ads: AdView[] }> {
  const adSetRows = await sql.all<{
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
  }>(
    `SELECT s.id, s.platform_ad_set_id, s.name, s.effective_status, s.learning_status, s.learning_conversions,
         s.daily_budget_micros, s.targeting, s.optimization_goal,
         (SELECT COUNT(*) FROM ads d WHERE d.ad_set_id = s.id) AS ad_count,
         COALESCE(i.spend_micros, 0) AS spend_micros, COALESCE(i.conversions, 0) AS conversions
       FROM ad_sets s
       LEFT JOIN (SELECT ad_set_id, SUM(spend_micros) AS spend_micros, SUM(conversions) AS conversions
                  FROM insights_ad_set_daily WHERE campaign_id = ? AND date BETWEEN ? AND ?
                  GROUP BY ad_set_id) i ON i.ad_set_id = s.id
       WHERE s.campaign_id = ? ORDER BY spend_micros DESC, s.name`,
    [row.id, from, to, row.id],
  );
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
  // Ordered by the spend expression: PostgreSQL folds an unquoted camelCase alias in ORDER BY.
  const adRows = await sql.all<{
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
    linkClicks: number;
  }>(
    `SELECT d.id, d.ad_set_id, s.name AS ad_set_name, d.name, d.effective_status,
         COALESCE(SUM(i.spend_micros), 0) AS spendMicros, COALESCE(SUM(i.impressions), 0) AS impressions,
         COALESCE(SUM(i.clicks), 0) AS clicks, COALESCE(SUM(i.conversions), 0) AS conversions,
         COALESCE(SUM(i.revenue_micros), 0) AS revenueMicros, COALESCE(SUM(i.reach), 0) AS reach,
         COALESCE(SUM(i.link_clicks), 0) AS linkClicks
       FROM ads d JOIN ad_sets s ON s.id = d.ad_set_id
       LEFT JOIN insights_ad_daily i ON i.ad_id = d.id AND i.date BETWEEN ? AND ?
       WHERE d.campaign_id = ? GROUP BY d.id, s.name ORDER BY COALESCE(SUM(i.spend_micros), 0) DESC, d.name`,
    [from, to, row.id],
  );
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
  return { adSets, ads };
}

const SORT_SQL: Record<string, string> = {
  name: 'c.name ASC, c.id ASC',
  '-name': 'c.name DESC, c.id DESC',
  spend: 'spend_micros ASC, c.id ASC',
  '-spend': 'spend_micros DESC, c.id ASC',
  createdAt: 'c.created_time ASC, c.id ASC',
  '-createdAt': 'c.created_time DESC, c.id ASC',
  updatedAt: 'c.updated_time ASC, c.id ASC',
  '-updatedAt': 'c.updated_time DESC, c.id ASC',
};

export interface PageRow extends CampaignBaseRow {
  ad_set_count: number;
  ad_count: number;
}

/** An account as a page's insight windows need it (a `VisibleAccount`, or a listed campaign's account). */
export interface WindowedAccount {
  id: string;
  timezone: string;
}

/**
 * One page of the /v1 list, each account over its own insight window (its own "today"), and the
 * same campaigns over each account's comparison window when one is given.
 *
 * At agency scale (50,000 campaigns) a page must not touch every campaign: the page's IDs come from
 * an index in the sort's order (the workspace's campaigns by name through campaigns_name_order, an
 * account's through campaigns_account_name), the total from the accounts' maintained campaign
 * counts, and only the page's rows are read. Sorting by spend needs every campaign's spend in its
 * window, so it sums the selected accounts' campaign days (cheap for an account, heavy for a whole
 * agency: see docs/scale.md).
 *
 * `accounts: null` is the whole workspace without its accounts read: a page by name needs only the
 * accounts of its own campaigns (an agency's 500 are not read for 20 lines); a page by spend ranks
 * every account's window, so it reads them here.
 */
export async function campaignPage(
  sql: Sql,
  ctx: RequestContext,
  accounts: VisibleAccount[] | null,
  filter: {
    status?: string | undefined;
    sort: string;
    page: number;
    pageSize: number;
    /** True when `accounts` is every account the context sees (no account filter), or null. */
    wholeWorkspace?: boolean | undefined;
  },
  windowOf: (account: WindowedAccount) => { from: string; to: string },
  comparisonOf?: (account: WindowedAccount) => { from: string; to: string } | null,
  /** Where pages of the whole workspace by name begin (kept by the caller, one per process). */
  anchors?: PageAnchors,
): Promise<{
  rows: PageRow[];
  total: number;
  insights: Map<string, StoreInsights>;
  previous: Map<string, StoreInsights> | null;
}> {
  if (accounts === null && !filter.wholeWorkspace)
    throw new Error('campaignPage: no accounts given for a page that is not the whole workspace');
  const bySpend = filter.sort.endsWith('spend');
  const listed = accounts ?? (bySpend ? await visibleAccounts(sql, ctx) : null);
  const offset = (filter.page - 1) * filter.pageSize;
  const selection = selectionOf(sql, ctx, listed ?? [], filter);
  const { total, version } = await countSelection(sql, ctx, selection, filter);
  // The list of this reader's scope (workspace and mode) at this version.
  const anchored =
    anchors && version !== null ? { anchors, list: `${ctx.workspaceId}|${ctx.mode}|${version}` } : undefined;
  const ids =
    bySpend && listed
      ? await idsBySpend(
          sql,
          selection,
          listed,
          new Map(listed.map((a) => [a.id, windowOf(a)])),
          filter.sort,
          filter.pageSize,
          offset,
        )
      : await idsInOrder(sql, selection, filter.sort, filter.pageSize, offset, anchored);
  const byId = new Map(
    (
      await sql.all<CampaignBaseRow & { ad_set_count: number; ad_count: number }>(
        keptPlan(`SELECT c.*, a.currency, a.timezone FROM campaigns c JOIN ad_accounts a ON a.id = c.account_id
         WHERE c.id IN ${jsonValues(sql)}`),
        [JSON.stringify(ids)],
      )
    ).map((row) => [row.id, row]),
  );
  // Given accounts are a second fence: a campaign of another account is never shown.
  const visible = accounts ? new Set(accounts.map((a) => a.id)) : null;
  const rows: PageRow[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (row && (!visible || visible.has(row.account_id))) rows.push(row);
  }
  const insights = await insightsByWindow(sql, rows, (row) =>
    windowOf({ id: row.account_id, timezone: row.timezone }),
  );
  let previous: Map<string, StoreInsights> | null = null;
  if (comparisonOf) {
    const compared = new Map(
      rows.map((row) => [row.id, comparisonOf({ id: row.account_id, timezone: row.timezone })]),
    );
    if ([...compared.values()].every((w) => w !== null))
      previous = await insightsByWindow(sql, rows, (row) => compared.get(row.id) as DateWindow);
  }
  return { rows, total, insights, previous };
}

/** Which campaigns a page is taken from: the workspace's (scope) or the listed accounts'. */
interface Selection {
  /** SQL condition on `c` (campaigns) and its parameters. */
  sql: string;
  params: string[];
  wholeWorkspace: boolean;
  accountIds: string[];
}

function selectionOf(
  sql: Sql,
  ctx: RequestContext,
  accounts: VisibleAccount[],
  filter: { status?: string | undefined; wholeWorkspace?: boolean | undefined },
): Selection {
  const accountIds = accounts.map((a) => a.id);
  const parts: string[] = [];
  const params: string[] = [];
  if (filter.wholeWorkspace) {
    // One probe of a small in-memory set per index entry (the scope's accounts), no table visit; none
    // at all when the scope leaves no account of the store out (one workspace, a caller who sees every
    // account): the first term is computed once per statement, and a deep page walks the name order
    // without a check per entry (6 ms → 0.5 ms at 40,000 entries). A campaign's account always exists
    // (foreign key), so no account out of scope means no campaign out of scope.
    const scope = accountScope(ctx);
    const outside = outsideAccountScope(ctx);
    parts.push(
      `(NOT EXISTS (SELECT 1 FROM ad_accounts a WHERE ${outside.sql}) OR c.account_id IN (SELECT a.id FROM ad_accounts a WHERE ${scope.sql}))`,
    );
    params.push(...outside.params, ...scope.params);
  } else {
    parts.push(`c.account_id IN ${jsonValues(sql)}`);
    params.push(JSON.stringify(accountIds));
  }
  if (filter.status) {
    parts.push('c.status = ?');
    params.push(filter.status);
  }
  return { sql: parts.join(' AND '), params, wholeWorkspace: filter.wholeWorkspace === true, accountIds };
}

/**
 * The total of the list: maintained per-account counts unless a status filter needs counting. The
 * whole workspace's unfiltered list also gets its version: the number of the scope's accounts and the
 * sum of their revisions. Accounts and campaigns are never deleted (archived, not removed) and any
 * write to a campaign moves its account's revision up, so every campaign added or renamed in the
 * scope, and every account added to it, gives another version (page-anchors.ts keeps anchors under it).
 */
async function countSelection(
  sql: Sql,
  ctx: RequestContext,
  selection: Selection,
  filter: { status?: string | undefined },
): Promise<{ total: number; version: string | null }> {
  if (filter.status) {
    const row = await sql.get<{ n: number }>(
      `SELECT count(*) AS n FROM campaigns c WHERE ${selection.sql}`,
      selection.params,
    );
    return { total: row?.n ?? 0, version: null };
  }
  if (selection.wholeWorkspace) {
    const scope = accountScope(ctx);
    const row = await sql.get<{ n: number; accounts: number; revisions: number | string }>(
      keptPlan(`SELECT coalesce(sum(a.campaign_count), 0) AS n, count(*) AS accounts,
         coalesce(sum(a.revision), 0) AS revisions
       FROM ad_accounts a WHERE ${scope.sql}`),
      scope.params,
    );
    const total = row?.n ?? 0;
    return { total, version: `${total}:${row?.accounts ?? 0}:${row?.revisions ?? 0}` };
  }
  const row = await sql.get<{ n: number }>(
    keptPlan(`SELECT coalesce(sum(campaign_count), 0) AS n FROM ad_accounts WHERE id IN ${jsonValues(sql)}`),
    [JSON.stringify(selection.accountIds)],
  );
  return { total: row?.n ?? 0, version: null };
}

/**
 * A page's IDs in a column order. The whole workspace by name walks campaigns_name_order (sorted,
 * covering), stopping after the page, from the nearest page anchor when `anchored` (the list's
 * version is known); otherwise the selection is small enough (some accounts) or the order has no index
 * (created/updated time), and the database sorts what the selection holds.
 */
async function idsInOrder(
  sql: Sql,
  selection: Selection,
  sort: string,
  limit: number,
  offset: number,
  anchored?: { anchors: PageAnchors; list: string },
): Promise<string[]> {
  const order = SORT_SQL[sort] ?? (SORT_SQL.name as string);
  const byName = sort === 'name' || sort === '-name';
  // SQLite's planner is told which index walks the name order; PostgreSQL has no such hint.
  const index =
    selection.wholeWorkspace && byName && sql.engine === 'sqlite' ? ' INDEXED BY campaigns_name_order' : '';
  if (!byName || !selection.wholeWorkspace || !anchored) {
    // Some accounts' campaigns are sorted: planned with the list's length (one account's hundred, or
    // an agency's thousands, are read by different indexes).
    const text = `SELECT c.id FROM campaigns c${index} WHERE ${selection.sql} ORDER BY ${order} LIMIT ? OFFSET ?`;
    const rows = await sql.all<{ id: string }>(selection.wholeWorkspace && byName ? keptPlan(text) : text, [
      ...selection.params,
      limit,
      offset,
    ]);
    return rows.map((r) => r.id);
  }
  const list = `${anchored.list}|${sort}`;
  const from = anchored.anchors.nearest(list, offset);
  // The anchor's own campaign is the first row from it: the same order's comparison, ties on id.
  const seek = from ? ` AND (c.name, c.id) ${sort === 'name' ? '>=' : '<='} (?, ?)` : '';
  const rows = await sql.all<{ id: string; name: string }>(
    keptPlan(
      `SELECT c.id, c.name FROM campaigns c${index} WHERE ${selection.sql}${seek} ORDER BY ${order} LIMIT ? OFFSET ?`,
    ),
    [...selection.params, ...(from ? [from.name, from.id] : []), limit, offset - (from?.offset ?? 0)],
  );
  const first = rows[0];
  if (first) anchored.anchors.remember(list, { offset, name: first.name, id: first.id });
  return rows.map((r) => r.id);
}

/** A page's IDs by spend in each account's window (its own "today"). */
async function idsBySpend(
  sql: Sql,
  selection: Selection,
  accounts: VisibleAccount[],
  windows: Map<string, DateWindow>,
  sort: string,
  limit: number,
  offset: number,
): Promise<string[]> {
  const values = accounts.map(() => '(?, ?, ?)').join(', ');
  const windowParams = accounts.flatMap((a) => {
    const w = windows.get(a.id) as DateWindow;
    return [a.id, w.from, w.to];
  });
  // SQLite sums each campaign's own key (campaign_id, date). PostgreSQL's primary key holds no values
  // (a heap fetch a day: 700 for an account's hundred campaigns over 7 days), but its covering
  // (account_id, date, …) index gives the accounts' windows from the index alone (17 pages, not 500).
  const text =
    sql.engine === 'sqlite'
      ? `WITH w(account_id, win_from, win_to) AS (VALUES ${values})
     SELECT c.id,
       (SELECT coalesce(sum(i.spend_micros), 0) FROM insights_campaign_daily i
        WHERE i.campaign_id = c.id AND i.date BETWEEN w.win_from AND w.win_to) AS spend_micros
     FROM campaigns c JOIN w ON w.account_id = c.account_id
     WHERE ${selection.sql}
     ORDER BY ${SORT_SQL[sort]} LIMIT ? OFFSET ?`
      : `WITH w(account_id, win_from, win_to) AS (VALUES ${values}),
       s AS (SELECT i.campaign_id, sum(i.spend_micros) AS spend
             FROM w JOIN insights_campaign_daily i
               ON i.account_id = w.account_id AND i.date BETWEEN w.win_from AND w.win_to
             GROUP BY i.campaign_id)
     SELECT c.id, coalesce(s.spend, 0) AS spend_micros
     FROM campaigns c JOIN w ON w.account_id = c.account_id LEFT JOIN s ON s.campaign_id = c.id
     WHERE ${selection.sql}
     ORDER BY ${SORT_SQL[sort]} LIMIT ? OFFSET ?`;
  // One account's campaigns keep their plan; several accounts' are planned with their number.
  const rows = await sql.all<{ id: string }>(accounts.length === 1 ? keptPlan(text) : text, [
    ...windowParams,
    ...selection.params,
    limit,
    offset,
  ]);
  return rows.map((r) => r.id);
}

type DateWindow = { from: string; to: string };

/** Insights per window group (accounts in different time zones have different "today"s). */
async function insightsByWindow(
  sql: Sql,
  rows: PageRow[],
  windowOf: (row: PageRow) => DateWindow,
): Promise<Map<string, StoreInsights>> {
  const groups = new Map<string, { ids: string[]; accountIds: Set<string> }>();
  for (const row of rows) {
    const w = windowOf(row);
    const key = `${w.from}|${w.to}`;
    let group = groups.get(key);
    if (!group) {
      group = { ids: [], accountIds: new Set() };
      groups.set(key, group);
    }
    group.ids.push(row.id);
    group.accountIds.add(row.account_id);
  }
  const insights = new Map<string, StoreInsights>();
  for (const [key, { ids, accountIds }] of groups) {
    const [start, end] = key.split('|') as [string, string];
    for (const [id, m] of await campaignInsights(sql, ids, start, end, [...accountIds])) insights.set(id, m);
  }
  return insights;
}

export async function campaignWithAccount(sql: Sql, campaignId: string): Promise<CampaignBaseRow> {
  return (await sql.get<CampaignBaseRow>(
    keptPlan(
      `SELECT c.*, a.currency, a.timezone FROM campaigns c JOIN ad_accounts a ON a.id = c.account_id WHERE c.id = ?`,
    ),
    [campaignId],
  )) as CampaignBaseRow;
}

export async function firstInsightDate(sql: Sql, campaignId: string): Promise<string | undefined> {
  const row = await sql.get<{ d: string | null }>(
    keptPlan(`SELECT min(date) AS d FROM insights_campaign_daily WHERE campaign_id = ?`),
    [campaignId],
  );
  return row?.d ?? undefined;
}

/** The campaign's target CPA in micros: its CPA goal (its own, else the account's), else none. */
export async function targetCpaMicros(sql: Sql, campaignId: string): Promise<number | null> {
  const row = await sql.get<{ account_id: string }>(`SELECT account_id FROM campaigns WHERE id = ?`, [
    campaignId,
  ]);
  if (!row) return null;
  const goal = effectiveGoal(await goalsOf(sql, row.account_id), campaignId);
  return goal?.kind === 'CPA' ? Math.round(goal.target * 1_000_000) : null;
}
