// Issues follow diagnoses: each completed diagnosis of the current window (an automatic one, or one an
// analyst ran up to today) updates the issues of the campaigns it judged. A diagnosis of an old date
// range says nothing about today, so it leaves the issues alone.
import type { Issue } from '../../shared/api/diagnostics';
import { addDays, dateInZone } from '../clock';
import type { Core } from '../core';
import { campaignsWithDelivery } from '../diagnostics/load';
import type { StoredResult } from '../diagnostics/rows';
import type { Sql } from '../store/sql';
import { reconcileIssues, type FoundIssue } from './lifecycle';

interface CompletedDiagnostic {
  id: string;
  workspace_id: string;
  account_id: string;
  campaign_id: string | null;
  date_from: string;
  date_to: string;
  trigger: 'manual' | 'automatic';
  campaign_scope: string | null;
  result: string;
  timezone: string;
}

/** Each core's trackings under way, so `issuesTracked` can wait for them. */
const underWay = new WeakMap<Core, Set<Promise<void>>>();

export function trackIssues(core: Core): () => void {
  const pending = new Set<Promise<void>>();
  underWay.set(core, pending);
  return core.events.on('diagnostic.changed', ({ diagnosticId, status }) => {
    if (status !== 'completed') return;
    const tracking: Promise<void> = trackDiagnosis(core, diagnosticId)
      .catch((error: unknown) =>
        core.logger.error('issue tracking failed', { diagnosticId, error: String(error) }),
      )
      .finally(() => pending.delete(tracking));
    pending.add(tracking);
  });
}

/** Resolves when the diagnoses completed so far have updated their issues (tests, `whenIdle`). */
export async function issuesTracked(core: Core): Promise<void> {
  const pending = underWay.get(core);
  while (pending && pending.size > 0) await Promise.allSettled([...pending]);
}

export async function trackDiagnosis(core: Core, diagnosticId: string): Promise<void> {
  const { sql, clock } = core;
  const row = await sql.get<CompletedDiagnostic>(
    `SELECT d.id, d.workspace_id, d.account_id, d.campaign_id, d.date_from, d.date_to, d.trigger, d.campaign_scope,
       d.result, a.timezone FROM diagnostics d JOIN ad_accounts a ON a.id = d.account_id
     WHERE d.id = ? AND d.status = 'completed'`,
    [diagnosticId],
  );
  if (!row) return;
  const today = dateInZone(clock.now(), row.timezone);
  if (row.trigger !== 'automatic' && row.date_to < addDays(today, -1)) return;
  const stored = JSON.parse(row.result) as StoredResult;
  const judged: (string | null)[] = row.campaign_id
    ? [row.campaign_id]
    : [
        null,
        ...(row.campaign_scope
          ? (JSON.parse(row.campaign_scope) as string[])
          : await judgedIn(sql, row, stored)),
      ];
  const found: FoundIssue[] = (stored.issues as Issue[]).map((issue) => ({
    campaignId: row.campaign_id ?? issue.campaignId ?? null,
    type: issue.type,
    entity: { id: issue.affectedEntity.id, name: issue.affectedEntity.name },
    severity: issue.severity,
    title: issue.title,
    description: issue.description,
    evidence: issue.evidence,
  }));
  // An account's diagnosis judges up to thousands of campaigns. Their issues are reconciled a hundred
  // campaigns at a time, a transaction each, and the host's thread serves other work between them:
  // one transaction for 1,000 campaigns held it 45–55 ms. A crash between two leaves the later
  // campaigns' issues as they were until the next diagnosis.
  for (const [i, part] of inParts(judged, found).entries()) {
    if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    await reconcileIssues(core, {
      workspaceId: row.workspace_id,
      accountId: row.account_id,
      diagnosticId: row.id,
      judgedCampaignIds: part.judged,
      found: part.found,
    });
  }
}

/** Campaigns whose issues one transaction reconciles. */
const CAMPAIGNS_PER_PART = 100;

/**
 * The judged campaigns in parts, each with the found issues of its campaigns (an issue of a campaign
 * not judged goes with the first part, as all went together before).
 */
function inParts(
  judged: readonly (string | null)[],
  found: readonly FoundIssue[],
): Array<{ judged: (string | null)[]; found: FoundIssue[] }> {
  const count = Math.max(1, Math.ceil(judged.length / CAMPAIGNS_PER_PART));
  const parts = Array.from({ length: count }, (_, i) => ({
    judged: judged.slice(i * CAMPAIGNS_PER_PART, (i + 1) * CAMPAIGNS_PER_PART),
    found: [] as FoundIssue[],
  }));
  const partOf = new Map(judged.map((id, i) => [id, Math.floor(i / CAMPAIGNS_PER_PART)]));
  for (const issue of found) parts[partOf.get(issue.campaignId) ?? 0]?.found.push(issue);
  return parts;
}

/**
 * The campaigns an account-level diagnosis judged: one goal check each. Reading them from the result
 * keeps the delivery query (a scan of the account's days) off the host's thread; results stored
 * before goal checks existed fall back to it.
 */
async function judgedIn(sql: Sql, row: CompletedDiagnostic, stored: StoredResult): Promise<string[]> {
  return stored.goalChecks
    ? stored.goalChecks.map((check) => check.campaignId)
    : campaignsWithDelivery(sql, row.account_id, row.date_from, row.date_to);
}
