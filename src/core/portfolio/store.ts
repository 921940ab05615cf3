// The portfolio's SQL. Every statement is keyed: per account on the account-day rollup or on the
// (account_id, date, …) covering index of the campaign rows, per workspace on the issues index, so a
// portfolio of 50 accounts and 10,000 campaigns never reads a growing table whole.
import { inAccounts, jsonEach, jsonTuples, least } from '../store/dialect';
import type { Sql } from '../store/sql';
import type { RiskLevel } from '../../shared/api/diagnostics';

/** Spend and counters of an account over a window, from the account-day rollup. */
export async function accountTotals(
  sql: Sql,
  accountId: string,
  from: string,
  to: string,
): Promise<{ spendMicros: number; impressions: number; clicks: number; linkClicks: number }> {
  return (await sql.get(
    `SELECT coalesce(sum(spend_micros), 0) AS spendMicros, coalesce(sum(impressions), 0) AS impressions,
       coalesce(sum(clicks), 0) AS clicks, coalesce(sum(link_clicks), 0) AS linkClicks
     FROM insights_account_daily WHERE account_id = ? AND date BETWEEN ? AND ?`,
    [accountId, from, to],
  )) as { spendMicros: number; impressions: number; clicks: number; linkClicks: number };
}

export interface AccountWindowSums {
  monthMicros: number;
  monthToYesterdayMicros: number;
  weekMicros: number;
}

/**
 * The portfolio's sums of every account in one statement (an agency has 500 accounts: one keyed
 * range of the rollup each, instead of four statements each): this month, this month up to
 * yesterday and the last 7 days. Each account brings its own dates (its own "today").
 */
export async function accountWindowSums(
  sql: Sql,
  windows: ReadonlyArray<{ accountId: string; monthFrom: string; today: string; weekFrom: string }>,
): Promise<Map<string, AccountWindowSums>> {
  if (windows.length === 0) return new Map();
  const rows = await sql.all<AccountWindowSums & { accountId: string }>(
    `WITH w(account_id, month_from, today, week_from) AS (
       ${jsonTuples(sql, ['text', 'text', 'text', 'text'])})
     SELECT w.account_id AS accountId,
       coalesce(sum(CASE WHEN d.date >= w.month_from THEN d.spend_micros END), 0) AS monthMicros,
       coalesce(sum(CASE WHEN d.date >= w.month_from AND d.date < w.today THEN d.spend_micros END), 0)
         AS monthToYesterdayMicros,
       coalesce(sum(CASE WHEN d.date >= w.week_from THEN d.spend_micros END), 0) AS weekMicros
     FROM w JOIN insights_account_daily d
       ON d.account_id = w.account_id AND d.date BETWEEN ${least(sql, 'w.month_from', 'w.week_from')} AND w.today
     GROUP BY w.account_id`,
    [JSON.stringify(windows.map((w) => [w.accountId, w.monthFrom, w.today, w.weekFrom]))],
  );
  return new Map(rows.map(({ accountId, ...sums }) => [accountId, sums]));
}

/** The account's days in a window, from the rollup (days without rows are absent). */
export function accountDays(
  sql: Sql,
  accountId: string,
  from: string,
  to: string,
): Promise<Array<{ date: string; spendMicros: number; impressions: number; clicks: number }>> {
  return sql.all(
    `SELECT date, spend_micros AS spendMicros, impressions, clicks FROM insights_account_daily
     WHERE account_id = ? AND date BETWEEN ? AND ? ORDER BY date`,
    [accountId, from, to],
  );
}

/**
 * Daily budgets in force (micros) of each account: active campaigns' own daily budgets (CBO), plus
 * active ad sets' daily budgets under active campaigns that have none. The same rule as the pacing
 * alert, reached from the accounts' campaigns (indexed) rather than from every ad set, for all the
 * portfolio's accounts in one statement. Both sums are keyed ranges of campaigns_account_budget:
 * (account, ACTIVE, budget set) and (account, ACTIVE, no budget), never the table's rows.
 */
export async function dailyBudgetsMicros(
  sql: Sql,
  accountIds: readonly string[],
): Promise<Map<string, number>> {
  if (accountIds.length === 0) return new Map();
  const rows = await sql.all<{ accountId: string; micros: number }>(
    `SELECT value AS accountId,
       (SELECT coalesce(sum(daily_budget_micros), 0) FROM campaigns
          WHERE account_id = value AND effective_status = 'ACTIVE' AND daily_budget_micros IS NOT NULL)
     + (SELECT coalesce(sum(s.daily_budget_micros), 0) FROM campaigns c JOIN ad_sets s ON s.campaign_id = c.id
          WHERE c.account_id = value AND c.effective_status = 'ACTIVE' AND c.daily_budget_micros IS NULL
            AND s.effective_status = 'ACTIVE' AND s.daily_budget_micros IS NOT NULL) AS micros
     FROM ${jsonEach(sql)}`,
    [JSON.stringify(accountIds)],
  );
  return new Map(rows.map((r) => [r.accountId, r.micros]));
}

/**
 * Live issues (open or acknowledged) of the workspace, or of some of its accounts, counted by account,
 * campaign (null = the whole account) and severity: the portfolio's issue counts and its campaigns at
 * risk, in one statement.
 */
export function liveIssues(
  sql: Sql,
  workspaceId: string,
  accountIds?: readonly string[],
): Promise<Array<{ account_id: string; campaign_id: string | null; severity: RiskLevel; n: number }>> {
  const scope = accountIds
    ? inAccounts(sql, 'i', workspaceId, accountIds)
    : { terms: ['i.workspace_id = ?'], params: [workspaceId] };
  return sql.all(
    `SELECT i.account_id, i.campaign_id, i.severity, count(*) AS n FROM issues i
     WHERE ${scope.terms.join(' AND ')} AND i.state IN ('open', 'acknowledged')
     GROUP BY i.account_id, i.campaign_id, i.severity`,
    scope.params,
  );
}

/**
 * Each campaign's spend over its own window (its account's "today"), in one statement: a keyed range
 * of the (campaign_id, date) key per campaign.
 */
export async function campaignWindowSpends(
  sql: Sql,
  windows: ReadonlyArray<{ campaignId: string; from: string; to: string }>,
): Promise<Map<string, number>> {
  if (windows.length === 0) return new Map();
  const rows = await sql.all<{ campaignId: string; micros: number }>(
    `WITH w(campaign_id, win_from, win_to) AS (${jsonTuples(sql, ['text', 'text', 'text'])})
     SELECT w.campaign_id AS campaignId, coalesce(sum(i.spend_micros), 0) AS micros
     FROM w JOIN insights_campaign_daily i
       ON i.campaign_id = w.campaign_id AND i.date BETWEEN w.win_from AND w.win_to
     GROUP BY w.campaign_id`,
    [JSON.stringify(windows.map((w) => [w.campaignId, w.from, w.to]))],
  );
  return new Map(rows.map((row) => [row.campaignId, row.micros]));
}
