// How a diagnosis changes the issues it judged: a problem seen again is the same issue (updated, worse
// or better, with its history), a problem no longer seen on a campaign the diagnosis re-judged is
// resolved, a new one is opened (or a recently resolved one reopened, so a flapping problem keeps one
// history). Snoozes end at their date or, for "until worse", when it worsens; a worsened
// acknowledged issue is open again. Every change is announced once as `issue.changed`.
import type { RiskLevel } from '../../shared/api/diagnostics';
import type { IssueChange } from '../../shared/api/issues';
import { addDays } from '../clock';
import type { Core } from '../core';
import { newId } from '../ids';
import {
  insertIssue,
  liveIssuesOf,
  recentlyResolved,
  snoozesDue,
  updateIssue,
  type HistoryEntry,
  type IssueRow,
} from './store';

const RANK: Record<RiskLevel, number> = { LOW: 1, MEDIUM: 2, HIGH: 3, CRITICAL: 4 };
/** A problem resolved this recently and seen again is reopened rather than opened anew. */
const REOPEN_WITHIN_DAYS = 7;

export function severityRank(severity: RiskLevel): number {
  return RANK[severity];
}

/** One issue as a diagnosis found it. */
export interface FoundIssue {
  campaignId: string | null;
  type: string;
  entity: { id: string; name: string };
  severity: RiskLevel;
  title: string;
  description: string;
  evidence: unknown;
}

export interface DiagnosisFindings {
  workspaceId: string;
  accountId: string;
  diagnosticId: string;
  /** The campaigns the diagnosis re-judged: their live issues not found again are resolved. */
  judgedCampaignIds: readonly (string | null)[];
  found: readonly FoundIssue[];
}

export interface IssueChangeEvent {
  issueId: string;
  change: IssueChange;
  row: IssueRow;
}

const keyOf = (campaignId: string | null, type: string, entityId: string) =>
  `${campaignId ?? ''}|${type}|${entityId}`;

function withHistory(row: IssueRow, entry: HistoryEntry): IssueRow {
  const history = JSON.parse(row.history) as HistoryEntry[];
  history.push(entry);
  return { ...row, history: JSON.stringify(history) };
}

/** Applies one diagnosis to the issues; returns and announces what changed. */
export async function reconcileIssues(core: Core, findings: DiagnosisFindings): Promise<IssueChangeEvent[]> {
  const { sql, clock } = core;
  const now = clock.now().toISOString();
  const changes: IssueChangeEvent[] = [];
  await sql.transaction(async (tx) => {
    const live = new Map(
      (await liveIssuesOf(tx, findings.accountId, findings.judgedCampaignIds)).map((row) => [
        keyOf(row.campaign_id, row.type, row.entity_id),
        row,
      ]),
    );
    const seen = new Set<string>();
    for (const found of findings.found) {
      const key = keyOf(found.campaignId, found.type, found.entity.id);
      if (seen.has(key)) continue; // one issue per problem, even if a diagnosis lists it twice
      seen.add(key);
      const entry = (change: IssueChange): HistoryEntry => ({
        at: now,
        change,
        severity: found.severity,
        diagnosticId: findings.diagnosticId,
        by: null,
      });
      const fresh = {
        entity_name: found.entity.name,
        severity: found.severity,
        title: found.title,
        description: found.description,
        evidence: JSON.stringify(found.evidence ?? {}),
        diagnostic_id: findings.diagnosticId,
        updated_at: now,
      };
      const current = live.get(key);
      if (current) {
        const worse = RANK[found.severity] > RANK[current.severity];
        const better = RANK[found.severity] < RANK[current.severity];
        let row: IssueRow = {
          ...current,
          ...fresh,
          peak_severity:
            RANK[found.severity] > RANK[current.peak_severity] ? found.severity : current.peak_severity,
        };
        if (worse) {
          // Worse needs the analyst again: an acknowledgement or a snooze does not cover it.
          row = withHistory(
            { ...row, state: 'open', snoozed_until: null, snooze_until_worse: 0 },
            entry('worsened'),
          );
          changes.push({ issueId: row.id, change: 'worsened', row });
        } else if (better) {
          row = withHistory(row, entry('improved'));
          changes.push({ issueId: row.id, change: 'improved', row });
        }
        await updateIssue(tx, row);
        continue;
      }
      const since = addDays(now.slice(0, 10), -REOPEN_WITHIN_DAYS);
      const resolved = await recentlyResolved(
        tx,
        {
          accountId: findings.accountId,
          campaignId: found.campaignId,
          type: found.type,
          entityId: found.entity.id,
        },
        since,
      );
      if (resolved) {
        const row = withHistory(
          {
            ...resolved,
            ...fresh,
            state: 'open',
            resolved_at: null,
            snoozed_until: null,
            snooze_until_worse: 0,
            acknowledged_by: null,
            peak_severity:
              RANK[found.severity] > RANK[resolved.peak_severity] ? found.severity : resolved.peak_severity,
          },
          entry('reopened'),
        );
        await updateIssue(tx, row);
        changes.push({ issueId: row.id, change: 'reopened', row });
        continue;
      }
      const row: IssueRow = {
        id: newId('iss'),
        workspace_id: findings.workspaceId,
        account_id: findings.accountId,
        campaign_id: found.campaignId,
        type: found.type,
        entity_id: found.entity.id,
        state: 'open',
        peak_severity: found.severity,
        opened_at: now,
        resolved_at: null,
        snoozed_until: null,
        snooze_until_worse: 0,
        acknowledged_by: null,
        history: JSON.stringify([entry('opened')]),
        ...fresh,
      };
      await insertIssue(tx, row);
      changes.push({ issueId: row.id, change: 'opened', row });
    }
    for (const [key, current] of live) {
      if (seen.has(key)) continue;
      const row = withHistory(
        {
          ...current,
          state: 'resolved',
          resolved_at: now,
          updated_at: now,
          diagnostic_id: findings.diagnosticId,
        },
        {
          at: now,
          change: 'resolved',
          severity: current.severity,
          diagnosticId: findings.diagnosticId,
          by: null,
        },
      );
      await updateIssue(tx, row);
      changes.push({ issueId: row.id, change: 'resolved', row });
    }
    // The issues' histories name this diagnosis: it outlives the thinning of old ones (watch/retention.ts).
    if (changes.length > 0)
      await tx.run(`UPDATE diagnostics SET retained = 1 WHERE id = ?`, [findings.diagnosticId]);
  });
  for (const change of changes) announce(core, change);
  return changes;
}

/** Snoozes whose date has passed: the issues are open again (run before lists and by the watcher). */
export async function wakeSnoozed(core: Core): Promise<IssueChangeEvent[]> {
  const { sql, clock } = core;
  const now = clock.now().toISOString();
  const changes: IssueChangeEvent[] = [];
  await sql.transaction(async (tx) => {
    for (const due of await snoozesDue(tx, now.slice(0, 10))) {
      const row = withHistory(
        { ...due, state: 'open', snoozed_until: null, snooze_until_worse: 0, updated_at: now },
        { at: now, change: 'unsnoozed', severity: due.severity, diagnosticId: null, by: null },
      );
      await updateIssue(tx, row);
      changes.push({ issueId: row.id, change: 'unsnoozed', row });
    }
  });
  for (const change of changes) announce(core, change);
  return changes;
}

/** The analyst's action on one issue: acknowledge, or snooze until a date and/or until worse. */
export async function actOnIssue(
  core: Core,
  row: IssueRow,
  action: { kind: 'acknowledge' } | { kind: 'snooze'; until: string | null; untilWorse: boolean },
  by: string | null,
): Promise<IssueRow> {
  const now = core.clock.now().toISOString();
  const base = { ...row, updated_at: now };
  const next =
    action.kind === 'acknowledge'
      ? withHistory(
          { ...base, state: 'acknowledged', acknowledged_by: by },
          { at: now, change: 'acknowledged', severity: row.severity, diagnosticId: null, by },
        )
      : withHistory(
          {
            ...base,
            state: 'snoozed',
            snoozed_until: action.until,
            snooze_until_worse: action.untilWorse ? 1 : 0,
          },
          { at: now, change: 'snoozed', severity: row.severity, diagnosticId: null, by },
        );
  await updateIssue(core.sql, next);
  announce(core, {
    issueId: next.id,
    change: action.kind === 'acknowledge' ? 'acknowledged' : 'snoozed',
    row: next,
  });
  return next;
}

function announce(core: Core, { issueId, change, row }: IssueChangeEvent): void {
  core.events.emit('issue.changed', {
    workspaceId: row.workspace_id,
    accountId: row.account_id,
    campaignId: row.campaign_id,
    issueId,
    type: row.type,
    change,
    state: row.state,
    severity: row.severity,
  });
}
