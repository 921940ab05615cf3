// Job claims on the team server's PostgreSQL (table job_leases, migration 0005). Claimers lock the row
// they take with FOR UPDATE SKIP LOCKED, so two processes never take the same job; lease times are the
// database's clock, so processes with drifting clocks agree on when a lease ran out.
import type { PgPool } from '../store/pg/connect';
import type { ClaimedJob, JobKind, JobLeases, JobRef } from './leases';

// A claim of a key another claimer took in the same instant: the unique index refused the second.
const KEY_TAKEN = 'job_leases_one_running';
const CLAIM_TRIES = 3;
/**
 * Finished jobs' records are kept this long, then forgotten (an agency's hourly syncs and diagnoses
 * leave some 24,000 a day). A finished job is never offered again: resume() offers only what its
 * service's own table shows unfinished.
 */
export const FINISHED_KEPT_DAYS = 7;
/** How often a process forgets old records, as it offers jobs. */
const FORGET_EVERY_MS = 60 * 60_000;

interface ClaimRow {
  kind: JobKind;
  job_id: string;
  exclusive_key: string | null;
  attempts: number;
}

export class PgJobLeases implements JobLeases {
  private forgotAt = -Infinity;

  constructor(private readonly pool: PgPool) {}

  async offer(job: JobRef, options: { exclusiveKey?: string } = {}): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `INSERT INTO job_leases (kind, job_id, exclusive_key) VALUES ($1, $2, $3)
       ON CONFLICT (kind, job_id) DO NOTHING`,
      [job.kind, job.id, options.exclusiveKey ?? null],
    );
    // A failed pass costs only space: the offer stands, and the next hour tries again.
    if (Date.now() - this.forgotAt >= FORGET_EVERY_MS) await this.forgetFinished().catch(() => 0);
    return rowCount === 1;
  }

  /** Forgets the records of jobs finished more than FINISHED_KEPT_DAYS ago; returns how many. */
  async forgetFinished(): Promise<number> {
    this.forgotAt = Date.now();
    const { rowCount } = await this.pool.query(
      `DELETE FROM job_leases WHERE status IN ('done', 'failed')
         AND finished_at < now() - $1 * interval '1 day'`,
      [FINISHED_KEPT_DAYS],
    );
    return rowCount ?? 0;
  }

  async claimNext(owner: string, kinds: readonly JobKind[], leaseMs: number): Promise<ClaimedJob | null> {
    for (let attempt = 1; attempt <= CLAIM_TRIES; attempt++) {
      try {
        return await this.claimOnce(owner, kinds, leaseMs);
      } catch (error) {
        // The key's other job committed first; a new statement sees it and passes this job by.
        if (!isKeyTaken(error)) throw error;
      }
    }
    return null; // others keep winning this key's jobs: the next poll tries again
  }

  /**
   * A waiting job, or a running one whose lease ran out, whose exclusive key no other job holds
   * (even on an expired lease: that one is taken over first, as a half-done sync must finish).
   */
  private async claimOnce(
    owner: string,
    kinds: readonly JobKind[],
    leaseMs: number,
  ): Promise<ClaimedJob | null> {
    const { rows } = await this.pool.query<ClaimRow>(
      `WITH next AS (
         SELECT j.kind, j.job_id FROM job_leases j
         WHERE j.kind = ANY($2::text[])
           AND (j.status = 'waiting' OR (j.status = 'running' AND j.lease_until < now()))
           AND (j.exclusive_key IS NULL OR NOT EXISTS (
             SELECT 1 FROM job_leases o
             WHERE o.exclusive_key = j.exclusive_key AND o.status = 'running'
               AND (o.kind, o.job_id) <> (j.kind, j.job_id)))
         ORDER BY j.offered_at, j.job_id
         LIMIT 1
         FOR UPDATE SKIP LOCKED
       )
       UPDATE job_leases j SET status = 'running', owner = $1,
         lease_until = now() + $3 * interval '1 millisecond', attempts = j.attempts + 1
       FROM next WHERE j.kind = next.kind AND j.job_id = next.job_id
       RETURNING j.kind, j.job_id, j.exclusive_key, j.attempts`,
      [owner, kinds, leaseMs],
    );
    const row = rows[0];
    if (!row) return null;
    return { kind: row.kind, id: row.job_id, exclusiveKey: row.exclusive_key, attempt: row.attempts };
  }

  async hold(
    owner: string,
    job: JobRef,
    options: { exclusiveKey?: string },
    leaseMs: number,
  ): Promise<ClaimedJob | null> {
    try {
      const { rows } = await this.pool.query<ClaimRow>(
        `INSERT INTO job_leases AS j (kind, job_id, exclusive_key, status, owner, lease_until, attempts)
         VALUES ($1, $2, $3, 'running', $4, now() + $5 * interval '1 millisecond', 1)
         ON CONFLICT (kind, job_id) DO UPDATE SET status = 'running', owner = $4,
           lease_until = now() + $5 * interval '1 millisecond', attempts = j.attempts + 1
         WHERE j.status = 'waiting' OR (j.status = 'running' AND j.lease_until < now())
         RETURNING j.kind, j.job_id, j.exclusive_key, j.attempts`,
        [job.kind, job.id, options.exclusiveKey ?? null, owner, leaseMs],
      );
      const row = rows[0];
      if (!row) return null;
      return { kind: row.kind, id: row.job_id, exclusiveKey: row.exclusive_key, attempt: row.attempts };
    } catch (error) {
      if (isKeyTaken(error)) return null;
      throw error;
    }
  }

  async heartbeat(owner: string, job: JobRef, leaseMs: number): Promise<boolean> {
    return this.ownedUpdate(owner, job, `lease_until = now() + $4 * interval '1 millisecond'`, [leaseMs]);
  }

  async complete(owner: string, job: JobRef): Promise<boolean> {
    return this.ownedUpdate(owner, job, `status = 'done', lease_until = NULL, finished_at = now()`);
  }

  async fail(owner: string, job: JobRef, message: string): Promise<boolean> {
    return this.ownedUpdate(
      owner,
      job,
      `status = 'failed', lease_until = NULL, finished_at = now(), error = $4`,
      [message],
    );
  }

  async release(owner: string, job: JobRef): Promise<boolean> {
    return this.ownedUpdate(owner, job, `status = 'waiting', owner = NULL, lease_until = NULL`);
  }

  /** Changes a running job only while `owner` holds it; `set` takes its own values from $4. */
  private async ownedUpdate(
    owner: string,
    job: JobRef,
    set: string,
    values: readonly unknown[] = [],
  ): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE job_leases SET ${set}
       WHERE kind = $1 AND job_id = $2 AND owner = $3 AND status = 'running'`,
      [job.kind, job.id, owner, ...values],
    );
    return rowCount === 1;
  }
}

function isKeyTaken(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string } | null;
  return e?.code === '23505' && e.constraint === KEY_TAKEN;
}
