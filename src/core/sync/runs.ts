import { AppError } from '../errors';
import { newId } from '../ids';
import type { Db } from '../store/open';

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
export function reapStaleRuns(db: Db, now: string): string[] {
  const running = db.prepare(`SELECT id, account_id, pid FROM sync_runs WHERE status = 'running'`).all() as {
    id: string;
    account_id: string;
    pid: number | null;
  }[];
  const mark = db.prepare(
    `UPDATE sync_runs SET status = 'interrupted', finished_at = ?, error = ? WHERE id = ? AND status = 'running'`,
  );
  const reaped: string[] = [];
  for (const run of running) {
    const dead =
      run.pid === null ||
      (run.pid === process.pid ? !runsInThisProcess.has(run.id) : !isProcessAlive(run.pid));
    if (dead) {
      mark.run(
        now,
        JSON.stringify({ type: 'interrupted', message: `process ${run.pid ?? '?'} ended mid-sync` }),
        run.id,
      );
      reaped.push(run.account_id);
    }
  }
  return reaped;
}

/** Records a new sync (queued, then running); the database's partial unique index refuses a second one per account. */
export function beginRun(db: Db, accountId: string, kind: SyncKind, now: string): string {
  reapStaleRuns(db, now);
  const id = newId('sync');
  try {
    db.prepare(
      `INSERT INTO sync_runs (id, account_id, kind, status, phase, percent, pid, started_at)
       VALUES (?, ?, ?, 'running', 'queued', 0, ?, ?)`,
    ).run(id, accountId, kind, process.pid, now);
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
      const other = runningRun(db, accountId);
      throw new AppError(
        'sync_in_progress',
        `account ${accountId} is already syncing${other ? ` (run ${other.id}, process ${other.pid ?? '?'}, ${other.phase} ${other.percent}%)` : ''}`,
      );
    }
    throw error;
  }
  runsInThisProcess.add(id);
  return id;
}

export function runningRun(db: Db, accountId: string): SyncRunRow | undefined {
  return db.prepare(`SELECT * FROM sync_runs WHERE account_id = ? AND status = 'running'`).get(accountId) as
    SyncRunRow | undefined;
}

export function lastCompletedRun(db: Db, accountId: string): SyncRunRow | undefined {
  return db
    .prepare(
      `SELECT * FROM sync_runs WHERE account_id = ? AND status = 'completed' ORDER BY started_at DESC LIMIT 1`,
    )
    .get(accountId) as SyncRunRow | undefined;
}

/** Accounts whose latest run was paused by Meta's rate limit, with when it resumes. */
export function pausedRuns(db: Db): { accountId: string; resumeAfter: string }[] {
  const rows = db
    .prepare(
      `SELECT r.account_id, r.error FROM sync_runs r
       WHERE r.status = 'interrupted' AND r.error LIKE '%"rate_limited"%'
         AND r.id = (SELECT id FROM sync_runs WHERE account_id = r.account_id ORDER BY started_at DESC, rowid DESC LIMIT 1)`,
    )
    .all() as { account_id: string; error: string }[];
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

export function getRun(db: Db, id: string): SyncRunRow | undefined {
  return db.prepare(`SELECT * FROM sync_runs WHERE id = ?`).get(id) as SyncRunRow | undefined;
}

export function recordProgress(db: Db, id: string, phase: string, percent: number): void {
  db.prepare(`UPDATE sync_runs SET phase = ?, percent = ? WHERE id = ?`).run(phase, percent, id);
}

export function finishRun(
  db: Db,
  id: string,
  outcome: {
    status: Exclude<SyncRunStatus, 'running'>;
    stats: object;
    error?: { type: string; message: string; resumeAfter?: string };
  },
  now: string,
): void {
  db.prepare(
    `UPDATE sync_runs SET status = ?, stats = ?, error = ?, finished_at = ?,
       percent = CASE WHEN ? = 'completed' THEN 100 ELSE percent END,
       phase = CASE WHEN ? = 'completed' THEN 'done' ELSE phase END
     WHERE id = ?`,
  ).run(
    outcome.status,
    JSON.stringify(outcome.stats),
    outcome.error ? JSON.stringify(outcome.error) : null,
    now,
    outcome.status,
    outcome.status,
    id,
  );
  runsInThisProcess.delete(id);
}

/**
 * A run's progress as it is shown: the percent only moves forward (whatever the estimate of rows to
 * come said before), and the run row is written at each phase change and every 5%. Returns what to
 * announce, or null when nothing moved. Whoever runs the engine writes the row, so a sync on the worker
 * never has the host's thread wait for the store's write lock.
 */
export function progressTracker(
  record: (phase: string, percent: number) => void,
): (phase: string, reported: number) => { phase: string; percent: number } | null {
  let lastPhase = '';
  let lastPercent = -1;
  let lastRecorded = -1;
  return (phase, reported) => {
    const percent = Math.max(reported, lastPercent);
    if (phase === lastPhase && percent === lastPercent) return null;
    if (phase !== lastPhase || percent - lastRecorded >= 5) {
      record(phase, percent);
      lastRecorded = percent;
    }
    lastPhase = phase;
    lastPercent = percent;
    return { phase, percent };
  };
}
