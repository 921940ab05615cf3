// A service's job runner on a team server: `enqueue` offers the job in `job_leases` and any serve
// process may claim it (this one is woken at once; the others find it at their next poll). Each job
// runs exactly once however many processes offer it (every process's resume() offers what it finds
// unfinished); a job whose process died is taken over when its lease runs out.
import type { Jobs, JobsOptions } from './jobs';
import { LeaseRunner } from './lease-runner';
import type { JobKind, JobLeases } from './leases';

export interface TeamJobQueueOptions extends JobsOptions {
  kind: JobKind;
  leases: JobLeases;
  /** This process's owner name (jobOwner()). */
  owner: string;
  leaseMs?: number;
  pollMs?: number;
}

export class TeamJobQueue implements Jobs {
  private readonly runner: LeaseRunner;
  /** Offers in flight from this process. */
  private readonly offering = new Set<string>();
  private readonly running = new Set<string>();
  readonly shared = true;
  readonly handsOver = true;
  private stopped = true;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly options: TeamJobQueueOptions) {
    this.runner = new LeaseRunner({
      leases: options.leases,
      owner: options.owner,
      kinds: [options.kind],
      concurrency: options.concurrency ?? 1,
      ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
      ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
      run: async (job) => {
        this.running.add(job.id);
        try {
          return await options.run(job.id);
        } catch (error) {
          options.onError?.(job.id, error);
          throw error;
        }
      },
      // Idle only once the outcome is in job_leases: whoever waits then reads it there.
      onSettled: (job) => {
        this.running.delete(job.id);
        this.notifyIfIdle();
      },
      onError: (error, job) => {
        // A job's own failure was reported above; here only the database being out of reach.
        if (!job) options.onError?.('(claim)', error);
      },
    });
  }

  enqueue(id: string, options: { exclusiveKey?: string } = {}): boolean {
    if (this.stopped || this.has(id)) return false;
    this.offering.add(id);
    const exclusive = options.exclusiveKey === undefined ? {} : { exclusiveKey: options.exclusiveKey };
    this.options.leases
      .offer({ kind: this.options.kind, id }, exclusive)
      .then(
        () => this.runner.wake(),
        (error: unknown) => this.options.onError?.(id, error),
      )
      .finally(() => {
        this.offering.delete(id);
        this.notifyIfIdle();
      });
    return true;
  }

  get queued(): number {
    return this.offering.size;
  }

  get runningCount(): number {
    return this.running.size;
  }

  get active(): string | null {
    return this.running.values().next().value ?? null;
  }

  has(id: string): boolean {
    return this.offering.has(id) || this.running.has(id);
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  start(): void {
    this.stopped = false;
    this.runner.start();
  }

  whenIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.runner.stop();
    await this.whenIdle();
  }

  private isIdle(): boolean {
    return this.offering.size === 0 && this.running.size === 0;
  }

  private notifyIfIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
