// The portfolio's SQL. Every statement is keyed: per account on the account-day rollup or on the
// (account_id, date, …) covering index of the campaign rows, per workspace on the issues index, so a
// portfolio of 50 accounts and 10,000 campaigns never reads a growing table whole.
import { stmt } from '../store/statements';
import type { Db } from '../store/open';
import type { RiskLevel } from '../../shared/api/diagnostics';

/** Spend and counters of an account over a window, from the account-day rollup. */
export function accountTotals(
  db: Db,
  accountId: string,
  from: string,
  to: string,
): { spendMicros: number; impressions: number; clicks: number; linkClicks: number } {
  return stmt(
    db,
    `SELECT coalesce(sum(spend_micros), 0) AS spendMicros, coalesce(sum(impressions), 0) AS impressions,
       coalesce(sum(clicks), 0) AS clicks, coalesce(sum(link_clicks), 0) AS linkClicks
     FROM insights_account_daily WHERE account_id = ? AND date BETWEEN ? AND ?`,
  ).get(accountId, from, to) as {
    spendMicros: number;
    impressions: number;
    clicks: number;
    linkClicks: number;
  };
}

export interface AccountWindowSums {
  monthMicros: number;
  monthToYesterdayMicros: number;
  weekMicros: number;
  /** windowFingerprint of the month. */
  monthFingerprint: string;
}

/**
 * The portfolio's sums of every account in one statement (an agency has 500 accounts: one keyed
 * range of the rollup each, instead of four statements each): this month, this month up to
 * yesterday, the last 7 days, and the month's fingerprint. Each account brings its own dates (its
 * own "today").
 */
export function accountWindowSums(
  db: Db,
  windows: ReadonlyArray<{ accountId: string; monthFrom: string; today: string; weekFrom: string }>,
): Map<string, AccountWindowSums> {
  if (windows.length === 0) return new Map();
  const rows = stmt(
    db,
    `WITH w(account_id, month_from, today, week_from) AS (
       SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),
         json_extract(value, '$[3]')
       FROM json_each(?))
     SELECT w.account_id AS accountId,
       coalesce(sum(CASE WHEN d.date >= w.month_from THEN d.spend_micros END), 0) AS monthMicros,
       coalesce(sum(CASE WHEN d.date >= w.month_from AND d.date < w.today THEN d.spend_micros END), 0)
         AS monthToYesterdayMicros,
       coalesce(sum(CASE WHEN d.date >= w.week_from THEN d.spend_micros END), 0) AS weekMicros,
       count(CASE WHEN d.date >= w.month_from THEN 1 END) || ':' ||
         coalesce(sum(CASE WHEN d.date >= w.month_from THEN d.spend_micros END), 0) || ':' ||
         coalesce(sum(CASE WHEN d.date >= w.month_from THEN d.conversions END), 0) || ':' ||
         coalesce(sum(CASE WHEN d.date >= w.month_from THEN d.revenue_micros END), 0) AS monthFingerprint
     FROM w JOIN insights_account_daily d
       ON d.account_id = w.account_id AND d.date BETWEEN min(w.month_from, w.week_from) AND w.today
     GROUP BY w.account_id`,
  ).all(JSON.stringify(windows.map((w) => [w.accountId, w.monthFrom, w.today, w.weekFrom]))) as Array<
    AccountWindowSums & { accountId: string }
  >;
  return new Map(rows.map(({ accountId, ...sums }) => [accountId, sums]));
}

/**
 * What the account's synced numbers over a window add up to (rows, spend, results, revenue): moves
 * whenever a campaign row of the window is written, so it keys the memo of the results per type.
 */
export function windowFingerprint(db: Db, accountId: string, from: string, to: string): string {
  return stmt(
    db,
    `SELECT count(*) || ':' || coalesce(sum(spend_micros), 0) || ':' || coalesce(sum(conversions), 0) || ':' ||
       coalesce(sum(revenue_micros), 0) FROM insights_account_daily WHERE account_id = ? AND date BETWEEN ? AND ?`,
  )
    .pluck()
    .get(accountId, from, to) as string;
}

/** The account's days in a window, from the rollup (days without rows are absent). */
export function accountDays(
  db: Db,
  accountId: string,
  from: string,
  to: string,
): Array<{ date: string; spendMicros: number; impressions: number; clicks: number }> {
  return stmt(
    db,
    `SELECT date, spend_micros AS spendMicros, impressions, clicks FROM insights_account_daily
     WHERE account_id = ? AND date BETWEEN ? AND ? ORDER BY date`,
  ).all(accountId, from, to) as Array<{
    date: string;
    spendMicros: number;
    impressions: number;
    clicks: number;
  }>;
}

export interface ResultTypeRow {
  result_type: string | null;
  result_name: string | null;
  campaigns: number;
  results: number;
  spend_micros: number;
  revenue_micros: number;
}

/**
 * Results per result type over a window: the campaign rows summed per campaign on the covering index
 * (account_id, date, campaign_id, …), then grouped by the campaign's result type and name.
 */
export function resultsByType(db: Db, accountId: string, from: string, to: string): ResultTypeRow[] {
  return stmt(
    db,
    `SELECT c.result_type, c.result_name, count(*) AS campaigns, sum(x.results) AS results,
       sum(x.spend) AS spend_micros, sum(x.revenue) AS revenue_micros
     FROM (SELECT campaign_id, sum(conversions) AS results, sum(spend_micros) AS spend, sum(revenue_micros) AS revenue
           FROM insights_campaign_daily WHERE account_id = ? AND date BETWEEN ? AND ? GROUP BY campaign_id) x
     JOIN campaigns c ON c.id = x.campaign_id
     GROUP BY c.result_type, c.result_name ORDER BY spend_micros DESC`,
  ).all(accountId, from, to) as ResultTypeRow[];
}

/**
 * Daily budgets in force (micros) of each account: active campaigns' own daily budgets (CBO), plus
 * active ad sets' daily budgets under active campaigns that have none. The same rule as the pacing
 * alert, reached from the accounts' campaigns (indexed) rather than from every ad set, for all the
 * portfolio's accounts in one statement. Both sums are keyed ranges of campaigns_account_budget:
 * (account, ACTIVE, budget set) and (account, ACTIVE, no budget), never the table's rows.
 */
export function dailyBudgetsMicros(db: Db, accountIds: readonly string[]): Map<string, number> {
  if (accountIds.length === 0) return new Map();
  const rows = stmt(
    db,
    `SELECT value AS accountId,
       (SELECT coalesce(sum(daily_budget_micros), 0) FROM campaigns
          WHERE account_id = value AND effective_status = 'ACTIVE' AND daily_budget_micros IS NOT NULL)
     + (SELECT coalesce(sum(s.daily_budget_micros), 0) FROM campaigns c JOIN ad_sets s ON s.campaign_id = c.id
          WHERE c.account_id = value AND c.effective_status = 'ACTIVE' AND c.daily_budget_micros IS NULL
            AND s.effective_status = 'ACTIVE' AND s.daily_budget_micros IS NOT NULL) AS micros
     FROM json_each(?)`,
  ).all(JSON.stringify(accountIds)) as Array<{ accountId: string; micros: number }>;
  return new Map(rows.map((r) => [r.accountId, r.micros]));
}

/** Live issues (open or acknowledged) of the workspace by account and severity. */
export function liveIssueCounts(
  db: Db,
  workspaceId: string,
): Array<{ account_id: string; severity: RiskLevel; n: number }> {
  return stmt(
    db,
    `SELECT account_id, severity, count(*) AS n FROM issues
     WHERE workspace_id = ? AND state IN ('open', 'acknowledged') GROUP BY account_id, severity`,
  ).all(workspaceId) as Array<{ account_id: string; severity: RiskLevel; n: number }>;
}

/** The campaigns (null = the whole account) of the workspace with a live HIGH or CRITICAL issue. */
export function seriousIssueScopes(
  db: Db,
  workspaceId: string,
): Array<{ account_id: string; campaign_id: string | null }> {
  return stmt(
    db,
    `SELECT DISTINCT account_id, campaign_id FROM issues
     WHERE workspace_id = ? AND state IN ('open', 'acknowledged') AND severity IN ('HIGH', 'CRITICAL')`,
  ).all(workspaceId) as Array<{ account_id: string; campaign_id: string | null }>;
}

/** One campaign's spend over a window (its own (campaign_id, date) key). */
export function campaignSpendMicros(db: Db, campaignId: string, from: string, to: string): number {
  return (
    stmt(
      db,
      `SELECT coalesce(sum(spend_micros), 0) AS micros FROM insights_campaign_daily
       WHERE campaign_id = ? AND date BETWEEN ? AND ?`,
    ).get(campaignId, from, to) as { micros: number }
  ).micros;
}
