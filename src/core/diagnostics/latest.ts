// The newest completed diagnostic of each campaign: the campaign list's, the app's table's and a
// campaign screen's latestDiagnostic. The one SQL of it.
import type { LatestDiagnostic, RiskLevel } from '../../shared/ipc/types';
import { jsonEach, unindexed } from '../store/dialect';
import { keptPlan, type Sql } from '../store/sql';

/**
 * The newest completed diagnostic of each campaign, in one statement: one probe of the
 * (campaign_id, completed_at) index per campaign, read from its newest end and stopped at the first
 * completed one. A campaign re-diagnosed after every sync has a long history; the page's 20
 * campaigns, or one campaign's screen, must not read it all (nor the workspace's).
 */
export async function latestDiagnostics(
  sql: Sql,
  campaignIds: readonly string[],
): Promise<Map<string, LatestDiagnostic>> {
  if (campaignIds.length === 0) return new Map();
  const rows = await sql.all<{
    id: string;
    campaign_id: string;
    risk_level: RiskLevel | null;
    issues_detected: number;
    completed_at: string | null;
  }>(
    keptPlan(`SELECT d.id, d.campaign_id, d.risk_level, d.issues_detected, d.completed_at FROM diagnostics d
     WHERE d.id IN (
       SELECT (SELECT x.id FROM diagnostics x
               WHERE x.campaign_id = value AND ${unindexed(sql, 'x.status')} = 'completed'
               ORDER BY x.completed_at DESC, x.id DESC LIMIT 1)
       FROM ${jsonEach(sql)})`),
    [JSON.stringify(campaignIds)],
  );
  return new Map(
    rows.map((r) => [
      r.campaign_id,
      { id: r.id, riskLevel: r.risk_level, issuesDetected: r.issues_detected, completedAt: r.completed_at },
    ]),
  );
}
