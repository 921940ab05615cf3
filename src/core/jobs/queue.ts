// The one job queue of the core's background work (diagnostics, reports, syncs): jobs are IDs of rows
// the service persisted first, so a crash loses nothing (the service's resume() enqueues what was left
// unfinished); up to `concurrency` run at once (one by default), each started as a macrotask so the
// request that queued it is answered first; the same ID is never queued or run twice at once; stop()
// takes no new work, drops what waits (it stays in the store for the next start) and lets running
// jobs finish.
import type { JobEnd, Jobs } from './jobs';

export interface JobQueueOptions {
  /** Runs one job; a thrown error is reported to `onError` and the queue goes on. */
  run(id: string): JobEnd | Promise<JobEnd>;
  onError?(id: string, error: unknown): void;
  /** Jobs running at once (default 1). */
  concurrency?: number;
  /** A command-line process on a team server's database runs its own jobs here: see Jobs.shared. */
  shared?: boolean;
}

export class JobQueue implements Jobs {
  private readonly waiting: string[] = [];
  private readonly running = new Set<string>();
  private readonly concurrency: number;
  readonly shared: boolean;
  /** Nobody to hand a stopped job to: it stays in the store for the next start. */
  readonly handsOver = false;
  private stopped = false;
  /** A pump is scheduled for the next macrotask. */
  private scheduled = false;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly options: JobQueueOptions) {
    this.concurrency = Math.max(1, options.concurrency ?? 1);
    this.shared = options.shared ?? false;
  }

  /** Queues a job; false when stopping or when the job is already queued or running. */
  enqueue(id: string): boolean {
    if (this.stopped || this.running.has(id) || this.waiting.includes(id)) return false;
    this.waiting.push(id);
    this.pump();
    return true;
  }

  /** Jobs waiting, not counting the running ones. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Jobs running now. */
  get runningCount(): number {
    return this.running.size;
  }

  /** The first running job's ID, if any. */
  get active(): string | null {
    return this.running.values().next().value ?? null;
  }

  /** Whether this ID waits or runs. */
  has(id: string): boolean {
    return this.running.has(id) || this.waiting.includes(id);
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Accepts work again after stop() (a service's resume()). */
  start(): void {
    this.stopped = false;
  }

  /** Resolves when nothing is queued or running. */
  whenIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** No new jobs; queued ones are dropped (still in the store); running ones finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.waiting.length = 0;
    await this.whenIdle();
  }

  private isIdle(): boolean {
    return this.running.size === 0 && this.waiting.length === 0 && !this.scheduled;
  }

  private pump(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // A macrotask before a job starts: the caller's response, and other I/O, go first.
    setImmediate(() => {
      this.scheduled = false;
      while (!this.stopped && this.running.size < this.concurrency && this.waiting.length > 0) {
        const id = this.waiting.shift() as string;
        this.running.add(id);
        void this.runOne(id);
      }
      this.notifyIfIdle();
    });
  }

  private async runOne(id: string): Promise<void> {
    try {
      await this.options.run(id);
    } catch (error) {
      this.options.onError?.(id, error);
    } finally {
      this.running.delete(id);
    }
    if (this.waiting.length > 0 && !this.stopped) this.pump();
    else this.notifyIfIdle();
  }

  private notifyIfIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
