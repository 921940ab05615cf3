// The account read model: one query for every screen and endpoint that shows ad accounts. Counts come
// from the campaigns table, the 30-day spend from the account-day rollup, summed over the 30 days
// ending today in each account's own time zone (an account's "today" is its own, never UTC's).
import { addDays, dateInZone } from '../clock';
import { type RequestContext, accountScope } from '../identity/access';
import { microsToAmount } from '../money';
import { disableReasonName } from '../../shared/disable-reasons';
import { inJsonValues, jsonTuples } from '../store/dialect';
import { keptPlan, type Sql } from '../store/sql';
import type { AccountFigures } from '../insights/account-figures';
import { nextScheduledSync } from '../watch/slots';
import { tokenWarning } from '../sync/token-expiry';
import { resumeAfterOf } from '../sync/runs';
import type { AccountView, SyncState } from '../../shared/ipc/types';

interface AccountRow {
  revision: number;
  id: string;
  platform_account_id: string;
  name: string;
  currency: string;
  timezone: string;
  status: AccountView['status'];
  connection_status: AccountView['connectionStatus'];
  status_reason: string | null;
  mode: 'test' | 'live';
  business_id: string;
  business_name: string;
  permissions: string;
  connected_at: string;
  connected_by: string | null;
  last_synced_at: string | null;
  disable_reason: number;
  spend_cap_micros: number | null;
  amount_spent_micros: number | null;
  campaign_count: number;
  active_campaign_count: number;
  run_status: string | null;
  run_phase: string | null;
  run_percent: number | null;
  run_error: string | null;
  next_incremental_at: string | null;
  next_full_at: string | null;
  backoff_until: string | null;
  token_expires_at: string | null;
}

/** The account's (`a`) newest sync run, any status, as `r`: by the pointer its row keeps (migration 18). */
const LATEST_RUN = `LEFT JOIN sync_runs r ON r.id = a.latest_run_id`;

// The page's accounts are chosen first (ORDER BY … LIMIT in the inner select), so the per-row lookups
// (last sync run) run for the page only, not for every account before sorting; campaign counts are
// maintained on the account row (migration 13).
const selectAccounts = (
  page: string,
): string => `SELECT a.id, a.platform_account_id, a.name, a.currency, a.timezone, a.status,
    a.connection_status, c.status_reason, a.mode, a.business_id, a.business_name, a.permissions,
    a.connected_at, a.connected_by, a.last_synced_at, a.disable_reason, a.spend_cap_micros, a.amount_spent_micros, c.token_expires_at,
    a.campaign_count, a.active_campaign_count, a.revision,
    r.status AS run_status, r.phase AS run_phase, r.percent AS run_percent, r.error AS run_error,
    s.next_incremental_at, s.next_full_at, s.backoff_until
  FROM ${page} a
  JOIN platform_connections c ON c.id = a.connection_id
  LEFT JOIN sync_schedules s ON s.account_id = a.id
  ${LATEST_RUN}`;

export interface AccountFilter {
  /** One account (already resolved to its service ID). */
  id?: string;
  connectionStatus?: AccountView['connectionStatus'];
  page: number;
  pageSize: number;
}

function permissionsOf(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

/** The error of the account's newest sync run, when that run failed. */
function lastErrorOf(row: Pick<AccountRow, 'run_status' | 'run_error'>): SyncState['lastError'] {
  if (row.run_status !== 'failed' || !row.run_error) return null;
  try {
    const parsed = JSON.parse(row.run_error) as { type?: string; message?: string };
    return { type: parsed.type ?? 'platform_error', message: parsed.message ?? row.run_error };
  } catch {
    return { type: 'platform_error', message: row.run_error };
  }
}

/** `lastError`: the account line's (`lastErrorOf`). */
function syncStateOf(
  row: AccountRow,
  syncingInMemory: boolean,
  lastError: SyncState['lastError'],
): SyncState {
  // The run row is finished before sync.completed is announced, so it is the truth when a screen
  // refetches on that event; the in-memory flag only covers a run not yet recorded.
  const running = row.run_status === 'running' || (row.run_status === null && syncingInMemory);
  const resumeAfter = row.run_status === 'interrupted' ? resumeAfterOf(row.run_error) : null;
  return {
    running,
    percent: running ? (row.run_percent ?? 0) : 100,
    phase: running ? (row.run_phase ?? 'starting') : resumeAfter ? 'paused' : 'idle',
    lastError,
    nextSyncAt: nextSyncOf(row),
    pausedUntil: running ? null : resumeAfter,
  };
}

/** The next scheduled sync of an active account that has a schedule. */
function nextSyncOf(row: AccountRow): string | null {
  if (row.connection_status !== 'active' || !row.next_incremental_at || !row.next_full_at) return null;
  return nextScheduledSync({
    next_incremental_at: row.next_incremental_at,
    next_full_at: row.next_full_at,
    backoff_until: row.backoff_until,
  });
}

/**
 * Spend of the 30 days ending today in each account's own time zone, from the account-day rollup, for
 * many accounts in one statement (a page of the list, or the portfolio's 500): one
 * keyed range of the rollup per account, each over its own 30 days.
 */
export async function spendsLast30d(
  sql: Sql,
  accounts: ReadonlyArray<{ id: string; timezone: string }>,
  now: Date,
): Promise<Map<string, number>> {
  if (accounts.length === 0) return new Map();
  const windows = accounts.map((a) => {
    const today = dateInZone(now, a.timezone);
    return [a.id, addDays(today, -29), today];
  });
  const rows = await sql.all<{ accountId: string; micros: number }>(
    `WITH w(account_id, win_from, win_to) AS (${jsonTuples(sql, ['text', 'text', 'text'])})
     SELECT w.account_id AS accountId, COALESCE(sum(d.spend_micros), 0) AS micros
     FROM w JOIN insights_account_daily d ON d.account_id = w.account_id AND d.date BETWEEN w.win_from AND w.win_to
     GROUP BY w.account_id`,
    [JSON.stringify(windows)],
  );
  return new Map(rows.map((r) => [r.accountId, microsToAmount(r.micros)]));
}

export async function countAccounts(sql: Sql, ctx: RequestContext, filter: AccountFilter): Promise<number> {
  const { where, params } = whereOf(ctx, filter);
  return (
    (await sql.get<{ n: number }>(keptPlan(`SELECT count(*) AS n FROM ad_accounts a WHERE ${where}`), params))
      ?.n ?? 0
  );
}

function whereOf(ctx: RequestContext, filter: AccountFilter): { where: string; params: string[] } {
  const scope = accountScope(ctx);
  const parts = [scope.sql];
  const params = [...scope.params];
  if (filter.id) {
    parts.push('a.id = ?');
    params.push(filter.id);
  }
  if (filter.connectionStatus) {
    parts.push('a.connection_status = ?');
    params.push(filter.connectionStatus);
  }
  return { where: parts.join(' AND '), params };
}

/** No LIMIT: PostgreSQL refuses SQLite's LIMIT -1, both take the largest exact integer. */
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

/**
 * The accounts, with the revisions their rows were read at: a read model that keeps more figures
 * per account (the portfolio) uses these rather than reading the revisions again.
 */
export async function readAccounts(
  sql: Sql,
  ctx: RequestContext,
  filter: AccountFilter,
  now: Date,
  isSyncing: (accountId: string) => boolean,
  figures?: AccountFigures,
): Promise<{ accounts: AccountView[]; revisions: Map<string, number> }> {
  const { where, params } = whereOf(ctx, filter);
  const page = `(SELECT * FROM ad_accounts a WHERE ${where} ORDER BY a.name, a.id LIMIT ? OFFSET ?)`;
  const limit = filter.pageSize < 0 ? NO_LIMIT : filter.pageSize;
  const offset = filter.pageSize < 0 ? 0 : (filter.page - 1) * filter.pageSize;
  const rows = await sql.all<AccountRow>(keptPlan(`${selectAccounts(page)} ORDER BY a.name, a.id`), [
    ...params,
    limit,
    offset,
  ]);
  // Each account's 30-day spend, kept under its revision where the caller keeps figures.
  const byId = new Map(rows.map((row) => [row.id, row]));
  const rowOf = (id: string) => byId.get(id) as AccountRow;
  const revisions = new Map(rows.map((row) => [row.id, row.revision]));
  const spends = figures
    ? await figures.each(
        revisions,
        (id) => `spend-30d|${dateInZone(now, rowOf(id).timezone)}`,
        (ids) => spendsLast30d(sql, ids.map(rowOf), now),
        0,
      )
    : await spendsLast30d(sql, rows, now);
  const accounts = rows.map((row) => accountViewOf(row, now, spends.get(row.id) ?? 0, isSyncing(row.id)));
  return { accounts, revisions };
}

/** The platform IDs of the workspace's test-mode (demo) accounts, connected in any state. */
export async function connectedDemoAccountIds(sql: Sql, workspaceId: string): Promise<Set<string>> {
  const rows = await sql.all<{ id: string }>(
    `SELECT platform_account_id AS id FROM ad_accounts WHERE workspace_id = ? AND mode = 'test'`,
    [workspaceId],
  );
  return new Set(rows.map((r) => r.id));
}

/** The account of the workspace with this platform ID, if one is connected (in any state). */
export async function accountIdByPlatformId(
  sql: Sql,
  workspaceId: string,
  platformAccountId: string,
): Promise<string | null> {
  const row = await sql.get<{ id: string }>(
    `SELECT id FROM ad_accounts WHERE workspace_id = ? AND platform_account_id = ?`,
    [workspaceId, platformAccountId],
  );
  return row?.id ?? null;
}

/** The account's running sync, if any (started_at of its run). */
export async function runningSyncStartedAt(sql: Sql, accountId: string): Promise<string | null> {
  const row = await sql.get<{ started_at: string }>(
    `SELECT started_at FROM sync_runs WHERE account_id = ? AND status = 'running'`,
    [accountId],
  );
  return row?.started_at ?? null;
}

/** Platform IDs of the workspace's accounts whose connection is active (the "already connected" mark). */
export async function activePlatformAccountIds(sql: Sql, workspaceId: string): Promise<Set<string>> {
  const rows = await sql.all<{ id: string }>(
    `SELECT platform_account_id AS id FROM ad_accounts WHERE workspace_id = ? AND connection_status = 'active'`,
    [workspaceId],
  );
  return new Set(rows.map((r) => r.id));
}

/**
 * What a line of the portfolio shows of an account: its own row and its newest sync's error, without
 * the counts, schedule and 30-day spend of the accounts list. A full `AccountView` is one too.
 */
export type AccountLine = Pick<
  AccountView,
  | 'id'
  | 'platformAccountId'
  | 'name'
  | 'businessName'
  | 'currency'
  | 'timezone'
  | 'status'
  | 'connectionStatus'
  | 'disableReason'
  | 'spendCap'
  | 'amountSpent'
  | 'lastSyncedAt'
  | 'tokenExpiresAt'
  | 'tokenWarning'
> & { sync: Pick<SyncState, 'lastError'> };

type AccountLineRow = Pick<
  AccountRow,
  | 'revision'
  | 'id'
  | 'platform_account_id'
  | 'name'
  | 'business_name'
  | 'currency'
  | 'timezone'
  | 'status'
  | 'connection_status'
  | 'disable_reason'
  | 'spend_cap_micros'
  | 'amount_spent_micros'
  | 'last_synced_at'
  | 'token_expires_at'
  | 'run_status'
  | 'run_error'
>;

/** An account's own row as every view shows it: the portfolio's line, to which the list adds. */
function accountLineOf(row: AccountLineRow, now: Date): AccountLine {
  return {
    id: row.id,
    platformAccountId: row.platform_account_id,
    name: row.name,
    businessName: row.business_name,
    currency: row.currency,
    timezone: row.timezone,
    status: row.status,
    connectionStatus: row.connection_status,
    disableReason: disableReasonName(row.disable_reason),
    spendCap: row.spend_cap_micros === null ? null : microsToAmount(row.spend_cap_micros),
    amountSpent: row.amount_spent_micros === null ? null : microsToAmount(row.amount_spent_micros),
    lastSyncedAt: row.last_synced_at,
    tokenExpiresAt: row.token_expires_at,
    tokenWarning: row.connection_status === 'active' ? tokenWarning(row.token_expires_at, now) : null,
    sync: { lastError: lastErrorOf(row) },
  };
}

/**
 * The list's view of an account: its line with what the list adds. The line's fields are copied by
 * name: on Node 20's V8, `{ ...line, more }` costs about 9 µs and 8 KB an object (each property added
 * after a spread copies the clone's map), for a page of 100 accounts a millisecond of CPU and the
 * garbage collections that follow; a literal of fixed shape costs next to nothing.
 */
function accountViewOf(row: AccountRow, now: Date, totalSpendLast30d: number, syncing: boolean): AccountView {
  const line = accountLineOf(row, now);
  return {
    id: line.id,
    platformAccountId: line.platformAccountId,
    name: line.name,
    businessName: line.businessName,
    currency: line.currency,
    timezone: line.timezone,
    status: line.status,
    connectionStatus: line.connectionStatus,
    disableReason: line.disableReason,
    spendCap: line.spendCap,
    amountSpent: line.amountSpent,
    lastSyncedAt: line.lastSyncedAt,
    tokenExpiresAt: line.tokenExpiresAt,
    tokenWarning: line.tokenWarning,
    sync: syncStateOf(row, syncing, line.sync.lastError),
    statusReason: row.connection_status === 'active' ? null : row.status_reason,
    mode: row.mode,
    businessId: row.business_id,
    permissions: permissionsOf(row.permissions),
    campaignCount: row.campaign_count,
    activeCampaignCount: row.active_campaign_count,
    totalSpendLast30d,
    connectedAt: row.connected_at,
    connectedBy: row.connected_by,
  };
}

/**
 * Every account the context sees as a portfolio line (or those of `ids` it sees), by name, with the
 * revisions their rows were read at. Half the columns of `readAccounts`: for an agency's 500 accounts
 * the list's columns were most of the portfolio's time in the database.
 */
export async function readAccountLines(
  sql: Sql,
  ctx: RequestContext,
  now: Date,
  ids?: readonly string[],
): Promise<{ accounts: AccountLine[]; revisions: Map<string, number> }> {
  const { where, params } = whereOf(ctx, { page: 1, pageSize: -1 });
  const rows = await sql.all<AccountLineRow>(
    `SELECT a.id, a.platform_account_id, a.name, a.business_name, a.currency, a.timezone, a.status,
       a.connection_status, a.disable_reason, a.spend_cap_micros, a.amount_spent_micros, a.last_synced_at,
       c.token_expires_at, a.revision, r.status AS run_status, r.error AS run_error
     FROM ad_accounts a
     JOIN platform_connections c ON c.id = a.connection_id
     ${LATEST_RUN}
     WHERE ${where}${ids ? ` AND ${inJsonValues(sql, 'a.id')}` : ''}
     ORDER BY a.name, a.id`,
    ids ? [...params, JSON.stringify(ids)] : params,
  );
  return {
    accounts: rows.map((row) => accountLineOf(row, now)),
    revisions: new Map(rows.map((row) => [row.id, row.revision])),
  };
}

/** An account's two counters: its figures' inputs (`revision`) and the rest of its line's. */
export interface LineRevisions {
  id: string;
  revision: number;
  lineRevision: number;
}

/**
 * The counters of every account the context sees (migrations 15 and 20): what the portfolio reads
 * first, to build again only the lines whose inputs moved.
 */
export function readLineRevisions(sql: Sql, ctx: RequestContext): Promise<LineRevisions[]> {
  const { where, params } = whereOf(ctx, { page: 1, pageSize: -1 });
  return sql.all<LineRevisions>(
    keptPlan(`SELECT a.id, a.revision, a.line_revision AS lineRevision FROM ad_accounts a WHERE ${where}`),
    params,
  );
}
