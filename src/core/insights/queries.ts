// The insights' SQL. ID lists travel as one JSON parameter, so each statement text is built once per
// engine whatever the list length, and the planner still uses the (id, date) keys. Account-wide
// totals and days read the trigger-maintained account-day rollup; a campaign selection reads the
// campaign rows (always confined to the caller's accounts as well).
import { jsonEach, jsonTuples, jsonValues, unindexed } from '../store/dialect';
import { keptPlan, type Sql } from '../store/sql';
import type { RawTotals } from './metrics';
import { bySpend, type ResultTypeRow } from './result-groups';

const SUMS = `coalesce(sum(spend_micros), 0) AS spendMicros, coalesce(sum(impressions), 0) AS impressions,
  coalesce(sum(clicks), 0) AS clicks, coalesce(sum(conversions), 0) AS conversions,
  coalesce(sum(revenue_micros), 0) AS revenueMicros, coalesce(sum(reach), 0) AS reach,
  coalesce(sum(link_clicks), 0) AS linkClicks`;

/** A rollup or campaign row's counters under RawTotals' names. */
const COLUMNS = `spend_micros AS spendMicros, impressions, clicks, conversions, revenue_micros AS revenueMicros,
  reach, link_clicks AS linkClicks`;

function build(sql: Sql) {
  const list = jsonValues(sql);
  // Parameters: accounts, from, to.
  const accounts = `account_id IN ${list} AND date BETWEEN ? AND ?`;
  // Parameters: campaigns, from, to, accounts. The accounts only confine the selection: SQLite would
  // otherwise search the account's (account_id, date) index, every campaign of the account over the
  // window (a lifetime detail: 73,000 rows for 730, 21 ms instead of 5), rather than the campaigns' keys.
  const campaigns = `campaign_id IN ${list} AND date BETWEEN ? AND ? AND ${unindexed(sql, 'account_id')} IN ${list}`;
  // Parameters: accounts, from, to. Every campaign of the accounts over the window: SQLite walks each
  // campaign's own key (campaign_id, date), rows already in campaign order, so nothing is sorted;
  // PostgreSQL scans the covering (account_id, date, …) index and hashes (its primary key holds no
  // values, so each row there would be a heap fetch).
  const accountCampaigns =
    sql.engine === 'sqlite'
      ? `campaign_id IN (SELECT id FROM campaigns WHERE account_id IN ${list}) AND date BETWEEN ? AND ?`
      : accounts;
  return {
    accounts: {
      totals: `SELECT ${SUMS} FROM insights_account_daily WHERE ${accounts}`,
      daily: `SELECT date, ${SUMS} FROM insights_account_daily WHERE ${accounts} GROUP BY date`,
      perCampaign: `SELECT campaign_id AS campaignId, ${SUMS} FROM insights_campaign_daily WHERE ${accountCampaigns}
        GROUP BY campaign_id`,
      // One row per account from the rollup: its sums.
      perAccount: `SELECT account_id AS accountId, ${SUMS}
        FROM insights_account_daily WHERE ${accounts} GROUP BY account_id`,
      // Each account's rollup days as they are.
      days: `SELECT account_id AS accountId, date, ${COLUMNS} FROM insights_account_daily WHERE ${accounts}`,
      // Results per result type of each account: its campaign rows summed per campaign, grouped by the
      // campaign's result type and name.
      resultsPerAccount: `SELECT x.account_id AS accountId, c.result_type, c.result_name, count(*) AS campaigns,
          sum(x.results) AS results, sum(x.spend) AS spend_micros, sum(x.revenue) AS revenue_micros
        FROM (SELECT campaign_id, min(account_id) AS account_id, sum(conversions) AS results,
                sum(spend_micros) AS spend, sum(revenue_micros) AS revenue
              FROM insights_campaign_daily WHERE ${accountCampaigns} GROUP BY campaign_id) x
        JOIN campaigns c ON c.id = x.campaign_id
        GROUP BY x.account_id, c.result_type, c.result_name`,
    },
    // Chosen campaigns by their own keys, however many: plans kept on a team server (`keptPlan`).
    campaigns: {
      totals: keptPlan(`SELECT ${SUMS} FROM insights_campaign_daily WHERE ${campaigns}`),
      daily: keptPlan(`SELECT date, ${SUMS} FROM insights_campaign_daily WHERE ${campaigns} GROUP BY date`),
      perCampaign:
        keptPlan(`SELECT campaign_id AS campaignId, ${SUMS} FROM insights_campaign_daily WHERE ${campaigns}
        GROUP BY campaign_id`),
    },
    accountsOf: keptPlan(`SELECT DISTINCT account_id FROM campaigns WHERE id IN ${list}`),
    names:
      keptPlan(`SELECT id, name, result_type AS resultType, result_name AS resultName, account_id AS accountId
      FROM campaigns WHERE id IN ${list}`),
    // Every campaign of several accounts, each account over its own window (its own "today"): one
    // statement per range, a keyed search of the covering (account_id, date, …) index per account.
    perCampaignInWindows: `WITH w(account_id, win_from, win_to) AS (${jsonTuples(sql, ['text', 'text', 'text'])})
       SELECT i.campaign_id AS campaignId, ${SUMS}
       FROM w JOIN insights_campaign_daily i
         ON i.account_id = w.account_id AND i.date BETWEEN w.win_from AND w.win_to
       GROUP BY i.campaign_id`,
    firstDates: `SELECT value AS accountId,
         (SELECT min(date) FROM insights_account_daily d WHERE d.account_id = value) AS firstDate
       FROM ${jsonEach(sql)}`,
  };
}

type Statements = ReturnType<typeof build>;
const texts = new Map<Sql['engine'], Statements>();

/** The statement texts for an engine (built once each). */
export function statements(sql: Sql): Statements {
  let s = texts.get(sql.engine);
  if (!s) {
    s = build(sql);
    texts.set(sql.engine, s);
  }
  return s;
}

export interface Scope {
  accountIds: readonly string[];
  campaignIds?: readonly string[] | undefined;
}

export interface Window {
  from: string;
  to: string;
}

function pick(sql: Sql, scope: Scope, window: Window) {
  const s = statements(sql);
  const accounts = JSON.stringify(scope.accountIds);
  return scope.campaignIds
    ? { set: s.campaigns, params: [JSON.stringify(scope.campaignIds), window.from, window.to, accounts] }
    : { set: s.accounts, params: [accounts, window.from, window.to] };
}

export async function sumTotals(sql: Sql, scope: Scope, window: Window): Promise<RawTotals> {
  const { set, params } = pick(sql, scope, window);
  return (await sql.get<RawTotals>(set.totals, params)) as RawTotals;
}

export function sumDaily(
  sql: Sql,
  scope: Scope,
  window: Window,
): Promise<Array<RawTotals & { date: string }>> {
  const { set, params } = pick(sql, scope, window);
  return sql.all(set.daily, params);
}

export function sumPerCampaign(
  sql: Sql,
  scope: Scope,
  window: Window,
): Promise<Array<RawTotals & { campaignId: string }>> {
  const { set, params } = pick(sql, scope, window);
  return sql.all(set.perCampaign, params);
}

/** An account's sums over a window, from the rollup. */
export type AccountSums = RawTotals & { accountId: string };

/** Each account's sums over a window (accounts without a row in it are absent). */
export function sumPerAccount(
  sql: Sql,
  accountIds: readonly string[],
  window: Window,
): Promise<AccountSums[]> {
  return sql.all(statements(sql).accounts.perAccount, [JSON.stringify(accountIds), window.from, window.to]);
}

export type Day = RawTotals & { date: string };

/** Each account's rollup days over a window (days without a row, and accounts without any, absent). */
export async function daysPerAccount(
  sql: Sql,
  accountIds: readonly string[],
  window: Window,
): Promise<Map<string, Day[]>> {
  const rows = await sql.all<Day & { accountId: string }>(statements(sql).accounts.days, [
    JSON.stringify(accountIds),
    window.from,
    window.to,
  ]);
  const out = new Map<string, Day[]>();
  for (const { accountId, ...day } of rows) {
    const own = out.get(accountId);
    if (own) own.push(day);
    else out.set(accountId, [day]);
  }
  return out;
}

/** Each account's results per result type over a window, the largest spend first. */
export async function resultsPerAccount(
  sql: Sql,
  accountIds: readonly string[],
  from: string,
  to: string,
): Promise<Map<string, ResultTypeRow[]>> {
  const rows = await sql.all<ResultTypeRow & { accountId: string }>(
    statements(sql).accounts.resultsPerAccount,
    [JSON.stringify(accountIds), from, to],
  );
  const out = new Map<string, ResultTypeRow[]>();
  for (const { accountId, ...row } of rows) {
    const own = out.get(accountId);
    if (own) own.push(row);
    else out.set(accountId, [row]);
  }
  for (const groups of out.values()) groups.sort(bySpend);
  return out;
}

/** The accounts that own these campaigns. */
export async function accountsOf(sql: Sql, campaignIds: readonly string[]): Promise<string[]> {
  const rows = await sql.all<{ account_id: string }>(statements(sql).accountsOf, [
    JSON.stringify(campaignIds),
  ]);
  return rows.map((r) => r.account_id);
}

export interface CampaignLabel {
  name: string;
  resultType: string | null;
  resultName: string | null;
  accountId: string;
}

/** Campaigns' names and result types (what their `conversions` count). */
export async function campaignLabels(
  sql: Sql,
  campaignIds: readonly string[],
): Promise<Map<string, CampaignLabel>> {
  const rows = await sql.all<CampaignLabel & { id: string }>(statements(sql).names, [
    JSON.stringify(campaignIds),
  ]);
  return new Map(rows.map(({ id, ...label }) => [id, label]));
}

/** An account's window: campaigns of `accountId` are summed from `from` to `to`. */
export interface AccountWindow {
  accountId: string;
  from: string;
  to: string;
}

export async function sumPerCampaignInWindows(
  sql: Sql,
  windows: readonly AccountWindow[],
): Promise<Array<RawTotals & { campaignId: string }>> {
  if (windows.length === 0) return [];
  const param = JSON.stringify(windows.map((w) => [w.accountId, w.from, w.to]));
  return sql.all(statements(sql).perCampaignInWindows, [param]);
}

/** Each account's first day with insights (undefined before its first sync). */
export async function firstInsightDates(
  sql: Sql,
  accountIds: readonly string[],
): Promise<Map<string, string | undefined>> {
  const rows = await sql.all<{ accountId: string; firstDate: string | null }>(statements(sql).firstDates, [
    JSON.stringify(accountIds),
  ]);
  return new Map(rows.map((r) => [r.accountId, r.firstDate ?? undefined]));
}
