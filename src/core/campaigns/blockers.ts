// Delivery blockers of campaigns' ads: counts of disapproved ads and ads with issues, and the issues
// themselves (Meta's issues_info, stored per ad by the sync).
import type { AdIssue, DeliveryIssues } from '../../shared/api/campaigns';
import type { Db } from '../store/open';

/** Effective statuses under which an ad does not deliver because of its review. */
export const DISAPPROVED_STATUSES = ['DISAPPROVED'] as const;

export function deliveryIssuesOf(db: Db, campaignIds: readonly string[]): Map<string, DeliveryIssues> {
  const out = new Map<string, DeliveryIssues>(
    campaignIds.map((id) => [id, { disapprovedAds: 0, adsWithIssues: 0 }]),
  );
  if (campaignIds.length === 0) return out;
  const rows = db
    .prepare(
      `SELECT campaign_id,
         sum(effective_status = 'DISAPPROVED') AS disapproved,
         sum(effective_status <> 'DISAPPROVED' AND effective_status NOT IN ('ARCHIVED', 'DELETED')
             AND (effective_status = 'WITH_ISSUES' OR issues_info <> '[]')) AS with_issues
       FROM ads WHERE campaign_id IN (SELECT value FROM json_each(?))
         AND (effective_status IN ('DISAPPROVED', 'WITH_ISSUES') OR issues_info <> '[]')
       GROUP BY campaign_id`,
    )
    .all(JSON.stringify(campaignIds)) as { campaign_id: string; disapproved: number; with_issues: number }[];
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
export function adIssuesOf(db: Db, campaignId: string): AdIssue[] {
  const rows = db
    .prepare(
      `SELECT id, name, effective_status, issues_info FROM ads
       WHERE campaign_id = ? AND effective_status NOT IN ('ARCHIVED', 'DELETED')
         AND (effective_status IN ('DISAPPROVED', 'WITH_ISSUES') OR issues_info <> '[]')
       ORDER BY effective_status = 'DISAPPROVED' DESC, name, id`,
    )
    .all(campaignId) as { id: string; name: string; effective_status: string; issues_info: string }[];
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
