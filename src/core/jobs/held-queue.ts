// The job runner of a command-line process on a team server's database (`--database-url`): the jobs
// it starts run here, while it waits for them, as on a solo install (JobQueue), but each under a lease
// it holds from the start (`JobLeases.hold`). No serve process claims them while the command renews
// the lease; if the command dies (Ctrl-C twice, kill -9, a lost laptop), the lease runs out and a
// serve process takes the job over, as it would a serve process's (a sync continues as the same run).
import { DEFAULT_LEASE_MS, type JobKind, type JobLeases } from './leases';
import type { Jobs, JobsOptions } from './jobs';
import { runUnderLease } from './lease-runner';
import { JobQueue } from './queue';

export interface HeldJobQueueOptions extends JobsOptions {
  kind: JobKind;
  leases: JobLeases;
  /** This process's owner name (jobOwner()). */
  owner: string;
  leaseMs?: number;
}

export class HeldJobQueue implements Jobs {
  private readonly queue: JobQueue;
  /** The exclusive key each queued job was given (a sync's ad account), until it runs. */
  private readonly keys = new Map<string, string | undefined>();
  readonly shared = true;
  /** A command's jobs end here: there is no runner of its own to hand them to. */
  readonly handsOver = false;

  constructor(private readonly options: HeldJobQueueOptions) {
    this.queue = new JobQueue({
      shared: true,
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      ...(options.onError ? { onError: options.onError } : {}),
      run: (id) => this.runHeld(id),
    });
  }

  enqueue(id: string, options: { exclusiveKey?: string } = {}): boolean {
    if (!this.queue.enqueue(id)) return false;
    this.keys.set(id, options.exclusiveKey);
    return true;
  }

  private async runHeld(id: string): Promise<void> {
    const { kind, leases, owner, run, onError } = this.options;
    const exclusiveKey = this.keys.get(id);
    this.keys.delete(id);
    const leaseMs = this.options.leaseMs ?? DEFAULT_LEASE_MS;
    const job = await leases.hold(
      owner,
      { kind, id },
      exclusiveKey === undefined ? {} : { exclusiveKey },
      leaseMs,
    );
    // Another process has it (it asked first, or took it over): its outcome arrives as its events.
    if (!job) return;
    // A failure is recorded on the lease and reported to onError there, once.
    await runUnderLease(job, {
      leases,
      owner,
      leaseMs,
      run: () => Promise.resolve(run(id)),
      ...(onError ? { onError: (error: unknown) => onError(id, error) } : {}),
    });
  }

  get queued(): number {
    return this.queue.queued;
  }

  get runningCount(): number {
    return this.queue.runningCount;
  }

  get active(): string | null {
    return this.queue.active;
  }

  has(id: string): boolean {
    return this.queue.has(id);
  }

  get isStopped(): boolean {
    return this.queue.isStopped;
  }

  start(): void {
    this.queue.start();
  }

  whenIdle(): Promise<void> {
    return this.queue.whenIdle();
  }

  stop(): Promise<void> {
    return this.queue.stop();
  }
}
