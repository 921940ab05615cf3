// Diagnostic rows as stored, and their wire shapes: the list item and the detail (with the stored
// result JSON spread back in).
import type {
  DiagnosticDetail,
  DiagnosticListItem,
  DiagnosticStatus,
  RiskLevel,
} from '../../shared/api/diagnostics';
import type { DiagnosisContent } from './engine';

export interface DiagnosticRow {
  id: string;
  workspace_id: string;
  account_id: string;
  campaign_id: string | null;
  user_id: string | null;
  status: DiagnosticStatus;
  date_from: string;
  date_to: string;
  risk_level: RiskLevel | null;
  summary: string | null;
  issues_detected: number;
  recommendation_count: number;
  result: string | null;
  error: string | null;
  processing_time_ms: number | null;
  created_at: string;
  completed_at: string | null;
  trigger: 'manual' | 'automatic';
  /** JSON array of campaign IDs an automatic account-level diagnostic re-judged, or null. */
  campaign_scope: string | null;
  campaign_name: string | null;
  platform_campaign_id: string | null;
  account_name: string | null;
}

/** What diagnostics.result holds: the detail's content plus the kind of each recommendation. */
export type StoredResult = Omit<
  DiagnosisContent,
  'riskLevel' | 'summary' | 'issuesDetected' | 'recommendationCount'
>;

/**
 * A finished diagnosis as its row stores it: the list columns and the result already serialized. It is
 * built where the diagnosis ran (the worker, for hosts): the host then writes one string, where cloning
 * the content across threads and serializing it again stalled its thread on a large account.
 */
export interface StoredDiagnosis {
  riskLevel: RiskLevel;
  summary: string;
  issuesDetected: number;
  recommendationCount: number;
  /** JSON of the StoredResult. */
  result: string;
}

export function storedDiagnosis(content: DiagnosisContent): StoredDiagnosis {
  const stored: StoredResult = {
    issues: content.issues,
    recommendations: content.recommendations,
    metrics: content.metrics,
    andromedaContext: content.andromedaContext,
    actionKinds: content.actionKinds,
    goalChecks: content.goalChecks,
    ...(content.campaignsAnalyzed === undefined ? {} : { campaignsAnalyzed: content.campaignsAnalyzed }),
    ...(content.metaRecommendations === undefined
      ? {}
      : { metaRecommendations: content.metaRecommendations }),
  };
  return {
    riskLevel: content.riskLevel,
    summary: content.summary,
    issuesDetected: content.issuesDetected,
    recommendationCount: content.recommendationCount,
    result: JSON.stringify(stored),
  };
}

/** A diagnostic (`d`) with its campaign's (`c`) and account's (`a`) names. */
const FROM = `FROM diagnostics d LEFT JOIN campaigns c ON c.id = d.campaign_id
  LEFT JOIN ad_accounts a ON a.id = d.account_id`;

export const SELECT = `SELECT d.*, c.name AS campaign_name, c.platform_campaign_id, a.name AS account_name
  ${FROM}`;

/** A list's columns: never the stored result (about 70 KB an account diagnosis) nor its error. */
export const LIST_SELECT = `SELECT d.id, d.campaign_id, d.account_id, d.status, d.risk_level, d.summary,
    d.issues_detected, d.recommendation_count, d.created_at, d.completed_at, c.name AS campaign_name,
    a.name AS account_name
  ${FROM}`;

export type DiagnosticListRow = Pick<
  DiagnosticRow,
  | 'id'
  | 'campaign_id'
  | 'account_id'
  | 'status'
  | 'risk_level'
  | 'summary'
  | 'issues_detected'
  | 'recommendation_count'
  | 'created_at'
  | 'completed_at'
  | 'campaign_name'
  | 'account_name'
>;

export function toListItem(row: DiagnosticListRow): DiagnosticListItem {
  return {
    id: row.id,
    campaignId: row.campaign_id,
    campaignName: row.campaign_name,
    accountId: row.account_id,
    accountName: row.account_name ?? '',
    status: row.status,
    riskLevel: row.risk_level,
    summary: row.summary,
    issuesDetected: row.issues_detected,
    recommendationCount: row.recommendation_count,
    createdAt: row.created_at,
    completedAt: row.completed_at,
  };
}

export function toDetail(row: DiagnosticRow): DiagnosticDetail {
  const stored = row.result ? (JSON.parse(row.result) as StoredResult) : null;
  const detail: DiagnosticDetail = {
    ...toListItem(row),
    accountId: row.account_id,
    platformCampaignId: row.platform_campaign_id,
    dateRange: { from: row.date_from, to: row.date_to },
    metrics: stored?.metrics ?? null,
    issues: stored?.issues ?? [],
    recommendations: stored?.recommendations ?? [],
    andromedaContext: stored?.andromedaContext ?? null,
    processingTimeMs: row.status === 'completed' || row.status === 'failed' ? row.processing_time_ms : null,
  };
  if (stored?.campaignsAnalyzed !== undefined) detail.campaignsAnalyzed = stored.campaignsAnalyzed;
  if (stored?.metaRecommendations !== undefined) detail.metaRecommendations = stored.metaRecommendations;
  if (stored?.goalChecks !== undefined) detail.goalChecks = stored.goalChecks;
  if (row.status === 'failed' && row.error)
    detail.error = JSON.parse(row.error) as { type: string; message: string };
  return detail;
}
