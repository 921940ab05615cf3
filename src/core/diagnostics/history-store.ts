// The SQL of a diagnostic's history and evidence series: the completed diagnostics of one scope (a
// campaign, or the whole account) on their (campaign_id, completed_at) and (account_id, completed_at)
// keys, and the daily rows of the entity an issue names (ad, ad set, campaign or account) on theirs.
// Behind the store boundary (either engine).
import { unindexed } from '../store/dialect';
import type { Sql } from '../store/sql';
import type { RiskLevel } from '../../shared/api/diagnostics';

export interface HistoryRow {
  id: string;
  risk_level: RiskLevel | null;
  issues_detected: number;
  date_from: string;
  date_to: string;
  completed_at: string;
  trigger: 'manual' | 'automatic';
}

const COLUMNS = `id, risk_level, issues_detected, date_from, date_to, completed_at, trigger`;

/** The statements whose status test must not pick the status index (see `unindexed`), per engine. */
function historyTexts(sql: Sql) {
  const completed = `${unindexed(sql, 'status')} = 'completed'`;
  const before = `(completed_at < ? OR (completed_at = ? AND id < ?)) ORDER BY completed_at DESC, id DESC LIMIT 1`;
  return {
    ofCampaign: `SELECT ${COLUMNS} FROM diagnostics WHERE campaign_id = ? AND workspace_id = ? AND ${completed}
           AND completed_at IS NOT NULL ORDER BY completed_at DESC, id DESC LIMIT ?`,
    ofAccount: `SELECT ${COLUMNS} FROM diagnostics WHERE account_id = ? AND campaign_id IS NULL AND workspace_id = ?
           AND ${completed} AND completed_at IS NOT NULL ORDER BY completed_at DESC, id DESC LIMIT ?`,
    previousOfCampaign: `SELECT id FROM diagnostics WHERE campaign_id = ? AND ${completed} AND ${before}`,
    previousOfAccount: `SELECT id FROM diagnostics WHERE account_id = ? AND campaign_id IS NULL AND ${completed}
             AND ${before}`,
  };
}

const TEXTS: Partial<Record<Sql['engine'], ReturnType<typeof historyTexts>>> = {};
const texts = (sql: Sql) => (TEXTS[sql.engine] ??= historyTexts(sql));

/** Completed diagnostics of a campaign (or, with null, of the whole account), newest first. */
export function completedDiagnostics(
  sql: Sql,
  workspaceId: string,
  accountId: string,
  campaignId: string | null,
  limit: number,
): Promise<HistoryRow[]> {
  const t = texts(sql);
  return campaignId
    ? sql.all<HistoryRow>(t.ofCampaign, [campaignId, workspaceId, limit])
    : sql.all<HistoryRow>(t.ofAccount, [accountId, workspaceId, limit]);
}

/** The completed diagnostic of the same scope that came before one (by completion time). */
export async function previousDiagnosticId(
  sql: Sql,
  d: { id: string; accountId: string; campaignId: string | null; completedAt: string },
): Promise<string | null> {
  const t = texts(sql);
  const row = d.campaignId
    ? await sql.get<{ id: string }>(t.previousOfCampaign, [d.campaignId, d.completedAt, d.completedAt, d.id])
    : await sql.get<{ id: string }>(t.previousOfAccount, [d.accountId, d.completedAt, d.completedAt, d.id]);
  return row?.id ?? null;
}

export type SeriesLevel = 'ad' | 'adSet' | 'campaign' | 'account';

export interface SeriesRow {
  date: string;
  spend_micros: number;
  impressions: number;
  clicks: number;
  conversions: number;
  reach: number;
}

const SERIES_SQL: Record<SeriesLevel, string> = {
  ad: `SELECT date, spend_micros, impressions, clicks, conversions, reach FROM insights_ad_daily
       WHERE ad_id = ? AND date BETWEEN ? AND ? ORDER BY date`,
  adSet: `SELECT date, spend_micros, impressions, clicks, conversions, reach FROM insights_ad_set_daily
          WHERE ad_set_id = ? AND date BETWEEN ? AND ? ORDER BY date`,
  campaign: `SELECT date, spend_micros, impressions, clicks, conversions, reach FROM insights_campaign_daily
             WHERE campaign_id = ? AND date BETWEEN ? AND ? ORDER BY date`,
  account: `SELECT date, spend_micros, impressions, clicks, conversions, reach FROM insights_account_daily
            WHERE account_id = ? AND date BETWEEN ? AND ? ORDER BY date`,
};

/** One entity's days in a window, on its (id, date) key. */
export function entityDays(
  sql: Sql,
  level: SeriesLevel,
  id: string,
  from: string,
  to: string,
): Promise<SeriesRow[]> {
  return sql.all<SeriesRow>(SERIES_SQL[level], [id, from, to]);
}
