// The issues table: one row per problem across diagnoses. The only SQL on it, behind the store
// boundary (either engine).
import type { IssueChange, IssueState, TrackedIssue } from '../../shared/api/issues';
import type { RiskLevel } from '../../shared/api/diagnostics';
import { rowsOfAccounts, type AccountSelection } from '../identity/access';
import { jsonValues, orEmpty } from '../store/dialect';
import { keptPlan, type Sql } from '../store/sql';

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

/** The columns in the order `insertIssue` writes them. */
const COLUMNS = [
  'id',
  'workspace_id',
  'account_id',
  'campaign_id',
  'type',
  'entity_id',
  'entity_name',
  'state',
  'severity',
  'peak_severity',
  'title',
  'description',
  'evidence',
  'diagnostic_id',
  'opened_at',
  'updated_at',
  'resolved_at',
  'snoozed_until',
  'snooze_until_worse',
  'acknowledged_by',
  'history',
] as const satisfies readonly (keyof IssueRow)[];

/** The columns an issue's key is made of: an update never changes them. */
const KEY_COLUMNS: readonly string[] = [
  'id',
  'workspace_id',
  'account_id',
  'campaign_id',
  'type',
  'entity_id',
  'opened_at',
];
/** What an update may change, in the order `updateIssue` writes them (the rest of COLUMNS). */
const CHANGING = COLUMNS.filter((c) => !KEY_COLUMNS.includes(c));

const SELECT = `SELECT ${COLUMNS.join(', ')} FROM issues`;
const INSERT = `INSERT INTO issues (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`;
const UPDATE = `UPDATE issues SET ${CHANGING.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`;

/** The text of each statement keyed on an issue's campaign, per engine: it must match the key index. */
function keyedTexts(sql: Sql) {
  return {
    live: `${SELECT} WHERE account_id = ? AND state != 'resolved'
       AND ${orEmpty(sql, 'campaign_id')} IN ${jsonValues(sql)}`,
    resolved: `${SELECT} WHERE account_id = ? AND ${orEmpty(sql, 'campaign_id')} = ? AND type = ? AND entity_id = ?
       AND state = 'resolved' AND resolved_at >= ? ORDER BY resolved_at DESC LIMIT 1`,
  };
}

const TEXTS: Partial<Record<Sql['engine'], ReturnType<typeof keyedTexts>>> = {};
const keyed = (sql: Sql) => (TEXTS[sql.engine] ??= keyedTexts(sql));

/** The live issues (not resolved) of some campaigns of an account (null = account-wide ones). */
export function liveIssuesOf(
  sql: Sql,
  accountId: string,
  campaignIds: readonly (string | null)[],
): Promise<IssueRow[]> {
  return sql.all<IssueRow>(keyed(sql).live, [accountId, JSON.stringify(campaignIds.map((id) => id ?? ''))]);
}

/** The most recently resolved issue with this key, resolved at or after `since` (to reopen it). */
export function recentlyResolved(
  sql: Sql,
  key: { accountId: string; campaignId: string | null; type: string; entityId: string },
  since: string,
): Promise<IssueRow | undefined> {
  return sql.get<IssueRow>(keyed(sql).resolved, [
    key.accountId,
    key.campaignId ?? '',
    key.type,
    key.entityId,
    since,
  ]);
}

export async function insertIssue(sql: Sql, row: IssueRow): Promise<void> {
  await sql.run(
    INSERT,
    COLUMNS.map((c) => row[c]),
  );
}

export async function updateIssue(sql: Sql, row: IssueRow): Promise<void> {
  await sql.run(UPDATE, [...CHANGING.map((c) => row[c]), row.id]);
}

export function issueRow(sql: Sql, workspaceId: string, id: string): Promise<IssueRow | undefined> {
  return sql.get<IssueRow>(`${SELECT} WHERE id = ? AND workspace_id = ?`, [id, workspaceId]);
}

/** Snoozes whose date has passed end: the issue is open again. Returns the issues woken. */
export function snoozesDue(sql: Sql, today: string): Promise<IssueRow[]> {
  return sql.all<IssueRow>(
    `${SELECT} WHERE state = 'snoozed' AND snoozed_until IS NOT NULL AND snoozed_until < ?`,
    [today],
  );
}

export interface IssueFilter {
  workspaceId: string;
  accounts: AccountSelection;
  campaignId?: string | undefined;
  states: IssueState[];
  minSeverityRank: number;
  page: number;
  pageSize: number;
}

/** A severity's rank (LOW 1 … CRITICAL 4) in SQL; the list's index holds this very expression. */
const severityRank = (alias: string) =>
  `CASE ${alias}.severity WHEN 'LOW' THEN 1 WHEN 'MEDIUM' THEN 2 WHEN 'HIGH' THEN 3 ELSE 4 END`;
const SEVERITY_RANK_SQL = severityRank('i');

/** Issues for the list: the worst and newest first. */
export async function listIssueRows(
  sql: Sql,
  f: IssueFilter,
): Promise<{ rows: (IssueRow & { account_name: string; campaign_name: string | null })[]; total: number }> {
  // One account (its screen, a script's filter) reads its (account_id, state, updated_at) range.
  const scope = rowsOfAccounts(sql, 'i', f.workspaceId, f.accounts, 'a');
  // One state is an equality: the workspace's issues of it are walked in the list's order
  // (issues_list_order), not sorted.
  const [state] = f.states;
  const oneState = f.states.length === 1 && state !== undefined;
  const states = (alias: string) =>
    oneState ? `${alias}.state = ?` : `${alias}.state IN ${jsonValues(sql)}`;
  const stateParam = oneState ? state : JSON.stringify(f.states);
  const where = [...scope.terms, states('i'), `${SEVERITY_RANK_SQL} >= ?`];
  const params: (string | number)[] = [...scope.params, stateParam, f.minSeverityRank];
  if (f.campaignId) {
    where.push(`i.campaign_id = ?`);
    params.push(f.campaignId);
  }
  const clause = where.join(' AND ');
  // No list among the terms (one account or every visible one, one state): the plans are kept.
  const plan = (text: string) => (scope.keyed && oneState ? keptPlan(text) : text);
  // The total: of a campaign's issues, counted (a few); else summed from the kept counts (migration 22),
  // a few rows per account however many issues the state holds.
  const kept = rowsOfAccounts(sql, 'k', f.workspaceId, f.accounts);
  const total = f.campaignId
    ? ((
        await sql.get<{ n: number }>(
          `SELECT count(*) AS n FROM issues i JOIN ad_accounts a ON a.id = i.account_id WHERE ${clause}`,
          params,
        )
      )?.n ?? 0)
    : ((
        await sql.get<{ n: number }>(
          plan(`SELECT coalesce(sum(k.n), 0) AS n FROM issue_counts k ${kept.join}
           WHERE ${[...kept.terms, states('k'), `${severityRank('k')} >= ?`].join(' AND ')}`),
          [...kept.params, stateParam, f.minSeverityRank],
        )
      )?.n ?? 0);
  const rows = await sql.all<IssueRow & { account_name: string; campaign_name: string | null }>(
    plan(`SELECT i.*, a.name AS account_name, c.name AS campaign_name FROM issues i
     JOIN ad_accounts a ON a.id = i.account_id LEFT JOIN campaigns c ON c.id = i.campaign_id
     WHERE ${clause} ORDER BY ${SEVERITY_RANK_SQL} DESC, i.updated_at DESC, i.id LIMIT ? OFFSET ?`),
    [...params, f.pageSize, (f.page - 1) * f.pageSize],
  );
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

export async function namesFor(
  sql: Sql,
  row: IssueRow,
): Promise<{ account_name: string; campaign_name: string | null }> {
  const account = await sql.get<{ name: string }>(`SELECT name FROM ad_accounts WHERE id = ?`, [
    row.account_id,
  ]);
  const campaign = row.campaign_id
    ? await sql.get<{ name: string }>(`SELECT name FROM campaigns WHERE id = ?`, [row.campaign_id])
    : undefined;
  return { account_name: account?.name ?? '', campaign_name: campaign?.name ?? null };
}
