// The SQL of a diagnostic's history and evidence series: the completed diagnostics of one scope (a
// campaign, or the whole account) on their (campaign_id, completed_at) and (account_id, completed_at)
// keys, and the daily rows of the entity an issue names (ad, ad set, campaign or account) on theirs.
import { stmt } from '../store/statements';
import type { Db } from '../store/open';
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

/** Completed diagnostics of a campaign (or, with null, of the whole account), newest first. */
export function completedDiagnostics(
  db: Db,
  workspaceId: string,
  accountId: string,
  campaignId: string | null,
  limit: number,
): HistoryRow[] {
  return campaignId
    ? (stmt(
        db,
        `SELECT ${COLUMNS} FROM diagnostics WHERE campaign_id = ? AND workspace_id = ? AND +status = 'completed'
           AND completed_at IS NOT NULL ORDER BY completed_at DESC, id DESC LIMIT ?`,
      ).all(campaignId, workspaceId, limit) as HistoryRow[])
    : (stmt(
        db,
        `SELECT ${COLUMNS} FROM diagnostics WHERE account_id = ? AND campaign_id IS NULL AND workspace_id = ?
           AND +status = 'completed' AND completed_at IS NOT NULL ORDER BY completed_at DESC, id DESC LIMIT ?`,
      ).all(accountId, workspaceId, limit) as HistoryRow[]);
}

/** The completed diagnostic of the same scope that came before one (by completion time). */
export function previousDiagnosticId(
  db: Db,
  d: { id: string; accountId: string; campaignId: string | null; completedAt: string },
): string | null {
  const row = (
    d.campaignId
      ? stmt(
          db,
          `SELECT id FROM diagnostics WHERE campaign_id = ? AND +status = 'completed'
             AND (completed_at < ? OR (completed_at = ? AND id < ?)) ORDER BY completed_at DESC, id DESC LIMIT 1`,
        ).get(d.campaignId, d.completedAt, d.completedAt, d.id)
      : stmt(
          db,
          `SELECT id FROM diagnostics WHERE account_id = ? AND campaign_id IS NULL AND +status = 'completed'
             AND (completed_at < ? OR (completed_at = ? AND id < ?)) ORDER BY completed_at DESC, id DESC LIMIT 1`,
        ).get(d.accountId, d.completedAt, d.completedAt, d.id)
  ) as { id: string } | undefined;
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
export function entityDays(db: Db, level: SeriesLevel, id: string, from: string, to: string): SeriesRow[] {
  return stmt(db, SERIES_SQL[level]).all(id, from, to) as SeriesRow[];
}
