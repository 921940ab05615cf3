// One diagnosis from the store: the campaigns' snapshots, the user's Andromeda learning, the pure
// engine. Runs on the diagnosis worker (hosts) or inline (tests, the CLI); same input, same output.
import { AppError, isAppError } from '../errors';
import type { Sql } from '../store/sql';
import { learnedFor } from './andromeda';
import { diagnose, loadFromDate, type DiagnosisContent } from './engine';
import { effectiveGoal, goalsOf } from '../goals/store';
import { DEFAULT_THRESHOLDS } from './thresholds';
import { pooledWindow, type PeerTotals } from './goal-judgement';
import { accountPeers, campaignsWithDelivery, loadCampaigns, loadMetaRecommendations } from './load';
import type { CampaignData } from './types';

export interface DiagnosisJob {
  accountId: string;
  /** null: an account-level diagnostic over every campaign with delivery in the range. */
  campaignId: string | null;
  userId: string | null;
  dateFrom: string;
  dateTo: string;
  /** Account-level only: re-judge just these campaigns (null: every campaign with delivery). */
  campaignScope?: readonly string[] | null;
}

/** A diagnosis posted to the worker thread, which opens the data directory itself. */
export interface WorkerDiagnosisJob extends DiagnosisJob {
  dataDir: string;
}

/** An error as it crosses from the worker: an AppError keeps its type; anything else is a fault. */
export interface DiagnosisFault {
  appError: boolean;
  type: string;
  message: string;
}

export async function computeDiagnosis(sql: Sql, job: DiagnosisJob): Promise<DiagnosisContent> {
  const learned = await learnedFor(sql, job.userId);
  const loadFrom = loadFromDate(job.dateFrom, job.dateTo);
  const peers = await peersFor(sql, job);
  if (job.campaignId) {
    const campaigns = await withGoals(
      sql,
      job.accountId,
      await loadCampaigns(sql, [job.campaignId], loadFrom, job.dateTo),
    );
    if (campaigns.length === 0)
      throw new AppError('not_found', `Campaign ${job.campaignId} no longer exists.`);
    // The account's other campaigns with delivery, ad sets only: overlap across campaigns.
    const others = (await campaignsWithDelivery(sql, job.accountId, job.dateFrom, job.dateTo)).filter(
      (id) => id !== job.campaignId,
    );
    const siblings = await loadCampaigns(sql, others, loadFrom, job.dateTo, { adSetsOnly: true });
    const content = diagnose({ campaigns, siblings, from: job.dateFrom, to: job.dateTo, learned, peers });
    return {
      ...content,
      metaRecommendations: await loadMetaRecommendations(sql, job.accountId, job.campaignId),
    };
  }
  const account = await sql.get<{ name: string; currency: string }>(
    `SELECT name, currency FROM ad_accounts WHERE id = ?`,
    [job.accountId],
  );
  if (!account) throw new AppError('not_found', `Account ${job.accountId} no longer exists.`);
  const delivering = await campaignsWithDelivery(sql, job.accountId, job.dateFrom, job.dateTo);
  const scope = job.campaignScope ? new Set(job.campaignScope) : null;
  const ids = scope ? delivering.filter((id) => scope.has(id)) : delivering;
  const campaigns = await withGoals(sql, job.accountId, await loadCampaigns(sql, ids, loadFrom, job.dateTo));
  const content = diagnose({ campaigns, from: job.dateFrom, to: job.dateTo, learned, account, peers });
  return { ...content, metaRecommendations: await loadMetaRecommendations(sql, job.accountId, null) };
}

/**
 * Each campaign's goal (its own, else the account's) as plain data on its snapshot; a CPA goal is also
 * the analyst's target the cost-per-result check reads (goals replaced the target CPA column).
 */
async function withGoals(sql: Sql, accountId: string, campaigns: CampaignData[]): Promise<CampaignData[]> {
  const goals = await goalsOf(sql, accountId);
  for (const c of campaigns) {
    const goal = effectiveGoal(goals, c.id);
    c.goal = goal;
    c.targetCpa = goal?.kind === 'CPA' ? Math.round(goal.target * 1_000_000) : null;
  }
  return campaigns;
}

/** The account's campaigns over the pooled days, for the medians a campaign is shown beside. */
function peersFor(sql: Sql, job: DiagnosisJob): Promise<PeerTotals[]> {
  const window = { from: job.dateFrom, to: job.dateTo, loadFrom: loadFromDate(job.dateFrom, job.dateTo) };
  const pooled = pooledWindow(window, DEFAULT_THRESHOLDS);
  return accountPeers(sql, job.accountId, pooled.from, pooled.to);
}

export function toDiagnosisFault(error: unknown): DiagnosisFault {
  if (isAppError(error)) return { appError: true, type: error.type, message: error.message };
  return {
    appError: false,
    type: 'api_error',
    message: error instanceof Error ? (error.stack ?? error.message) : String(error),
  };
}

export function fromDiagnosisFault(fault: DiagnosisFault): Error {
  if (fault.appError) return new AppError(fault.type as AppError['type'], fault.message);
  return new Error(fault.message);
}
