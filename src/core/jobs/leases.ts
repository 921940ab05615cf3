// Job claims shared by a team server's processes (DESIGN.md §2: a port; leases-pg.ts is the team
// implementation, the solo one is the in-process JobQueue). A job is the ID of a row its service
// persisted first; a claim is a lease the claiming process renews while the job runs, so a job whose
// process died is taken over by another once its lease runs out.

/** The background work a team server shares out. */
export type JobKind = 'sync' | 'diagnostic' | 'report' | 'schedule';

export interface JobRef {
  kind: JobKind;
  id: string;
}

export interface ClaimedJob extends JobRef {
  exclusiveKey: string | null;
  /** 1 for the first claim; more when the job was taken over from a process that died. */
  attempt: number;
}

/** A lease this long means a dead process's job is taken over within a minute. */
export const DEFAULT_LEASE_MS = 30_000;

export interface JobLeases {
  /**
   * Makes a job claimable; offering a job already known (by any process) changes nothing and
   * returns false. Jobs with the same `exclusiveKey` (a sync's ad account) never run at once.
   */
  offer(job: JobRef, options?: { exclusiveKey?: string }): Promise<boolean>;
  /** The oldest claimable job of these kinds, now leased to `owner` for `leaseMs`; null when none. */
  claimNext(owner: string, kinds: readonly JobKind[], leaseMs: number): Promise<ClaimedJob | null>;
  /** Renews the lease; false when `owner` no longer holds it (it expired and was taken over). */
  heartbeat(owner: string, job: JobRef, leaseMs: number): Promise<boolean>;
  /** Ends the job; false when `owner` no longer held it. */
  complete(owner: string, job: JobRef): Promise<boolean>;
  fail(owner: string, job: JobRef, message: string): Promise<boolean>;
  /** Gives an unfinished job back for any process to claim (a process stopping without running it). */
  release(owner: string, job: JobRef): Promise<boolean>;
  /**
   * Offers a job already leased to `owner`, which runs it itself (a command-line process): no other
   * process claims it while the lease is renewed, and any takes it over once it runs out. Null when
   * the job is another process's, or its exclusive key is held by another running job.
   */
  hold(
    owner: string,
    job: JobRef,
    options: { exclusiveKey?: string },
    leaseMs: number,
  ): Promise<ClaimedJob | null>;
}
