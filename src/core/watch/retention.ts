// History the watcher piles up by itself, thinned once it is old. Every hourly sync that revises an
// account brings an automatic diagnosis of it (about 70 KB for 100 campaigns) and a sync run: an
// agency of 500 accounts wrote some 800 MB of diagnoses and 12,000 runs a day, kept for ever.
// - Automatic diagnoses are all kept for 3 days (a weekend, hour by hour); older days keep, per
//   account, the day's last completed one (the history and the trend stay one point a day), and
//   every one an issue's history, an issue or a feedback names. Diagnoses someone asked for are
//   never touched.
// - Sync runs are kept for 30 days, besides each account's newest run and newest completed one
//   (what the account line and the next incremental sync read); a run not yet judged stays.
// - Alert deliveries that ended are kept for 30 days, besides each destination's last (its status
//   in Settings); their dedupe keys never come back (an issue's key holds its history's length).
// Each pass does a bounded amount of work (batches of short statements, so a sync's writes are never
// held up for long), oldest first, and picks up where the last one stopped, after a restart too.
import { addDays } from '../clock';
import { LATEST_FIRST } from '../sync/runs';
import type { Sql } from '../store/sql';

/** Days every automatic diagnosis is kept, hour by hour. */
export const DIAGNOSES_KEPT_WHOLE_DAYS = 3;
/** Days every sync run, and every alert delivery, is kept. */
export const SYNC_RUNS_KEPT_DAYS = 30;
export const ALERT_DELIVERIES_KEPT_DAYS = 30;
const DIAGNOSES_PER_BATCH = 200;
/** Sync runs or alert deliveries per statement (small rows). */
const RUNS_PER_BATCH = 1_000;
/** Statements that delete, at most, per pass (every 30 s: 4,000 diagnoses, or 20,000 runs). */
const BATCHES_PER_PASS = 20;

export interface Thinned {
  diagnoses: number;
  syncRuns: number;
  alertDeliveries: number;
  /** Nothing old is left to thin (false: the pass stopped at its budget). */
  done: boolean;
}

const dayStart = (date: string): string => `${date}T00:00:00.000Z`;

/** Thins the history older than its keeping time, as of `now`: at most BATCHES_PER_PASS deletions. */
export async function thinHistory(sql: Sql, now: Date, batches = BATCHES_PER_PASS): Promise<Thinned> {
  const today = now.toISOString().slice(0, 10);
  const budget = { left: batches };
  const diagnoses = await thinDiagnoses(sql, dayStart(addDays(today, -DIAGNOSES_KEPT_WHOLE_DAYS)), budget);
  const syncRuns = await thinSyncRuns(sql, dayStart(addDays(today, -SYNC_RUNS_KEPT_DAYS)), budget);
  const alertDeliveries = await thinAlertDeliveries(
    sql,
    dayStart(addDays(today, -ALERT_DELIVERIES_KEPT_DAYS)),
    budget,
  );
  return { diagnoses, syncRuns, alertDeliveries, done: budget.left > 0 };
}

/** Whole UTC days of automatic diagnoses before `before`, the oldest first. */
async function thinDiagnoses(sql: Sql, before: string, budget: { left: number }): Promise<number> {
  let deleted = 0;
  while (budget.left > 0) {
    const oldest = await sql.get<{ created_at: string }>(
      `SELECT created_at FROM diagnostics
       WHERE trigger = 'automatic' AND retained = 0 AND created_at < ? AND status IN ('completed', 'failed')
       ORDER BY created_at LIMIT 1`,
      [before],
    );
    if (!oldest) break;
    const day = oldest.created_at.slice(0, 10);
    const from = dayStart(day);
    const to = dayStart(addDays(day, 1));
    // What the day keeps: each account's last completed diagnosis, and any that something names.
    await sql.run(
      `UPDATE diagnostics SET retained = 1
       WHERE trigger = 'automatic' AND retained = 0 AND created_at >= ? AND created_at < ?
         AND (id IN (
               SELECT (SELECT x.id FROM diagnostics x
                       WHERE x.account_id = d.account_id AND x.trigger = 'automatic'
                         AND x.created_at >= ? AND x.created_at < ? AND x.status = 'completed'
                       ORDER BY x.created_at DESC, x.id DESC LIMIT 1)
               FROM (SELECT DISTINCT account_id FROM diagnostics
                     WHERE trigger = 'automatic' AND retained = 0 AND created_at >= ? AND created_at < ?) d)
           OR EXISTS (SELECT 1 FROM issues i WHERE i.diagnostic_id = diagnostics.id)
           OR EXISTS (SELECT 1 FROM recommendation_feedback f WHERE f.diagnostic_id = diagnostics.id))`,
      [from, to, from, to, from, to],
    );
    // Named since the day was marked (a feedback given meanwhile): left, and marked on the next pass.
    deleted += await inBatches(
      sql,
      `DELETE FROM diagnostics WHERE id IN (
         SELECT d.id FROM diagnostics d
         WHERE d.trigger = 'automatic' AND d.retained = 0 AND d.created_at >= ? AND d.created_at < ?
           AND d.status IN ('completed', 'failed')
           AND NOT EXISTS (SELECT 1 FROM issues i WHERE i.diagnostic_id = d.id)
           AND NOT EXISTS (SELECT 1 FROM recommendation_feedback f WHERE f.diagnostic_id = d.id)
         LIMIT ${DIAGNOSES_PER_BATCH})`,
      [from, to],
      DIAGNOSES_PER_BATCH,
      budget,
    );
  }
  return deleted;
}

/**
 * Runs `statement` (a DELETE of at most `batch` rows) until it deletes fewer, or the pass's budget is
 * spent; returns the rows deleted.
 */
async function inBatches(
  sql: Sql,
  statement: string,
  params: readonly string[],
  batch: number,
  budget: { left: number },
): Promise<number> {
  let deleted = 0;
  while (budget.left > 0) {
    budget.left -= 1;
    const gone = await sql.run(statement, params);
    deleted += gone.changes;
    if (gone.changes < batch) break;
  }
  return deleted;
}

/** Sync runs started before `before`, except each account's newest and newest completed, and unjudged ones. */
function thinSyncRuns(sql: Sql, before: string, budget: { left: number }): Promise<number> {
  return inBatches(
    sql,
    `DELETE FROM sync_runs WHERE id IN (
       SELECT r.id FROM sync_runs r
       WHERE r.started_at < ? AND r.status <> 'running' AND (r.status <> 'completed' OR r.judged_at IS NOT NULL)
         AND r.id <> coalesce((SELECT a.latest_run_id FROM ad_accounts a WHERE a.id = r.account_id), '')
         AND r.id <> coalesce((SELECT n.id FROM sync_runs n WHERE n.account_id = r.account_id
                                 AND n.status = 'completed' ORDER BY ${LATEST_FIRST} LIMIT 1), '')
       ORDER BY r.started_at LIMIT ${RUNS_PER_BATCH})`,
    [before],
    RUNS_PER_BATCH,
    budget,
  );
}

/** Alert deliveries queued before `before` and ended (delivered or failed), except each destination's last. */
function thinAlertDeliveries(sql: Sql, before: string, budget: { left: number }): Promise<number> {
  return inBatches(
    sql,
    `DELETE FROM alert_deliveries WHERE id IN (
       SELECT d.id FROM alert_deliveries d
       WHERE d.created_at < ? AND d.status <> 'pending'
         AND d.id <> (SELECT n.id FROM alert_deliveries n WHERE n.destination_id = d.destination_id
                      ORDER BY n.created_at DESC, n.id DESC LIMIT 1)
       ORDER BY d.created_at LIMIT ${RUNS_PER_BATCH})`,
    [before],
    RUNS_PER_BATCH,
    budget,
  );
}
