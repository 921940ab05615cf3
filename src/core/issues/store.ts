// The issues table: one row per problem across diagnoses. The only SQL on it.
import type { IssueChange, IssueState, TrackedIssue } from '../../shared/api/issues';
import type { RiskLevel } from '../../shared/api/diagnostics';
import { stmt } from '../store/statements';
import type { Db } from '../store/open';

export interface IssueRow {
  id: string;
  workspace_id: string;
  account_id: string;
  campaign_id: string | null;
  type: string;
  entity_id: string;
  entity_name: string;
  state: IssueState;
  severity: RiskLevel;
  peak_severity: RiskLevel;
  title: string;
  description: string;
  evidence: string;
  diagnostic_id: string;
  opened_at: string;
  updated_at: string;
  resolved_at: string | null;
  snoozed_until: string | null;
  snooze_until_worse: number;
  acknowledged_by: string | null;
  history: string;
}

export interface HistoryEntry {
  at: string;
  change: IssueChange;
  severity: RiskLevel;
  diagnosticId: string | null;
  by: string | null;
}

/** The live issues (not resolved) of some campaigns of an account (null = account-wide ones). */
export function liveIssuesOf(db: Db, accountId: string, campaignIds: readonly (string | null)[]): IssueRow[] {
  return stmt(
    db,
    `SELECT * FROM issues WHERE account_id = ? AND state != 'resolved'
       AND IFNULL(campaign_id, '') IN (SELECT value FROM json_each(?))`,
  ).all(accountId, JSON.stringify(campaignIds.map((id) => id ?? ''))) as IssueRow[];
}

/** The most recently resolved issue with this key, resolved at or after `since` (to reopen it). */
export function recentlyResolved(
  db: Db,
  key: { accountId: string; campaignId: string | null; type: string; entityId: string },
  since: string,
): IssueRow | undefined {
  return stmt(
    db,
    `SELECT * FROM issues WHERE account_id = ? AND IFNULL(campaign_id, '') = ? AND type = ? AND entity_id = ?
       AND state = 'resolved' AND resolved_at >= ? ORDER BY resolved_at DESC LIMIT 1`,
  ).get(key.accountId, key.campaignId ?? '', key.type, key.entityId, since) as IssueRow | undefined;
}

export function insertIssue(db: Db, row: IssueRow): void {
  stmt(
    db,
    `INSERT INTO issues (id, workspace_id, account_id, campaign_id, type, entity_id, entity_name, state, severity,
       peak_severity, title, description, evidence, diagnostic_id, opened_at, updated_at, resolved_at, snoozed_until,
       snooze_until_worse, acknowledged_by, history)
     VALUES (@id, @workspace_id, @account_id, @campaign_id, @type, @entity_id, @entity_name, @state, @severity,
       @peak_severity, @title, @description, @evidence, @diagnostic_id, @opened_at, @updated_at, @resolved_at,
       @snoozed_until, @snooze_until_worse, @acknowledged_by, @history)`,
  ).run(row);
}

export function updateIssue(db: Db, row: IssueRow): void {
  stmt(
    db,
    `UPDATE issues SET entity_name = @entity_name, state = @state, severity = @severity, peak_severity = @peak_severity,
       title = @title, description = @description, evidence = @evidence, diagnostic_id = @diagnostic_id,
       updated_at = @updated_at, resolved_at = @resolved_at, snoozed_until = @snoozed_until,
       snooze_until_worse = @snooze_until_worse, acknowledged_by = @acknowledged_by, history = @history
     WHERE id = @id`,
  ).run(row);
}

export function issueRow(db: Db, workspaceId: string, id: string): IssueRow | undefined {
  return stmt(db, `SELECT * FROM issues WHERE id = ? AND workspace_id = ?`).get(id, workspaceId) as
    IssueRow | undefined;
}

/** Snoozes whose date has passed end: the issue is open again. Returns the issues woken. */
export function snoozesDue(db: Db, today: string): IssueRow[] {
  return stmt(
    db,
    `SELECT * FROM issues WHERE state = 'snoozed' AND snoozed_until IS NOT NULL AND snoozed_until < ?`,
  ).all(today) as IssueRow[];
}

export interface IssueFilter {
  workspaceId: string;
  accountIds: string[];
  campaignId?: string | undefined;
  states: IssueState[];
  minSeverityRank: number;
  page: number;
  pageSize: number;
}

const SEVERITY_RANK_SQL = `CASE i.severity WHEN 'LOW' THEN 1 WHEN 'MEDIUM' THEN 2 WHEN 'HIGH' THEN 3 ELSE 4 END`;

/** Issues for the list: the worst and newest first. */
export function listIssueRows(
  db: Db,
  f: IssueFilter,
): { rows: (IssueRow & { account_name: string; campaign_name: string | null })[]; total: number } {
  const where = [
    `i.workspace_id = ?`,
    `i.account_id IN (SELECT value FROM json_each(?))`,
    `i.state IN (SELECT value FROM json_each(?))`,
    `${SEVERITY_RANK_SQL} >= ?`,
  ];
  const params: (string | number)[] = [
    f.workspaceId,
    JSON.stringify(f.accountIds),
    JSON.stringify(f.states),
    f.minSeverityRank,
  ];
  if (f.campaignId) {
    where.push(`i.campaign_id = ?`);
    params.push(f.campaignId);
  }
  const clause = where.join(' AND ');
  const total = (
    db.prepare(`SELECT count(*) AS n FROM issues i WHERE ${clause}`).get(...params) as { n: number }
  ).n;
  const rows = db
    .prepare(
      `SELECT i.*, a.name AS account_name, c.name AS campaign_name FROM issues i
       JOIN ad_accounts a ON a.id = i.account_id LEFT JOIN campaigns c ON c.id = i.campaign_id
       WHERE ${clause} ORDER BY ${SEVERITY_RANK_SQL} DESC, i.updated_at DESC, i.id LIMIT ? OFFSET ?`,
    )
    .all(...params, f.pageSize, (f.page - 1) * f.pageSize) as (IssueRow & {
    account_name: string;
    campaign_name: string | null;
  })[];
  return { rows, total };
}

export function toTrackedIssue(
  row: IssueRow & { account_name: string; campaign_name: string | null },
): TrackedIssue {
  return {
    id: row.id,
    accountId: row.account_id,
    accountName: row.account_name,
    campaignId: row.campaign_id,
    campaignName: row.campaign_name,
    type: row.type,
    entity: { id: row.entity_id, name: row.entity_name },
    state: row.state,
    severity: row.severity,
    peakSeverity: row.peak_severity,
    title: row.title,
    description: row.description,
    evidence: JSON.parse(row.evidence) as Record<string, unknown>,
    diagnosticId: row.diagnostic_id,
    openedAt: row.opened_at,
    updatedAt: row.updated_at,
    resolvedAt: row.resolved_at,
    snoozedUntil: row.snoozed_until,
    snoozeUntilWorse: row.snooze_until_worse === 1,
    acknowledgedBy: row.acknowledged_by,
    history: JSON.parse(row.history) as HistoryEntry[],
  };
}

export function namesFor(db: Db, row: IssueRow): { account_name: string; campaign_name: string | null } {
  const account = stmt(db, `SELECT name FROM ad_accounts WHERE id = ?`).get(row.account_id) as
    { name: string } | undefined;
  const campaign = row.campaign_id
    ? (stmt(db, `SELECT name FROM campaigns WHERE id = ?`).get(row.campaign_id) as
        { name: string } | undefined)
    : undefined;
  return { account_name: account?.name ?? '', campaign_name: campaign?.name ?? null };
}
