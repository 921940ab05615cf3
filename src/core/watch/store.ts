// The watcher's tables: each account's sync schedule, and the completed syncs not yet judged. The
// only SQL on sync_schedules and on sync_runs.judged_at, behind the store boundary (either engine); the
// interval setting is read through the settings store.
import { jsonValues } from '../store/dialect';
import type { Sql } from '../store/sql';
import { readSetting } from '../settings/store';
import { DEFAULT_INTERVAL_MINUTES } from './slots';

export interface ScheduleRow {
  account_id: string;
  interval_minutes: number | null;
  next_incremental_at: string;
  next_full_at: string;
  failures: number;
  backoff_until: string | null;
  last_reason: string | null;
}

export interface WatchedAccount {
  id: string;
  workspace_id: string;
  timezone: string;
  schedule: ScheduleRow | null;
}

/** Every account with an active connection (the ones the watcher keeps fresh), with its schedule. */
export async function watchedAccounts(sql: Sql): Promise<WatchedAccount[]> {
  const rows = await sql.all<
    Omit<WatchedAccount, 'schedule'> & Partial<ScheduleRow> & { s_account_id: string | null }
  >(
    `SELECT a.id, a.workspace_id, a.timezone, s.account_id AS s_account_id, s.interval_minutes,
       s.next_incremental_at, s.next_full_at, s.failures, s.backoff_until, s.last_reason
     FROM ad_accounts a LEFT JOIN sync_schedules s ON s.account_id = a.id
     WHERE a.connection_status = 'active' ORDER BY a.id`,
  );
  return rows.map((r) => ({
    id: r.id,
    workspace_id: r.workspace_id,
    timezone: r.timezone,
    schedule: r.s_account_id
      ? {
          account_id: r.s_account_id,
          interval_minutes: r.interval_minutes ?? null,
          next_incremental_at: r.next_incremental_at as string,
          next_full_at: r.next_full_at as string,
          failures: r.failures ?? 0,
          backoff_until: r.backoff_until ?? null,
          last_reason: r.last_reason ?? null,
        }
      : null,
  }));
}

const SCHEDULE_COLUMNS = `account_id, interval_minutes, next_incremental_at, next_full_at, failures, backoff_until,
  last_reason`;

export function scheduleOf(sql: Sql, accountId: string): Promise<ScheduleRow | undefined> {
  return sql.get<ScheduleRow>(`SELECT ${SCHEDULE_COLUMNS} FROM sync_schedules WHERE account_id = ?`, [
    accountId,
  ]);
}

export async function saveSchedule(sql: Sql, row: ScheduleRow): Promise<void> {
  await sql.run(
    `INSERT INTO sync_schedules (${SCHEDULE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (account_id) DO UPDATE SET interval_minutes = excluded.interval_minutes,
       next_incremental_at = excluded.next_incremental_at, next_full_at = excluded.next_full_at,
       failures = excluded.failures, backoff_until = excluded.backoff_until, last_reason = excluded.last_reason`,
    [
      row.account_id,
      row.interval_minutes,
      row.next_incremental_at,
      row.next_full_at,
      row.failures,
      row.backoff_until,
      row.last_reason,
    ],
  );
}

export interface UnjudgedRun {
  id: string;
  account_id: string;
  stats: string;
}

/** Completed syncs whose new data has not been judged yet, oldest first. */
export function unjudgedRuns(sql: Sql): Promise<UnjudgedRun[]> {
  return sql.all<UnjudgedRun>(
    `SELECT id, account_id, stats FROM sync_runs WHERE status = 'completed' AND judged_at IS NULL
     ORDER BY finished_at, id`,
  );
}

export async function markJudged(sql: Sql, runIds: readonly string[], now: string): Promise<void> {
  if (runIds.length === 0) return;
  await sql.run(`UPDATE sync_runs SET judged_at = ? WHERE id IN ${jsonValues(sql)}`, [
    now,
    JSON.stringify(runIds),
  ]);
}

export function accountZone(
  sql: Sql,
  accountId: string,
): Promise<{ workspace_id: string; timezone: string } | undefined> {
  return sql.get<{ workspace_id: string; timezone: string }>(
    `SELECT workspace_id, timezone FROM ad_accounts WHERE id = ?`,
    [accountId],
  );
}

/** The settings key of a workspace's sync interval (minutes). */
export const intervalSettingKey = (workspaceId: string) => `sync.interval:${workspaceId}`;

export type IntervalSource = 'account' | 'workspace' | 'default';

/** The workspace's own sync interval (Settings), or null when it has none. */
export async function workspaceInterval(sql: Sql, workspaceId: string): Promise<number | null> {
  const setting = Number(await readSetting(sql, intervalSettingKey(workspaceId)));
  return Number.isInteger(setting) && setting > 0 ? setting : null;
}

/** The interval in force for an account: its own, else its workspace's, else the default. */
export function intervalFor(
  workspaceMinutes: number | null,
  schedule: Pick<ScheduleRow, 'interval_minutes'> | null | undefined,
): { minutes: number; source: IntervalSource } {
  if (schedule?.interval_minutes) return { minutes: schedule.interval_minutes, source: 'account' };
  return workspaceMinutes !== null
    ? { minutes: workspaceMinutes, source: 'workspace' }
    : { minutes: DEFAULT_INTERVAL_MINUTES, source: 'default' };
}
