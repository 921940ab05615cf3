// The watcher's tables: each account's sync schedule, and the completed syncs not yet judged. The
// only SQL on sync_schedules and on sync_runs.judged_at.
import { stmt } from '../store/statements';
import { readSetting } from '../settings/store';
import { DEFAULT_INTERVAL_MINUTES } from './slots';
import type { Db } from '../store/open';
import type { Sql } from '../store/sql';

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
export function watchedAccounts(db: Db): WatchedAccount[] {
  const rows = stmt(
    db,
    `SELECT a.id, a.workspace_id, a.timezone, s.account_id AS s_account_id, s.interval_minutes,
       s.next_incremental_at, s.next_full_at, s.failures, s.backoff_until, s.last_reason
     FROM ad_accounts a LEFT JOIN sync_schedules s ON s.account_id = a.id
     WHERE a.connection_status = 'active' ORDER BY a.id`,
  ).all() as (Omit<WatchedAccount, 'schedule'> & Partial<ScheduleRow> & { s_account_id: string | null })[];
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

export function scheduleOf(db: Db, accountId: string): ScheduleRow | undefined {
  return stmt(db, `SELECT * FROM sync_schedules WHERE account_id = ?`).get(accountId) as
    ScheduleRow | undefined;
}

export function saveSchedule(db: Db, row: ScheduleRow): void {
  stmt(
    db,
    `INSERT INTO sync_schedules (account_id, interval_minutes, next_incremental_at, next_full_at, failures,
       backoff_until, last_reason)
     VALUES (@account_id, @interval_minutes, @next_incremental_at, @next_full_at, @failures, @backoff_until, @last_reason)
     ON CONFLICT (account_id) DO UPDATE SET interval_minutes = excluded.interval_minutes,
       next_incremental_at = excluded.next_incremental_at, next_full_at = excluded.next_full_at,
       failures = excluded.failures, backoff_until = excluded.backoff_until, last_reason = excluded.last_reason`,
  ).run(row);
}

export interface UnjudgedRun {
  id: string;
  account_id: string;
  stats: string;
}

/** Completed syncs whose new data has not been judged yet, oldest first. */
export function unjudgedRuns(db: Db): UnjudgedRun[] {
  return stmt(
    db,
    `SELECT id, account_id, stats FROM sync_runs WHERE status = 'completed' AND judged_at IS NULL
     ORDER BY finished_at, id`,
  ).all() as UnjudgedRun[];
}

export function markJudged(db: Db, runIds: readonly string[], now: string): void {
  const mark = stmt(db, `UPDATE sync_runs SET judged_at = ? WHERE id = ?`);
  db.transaction(() => {
    for (const id of runIds) mark.run(now, id);
  })();
}

export function accountZone(
  db: Db,
  accountId: string,
): { workspace_id: string; timezone: string } | undefined {
  return stmt(db, `SELECT workspace_id, timezone FROM ad_accounts WHERE id = ?`).get(accountId) as
    { workspace_id: string; timezone: string } | undefined;
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
