// Delivery blockers of campaigns' ads: counts of disapproved ads and ads with issues, and the issues
// themselves (Meta's issues_info, stored per ad by the sync).
import type { AdIssue, DeliveryIssues } from '../../shared/api/campaigns';
import { jsonValues } from '../store/dialect';
import type { Sql } from '../store/sql';

/** Effective statuses under which an ad does not deliver because of its review. */
export const DISAPPROVED_STATUSES = ['DISAPPROVED'] as const;

export async function deliveryIssuesOf(
  sql: Sql,
  campaignIds: readonly string[],
): Promise<Map<string, DeliveryIssues>> {
  const out = new Map<string, DeliveryIssues>(
    campaignIds.map((id) => [id, { disapprovedAds: 0, adsWithIssues: 0 }]),
  );
  if (campaignIds.length === 0) return out;
  // Counted with CASE: PostgreSQL has no sum of booleans.
  const rows = await sql.all<{ campaign_id: string; disapproved: number; with_issues: number }>(
    `SELECT campaign_id,
       sum(CASE WHEN effective_status = 'DISAPPROVED' THEN 1 ELSE 0 END) AS disapproved,
       sum(CASE WHEN effective_status <> 'DISAPPROVED' AND effective_status NOT IN ('ARCHIVED', 'DELETED')
           AND (effective_status = 'WITH_ISSUES' OR issues_info <> '[]') THEN 1 ELSE 0 END) AS with_issues
     FROM ads WHERE campaign_id IN ${jsonValues(sql)}
       AND (effective_status IN ('DISAPPROVED', 'WITH_ISSUES') OR issues_info <> '[]')
     GROUP BY campaign_id`,
    [JSON.stringify(campaignIds)],
  );
  for (const r of rows)
    out.set(r.campaign_id, { disapprovedAds: r.disapproved, adsWithIssues: r.with_issues });
  return out;
}

interface StoredIssue {
  errorCode: number | null;
  summary: string;
  message: string;
  level: string;
}

/** Every issue of a campaign's live ads, disapproved ads first. */
export async function adIssuesOf(sql: Sql, campaignId: string): Promise<AdIssue[]> {
  const rows = await sql.all<{ id: string; name: string; effective_status: string; issues_info: string }>(
    `SELECT id, name, effective_status, issues_info FROM ads
       WHERE campaign_id = ? AND effective_status NOT IN ('ARCHIVED', 'DELETED')
         AND (effective_status IN ('DISAPPROVED', 'WITH_ISSUES') OR issues_info <> '[]')
       ORDER BY effective_status = 'DISAPPROVED' DESC, name, id`,
    [campaignId],
  );
  return rows.flatMap((r) => {
    const issues = parseIssues(r.issues_info);
    const base = { adId: r.id, adName: r.name, effectiveStatus: r.effective_status };
    if (issues.length === 0)
      return [{ ...base, errorCode: null, summary: r.effective_status, message: '', level: 'AD' }];
    return issues.map((i) => ({ ...base, ...i }));
  });
}

export function parseIssues(text: string): StoredIssue[] {
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) return [];
    return parsed.map((i: Partial<StoredIssue>) => ({
      errorCode: typeof i.errorCode === 'number' ? i.errorCode : null,
      summary: String(i.summary ?? ''),
      message: String(i.message ?? ''),
      level: String(i.level ?? 'AD'),
    }));
  } catch {
    return [];
  }
}
