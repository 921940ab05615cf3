// Sync runs: one row per sync of an account (running, then completed, failed or interrupted), the
// claim that keeps one sync per account across processes, and its progress as shown.
import { AppError } from '../errors';
import { newId } from '../ids';
import { isUniqueViolation, type Sql } from '../store/sql';

export type SyncKind = 'full' | 'incremental';
export type SyncRunStatus = 'running' | 'completed' | 'failed' | 'interrupted';

export interface SyncRunRow {
  id: string;
  account_id: string;
  kind: SyncKind;
  status: SyncRunStatus;
  phase: string;
  percent: number;
  pid: number | null;
  error: string | null;
  stats: string;
  started_at: string;
  finished_at: string | null;
}

/** Run IDs being executed by this process (across every SyncService in it). */
export const runsInThisProcess = new Set<string>();

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else, so it is alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A run left 'running' by a process that is gone (killed, crashed) no longer blocks the account: it
 * becomes 'interrupted'. What it committed stays; the next run reads everything again idempotently.
 * Returns the accounts whose run was interrupted so.
 */
export async function reapStaleRuns(sql: Sql, now: string): Promise<string[]> {
  const running = await sql.all<{ id: string; account_id: string; pid: number | null }>(
    `SELECT id, account_id, pid FROM sync_runs WHERE status = 'running' ORDER BY started_at, id`,
  );
  const reaped: string[] = [];
  for (const run of running) {
    const dead =
      run.pid === null ||
      (run.pid === process.pid ? !runsInThisProcess.has(run.id) : !isProcessAlive(run.pid));
    if (dead) {
      await sql.run(
        `UPDATE sync_runs SET status = 'interrupted', finished_at = ?, error = ? WHERE id = ? AND status = 'running'`,
        [
          now,
          JSON.stringify({ type: 'interrupted', message: `process ${run.pid ?? '?'} ended mid-sync` }),
          run.id,
        ],
      );
      reaped.push(run.account_id);
    }
  }
  return reaped;
}

/** Records a new sync (queued, then running); the database's partial unique index refuses a second one per account. */
export async function beginRun(
  sql: Sql,
  accountId: string,
  kind: SyncKind,
  now: string,
  opts: { reapDeadProcesses?: boolean } = {},
): Promise<string> {
  // Solo: a run whose process is gone is closed first. A team server's leases take such runs over.
  if (opts.reapDeadProcesses ?? true) await reapStaleRuns(sql, now);
  const id = newId('sync');
  // Ours before the row exists: a concurrent reap in this process must not take it for a dead one.
  runsInThisProcess.add(id);
  try {
    await sql.run(
      `INSERT INTO sync_runs (id, account_id, kind, status, phase, percent, pid, started_at)
       VALUES (?, ?, ?, 'running', 'queued', 0, ?, ?)`,
      [id, accountId, kind, process.pid, now],
    );
  } catch (error) {
    runsInThisProcess.delete(id);
    if (isUniqueViolation(error)) {
      const other = await runningRun(sql, accountId);
      throw new AppError(
        'sync_in_progress',
        `account ${accountId} is already syncing${other ? ` (run ${other.id}, process ${other.pid ?? '?'}, ${other.phase} ${other.percent}%)` : ''}`,
      );
    }
    throw error;
  }
  return id;
}

/** Every run still marked running (a team server offers them again at start: their leases decide). */
export function runningRuns(sql: Sql): Promise<Pick<SyncRunRow, 'id' | 'account_id'>[]> {
  return sql.all(`SELECT id, account_id FROM sync_runs WHERE status = 'running' ORDER BY started_at, id`);
}

export function runningRun(sql: Sql, accountId: string): Promise<SyncRunRow | undefined> {
  return sql.get<SyncRunRow>(`SELECT * FROM sync_runs WHERE account_id = ? AND status = 'running'`, [
    accountId,
  ]);
}

export function lastCompletedRun(sql: Sql, accountId: string): Promise<SyncRunRow | undefined> {
  return sql.get<SyncRunRow>(
    `SELECT * FROM sync_runs WHERE account_id = ? AND status = 'completed' ORDER BY ${LATEST_FIRST} LIMIT 1`,
    [accountId],
  );
}

/**
 * Newest run first: by start, then the running one (at most one per account), then the last to
 * finish; the ID only breaks a tie of identical instants (a pinned clock).
 */
export const LATEST_FIRST = `started_at DESC, (finished_at IS NULL) DESC, finished_at DESC, id DESC`;

/**
 * The account's newest run (any status), by the pointer its row keeps (`ad_accounts.latest_run_id`,
 * set by a trigger on every run written: the latest started, the last recorded of equal starts).
 */
export function latestRun(sql: Sql, accountId: string): Promise<SyncRunRow | undefined> {
  return sql.get<SyncRunRow>(
    `SELECT r.* FROM ad_accounts a JOIN sync_runs r ON r.id = a.latest_run_id WHERE a.id = ?`,
    [accountId],
  );
}

/** Accounts whose latest run was paused by Meta's rate limit, with when it resumes. */
export async function pausedRuns(sql: Sql): Promise<{ accountId: string; resumeAfter: string }[]> {
  const rows = await sql.all<{ account_id: string; error: string }>(
    `SELECT r.account_id, r.error FROM sync_runs r
     WHERE r.status = 'interrupted' AND r.error LIKE '%"rate_limited"%'
       AND r.id = (SELECT a.latest_run_id FROM ad_accounts a WHERE a.id = r.account_id)
     ORDER BY r.account_id`,
  );
  const out: { accountId: string; resumeAfter: string }[] = [];
  for (const row of rows) {
    const resumeAfter = resumeAfterOf(row.error);
    if (resumeAfter) out.push({ accountId: row.account_id, resumeAfter });
  }
  return out;
}

/** The resume time a paused run's error carries, if any. */
export function resumeAfterOf(error: string | null): string | null {
  if (!error) return null;
  try {
    const parsed = JSON.parse(error) as { type?: unknown; resumeAfter?: unknown };
    return parsed.type === 'rate_limited' && typeof parsed.resumeAfter === 'string'
      ? parsed.resumeAfter
      : null;
  } catch {
    return null;
  }
}

export function getRun(sql: Sql, id: string): Promise<SyncRunRow | undefined> {
  return sql.get<SyncRunRow>(`SELECT * FROM sync_runs WHERE id = ?`, [id]);
}

export async function recordProgress(sql: Sql, id: string, phase: string, percent: number): Promise<void> {
  await sql.run(`UPDATE sync_runs SET phase = ?, percent = ? WHERE id = ?`, [phase, percent, id]);
}

export async function finishRun(
  sql: Sql,
  id: string,
  outcome: {
    status: Exclude<SyncRunStatus, 'running'>;
    stats: object;
    error?: { type: string; message: string; resumeAfter?: string };
  },
  now: string,
): Promise<void> {
  try {
    const completed = outcome.status === 'completed' ? 1 : 0;
    await sql.run(
      `UPDATE sync_runs SET status = ?, stats = ?, error = ?, finished_at = ?,
         percent = CASE WHEN ? = 1 THEN 100 ELSE percent END,
         phase = CASE WHEN ? = 1 THEN 'done' ELSE phase END
       WHERE id = ?`,
      [
        outcome.status,
        JSON.stringify(outcome.stats),
        outcome.error ? JSON.stringify(outcome.error) : null,
        now,
        completed,
        completed,
        id,
      ],
    );
  } finally {
    runsInThisProcess.delete(id);
  }
}

/**
 * A run's progress as it is shown: the percent only moves forward (whatever the estimate of rows to
 * come said before), and the run row is written at each phase change and every 5%. Returns what to
 * announce, or null when nothing moved. Whoever runs the engine writes the row, so a sync on the worker
 * never has the host's thread wait for the store's write lock.
 */
export function progressTracker(
  record: (phase: string, percent: number) => Promise<void>,
): (phase: string, reported: number) => Promise<{ phase: string; percent: number } | null> {
  let lastPhase = '';
  let lastPercent = -1;
  let lastRecorded = -1;
  return async (phase, reported) => {
    const percent = Math.max(reported, lastPercent);
    if (phase === lastPhase && percent === lastPercent) return null;
    // The state moves before the write, so calls overlapping it (insight pieces side by side) see it.
    const write = phase !== lastPhase || percent - lastRecorded >= 5;
    if (write) lastRecorded = percent;
    lastPhase = phase;
    lastPercent = percent;
    if (write) await record(phase, percent);
    return { phase, percent };
  };
}
