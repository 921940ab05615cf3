// What each team server process runs in place of JobQueue's pump: it claims jobs any process offered
// (up to `concurrency` at once), renews each lease every third of its length while the job runs, and
// records the outcome. A process that dies stops renewing, and another takes its jobs over once their
// leases run out: within leaseMs + pollMs (30 s + 1 s by default, inside the minute issue 18 allows).
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { HAND_OVER, type JobEnd } from './jobs';
import { DEFAULT_LEASE_MS, type ClaimedJob, type JobKind, type JobLeases } from './leases';

export interface LeaseRunnerOptions {
  leases: JobLeases;
  /** This process among the server's processes (jobOwner()). */
  owner: string;
  kinds: readonly JobKind[];
  /**
   * Runs one job; a thrown error marks it failed (reported to onError) and the runner goes on.
   * HAND_OVER: this process stopped it unfinished, and its lease goes back for another to claim.
   */
  run(job: ClaimedJob): Promise<JobEnd>;
  /** Jobs running at once in this process (default 1). */
  concurrency?: number;
  leaseMs?: number;
  /** How often an idle runner looks for jobs other processes offered (default 1 s). */
  pollMs?: number;
  onError?(error: unknown, job: ClaimedJob | null): void;
  /** The lease ran out and another process may have taken this job over: its work may now be doubled. */
  onLeaseLost?(job: ClaimedJob): void;
  /** A job launched here has run and its outcome is recorded (or could not be). */
  onSettled?(job: ClaimedJob): void;
}

/** An owner name unique to this process: readable in the table (host, pid), never reused. */
export function jobOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export class LeaseRunner {
  private readonly running = new Map<string, Promise<void>>();
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private stopped = true;
  private claiming: Promise<void> | null = null;
  /** A wake() came while claiming: claim once more before sleeping. */
  private again = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: LeaseRunnerOptions) {
    this.concurrency = Math.max(1, options.concurrency ?? 1);
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.pollMs = options.pollMs ?? 1_000;
  }

  get runningCount(): number {
    return this.running.size;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.wake();
  }

  /** Looks for jobs now (this process just offered one) rather than at the next poll. */
  wake(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.claiming = this.claim().finally(() => {
      this.claiming = null;
      if (this.stopped) return;
      this.timer = setTimeout(() => this.wake(), this.pollMs);
      this.timer.unref();
    });
  }

  /** Claims no more; jobs running here finish and record their outcome. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.claiming;
    await Promise.all(this.running.values());
  }

  private async claim(): Promise<void> {
    const { leases, owner, kinds } = this.options;
    try {
      do {
        this.again = false;
        while (!this.stopped && this.running.size < this.concurrency) {
          const job = await leases.claimNext(owner, kinds, this.leaseMs);
          if (!job) break;
          // Stopped while the claim was in flight: give it back rather than start it.
          if (this.stopped) await leases.release(owner, job);
          else this.launch(job);
        }
      } while (this.again && !this.stopped);
    } catch (error) {
      // The database is out of reach: the next poll tries again.
      this.options.onError?.(error, null);
    }
  }

  private launch(job: ClaimedJob): void {
    const key = `${job.kind}:${job.id}`;
    const done = this.runLeased(job).finally(() => {
      this.running.delete(key);
      this.options.onSettled?.(job);
      this.wake();
    });
    this.running.set(key, done);
  }

  private runLeased(job: ClaimedJob): Promise<void> {
    const { leases, owner, run, onError, onLeaseLost } = this.options;
    return runUnderLease(job, {
      leases,
      owner,
      leaseMs: this.leaseMs,
      run,
      ...(onError ? { onError } : {}),
      ...(onLeaseLost ? { onLeaseLost } : {}),
    });
  }
}

/**
 * Runs a job this process holds the lease of: renews it every third of its length while it runs,
 * then records the outcome (failed, handed over, or done). The one lease discipline of the team
 * runner and of a command-line process running its own jobs (held-queue.ts).
 */
export async function runUnderLease(
  job: ClaimedJob,
  options: Pick<LeaseRunnerOptions, 'leases' | 'owner' | 'run' | 'onError' | 'onLeaseLost'> & {
    leaseMs: number;
  },
): Promise<void> {
  const { leases, owner, leaseMs, onError } = options;
  const heartbeat = setInterval(() => {
    leases.heartbeat(owner, job, leaseMs).then(
      (held) => {
        if (held) return;
        clearInterval(heartbeat);
        options.onLeaseLost?.(job);
      },
      (error: unknown) => onError?.(error, job),
    );
  }, leaseMs / 3);
  let failure: { error: unknown } | null = null;
  let end: JobEnd = undefined;
  try {
    end = await options.run(job);
  } catch (error) {
    failure = { error };
    onError?.(error, job);
  } finally {
    clearInterval(heartbeat);
  }
  try {
    if (failure) await leases.fail(owner, job, describe(failure.error));
    else if (end === HAND_OVER) await leases.release(owner, job);
    else await leases.complete(owner, job);
  } catch (error) {
    // Unrecorded, the lease runs out and another process runs the job again: the safe side.
    onError?.(error, job);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
