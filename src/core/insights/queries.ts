import type { Db } from '../store/open';
import type { RawTotals } from './metrics';

// Prepared once per database. ID lists travel as one JSON parameter (json_each), so each statement
// is prepared once whatever the list length, and the planner still uses the (id, date) keys.
// Account-wide totals and days read the trigger-maintained account-day rollup; a campaign selection
// reads the campaign rows (always confined to the caller's accounts as well).

const SUMS = `coalesce(sum(spend_micros), 0) AS spendMicros, coalesce(sum(impressions), 0) AS impressions,
  coalesce(sum(clicks), 0) AS clicks, coalesce(sum(conversions), 0) AS conversions,
  coalesce(sum(revenue_micros), 0) AS revenueMicros, coalesce(sum(reach), 0) AS reach,
  coalesce(sum(link_clicks), 0) AS linkClicks`;

const ACCOUNTS = `account_id IN (SELECT value FROM json_each(@accounts)) AND date BETWEEN @from AND @to`;
const CAMPAIGNS = `campaign_id IN (SELECT value FROM json_each(@campaigns)) AND date BETWEEN @from AND @to
  AND account_id IN (SELECT value FROM json_each(@accounts))`;

function build(db: Db) {
  return {
    accounts: {
      totals: db.prepare(`SELECT ${SUMS} FROM insights_account_daily WHERE ${ACCOUNTS}`),
      daily: db.prepare(`SELECT date, ${SUMS} FROM insights_account_daily WHERE ${ACCOUNTS} GROUP BY date`),
      perCampaign: db.prepare(
        `SELECT campaign_id AS campaignId, ${SUMS} FROM insights_campaign_daily WHERE ${ACCOUNTS} GROUP BY campaign_id`,
      ),
    },
    campaigns: {
      totals: db.prepare(`SELECT ${SUMS} FROM insights_campaign_daily WHERE ${CAMPAIGNS}`),
      daily: db.prepare(`SELECT date, ${SUMS} FROM insights_campaign_daily WHERE ${CAMPAIGNS} GROUP BY date`),
      perCampaign: db.prepare(
        `SELECT campaign_id AS campaignId, ${SUMS} FROM insights_campaign_daily WHERE ${CAMPAIGNS} GROUP BY campaign_id`,
      ),
    },
    accountsOf: db
      .prepare(`SELECT DISTINCT account_id FROM campaigns WHERE id IN (SELECT value FROM json_each(?))`)
      .pluck(),
    names: db.prepare(
      `SELECT id, name, result_type AS resultType, result_name AS resultName, account_id AS accountId FROM campaigns
       WHERE id IN (SELECT value FROM json_each(?))`,
    ),
    // Every campaign of several accounts, each account over its own window (its own "today"): one
    // statement per range, a keyed search of the covering (account_id, date, …) index per account.
    perCampaignInWindows: db.prepare(
      `WITH w(account_id, win_from, win_to) AS (
         SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]')
         FROM json_each(@windows))
       SELECT i.campaign_id AS campaignId, ${SUMS}
       FROM w JOIN insights_campaign_daily i
         ON i.account_id = w.account_id AND i.date BETWEEN w.win_from AND w.win_to
       GROUP BY i.campaign_id`,
    ),
    firstDates: db.prepare(
      `SELECT value AS accountId,
         (SELECT min(date) FROM insights_account_daily d WHERE d.account_id = value) AS firstDate
       FROM json_each(?)`,
    ),
  };
}

type Statements = ReturnType<typeof build>;
const cache = new WeakMap<Db, Statements>();

export function statements(db: Db): Statements {
  let s = cache.get(db);
  if (!s) {
    s = build(db);
    cache.set(db, s);
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

function pick(db: Db, scope: Scope) {
  const s = statements(db);
  const accounts = JSON.stringify(scope.accountIds);
  return scope.campaignIds
    ? { set: s.campaigns, params: { campaigns: JSON.stringify(scope.campaignIds), accounts } }
    : { set: s.accounts, params: { accounts } };
}

export function sumTotals(db: Db, scope: Scope, window: Window): RawTotals {
  const { set, params } = pick(db, scope);
  return set.totals.get({ ...params, ...window }) as RawTotals;
}

export function sumDaily(db: Db, scope: Scope, window: Window): Array<RawTotals & { date: string }> {
  const { set, params } = pick(db, scope);
  return set.daily.all({ ...params, ...window }) as Array<RawTotals & { date: string }>;
}

export function sumPerCampaign(
  db: Db,
  scope: Scope,
  window: Window,
): Array<RawTotals & { campaignId: string }> {
  const { set, params } = pick(db, scope);
  return set.perCampaign.all({ ...params, ...window }) as Array<RawTotals & { campaignId: string }>;
}

/** The accounts that own these campaigns. */
export function accountsOf(db: Db, campaignIds: readonly string[]): string[] {
  return statements(db).accountsOf.all(JSON.stringify(campaignIds)) as string[];
}

export interface CampaignLabel {
  name: string;
  resultType: string | null;
  resultName: string | null;
  accountId: string;
}

/** Campaigns' names and result types (what their `conversions` count). */
export function campaignLabels(db: Db, campaignIds: readonly string[]): Map<string, CampaignLabel> {
  const rows = statements(db).names.all(JSON.stringify(campaignIds)) as Array<CampaignLabel & { id: string }>;
  return new Map(rows.map(({ id, ...label }) => [id, label]));
}

/** An account's window: campaigns of `accountId` are summed from `from` to `to`. */
export interface AccountWindow {
  accountId: string;
  from: string;
  to: string;
}

export function sumPerCampaignInWindows(
  db: Db,
  windows: readonly AccountWindow[],
): Array<RawTotals & { campaignId: string }> {
  if (windows.length === 0) return [];
  const param = JSON.stringify(windows.map((w) => [w.accountId, w.from, w.to]));
  return statements(db).perCampaignInWindows.all({ windows: param }) as Array<
    RawTotals & { campaignId: string }
  >;
}

/** Each account's first day with insights (undefined before its first sync). */
export function firstInsightDates(db: Db, accountIds: readonly string[]): Map<string, string | undefined> {
  const rows = statements(db).firstDates.all(JSON.stringify(accountIds)) as Array<{
    accountId: string;
    firstDate: string | null;
  }>;
  return new Map(rows.map((r) => [r.accountId, r.firstDate ?? undefined]));
}
