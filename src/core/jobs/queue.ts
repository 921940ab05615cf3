// The one job queue of the core's background work (diagnostics, reports): jobs are IDs of rows the
// service persisted first, so a crash loses nothing (the service's resume() enqueues what was left
// pending); one runs at a time, each started as a macrotask so the request that queued it is
// answered first; the same ID is never queued twice; stop() takes no new work, drops what waits (it
// stays pending in the store for the next start) and lets the running job finish.
export interface JobQueueOptions {
  /** Runs one job; a thrown error is reported to `onError` and the queue goes on. */
  run(id: string): void | Promise<void>;
  onError?(id: string, error: unknown): void;
}

export class JobQueue {
  private readonly waiting: string[] = [];
  private current: string | null = null;
  private draining: Promise<void> | null = null;
  private stopped = false;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly options: JobQueueOptions) {}

  /** Queues a job; false when stopping or when the job is already queued or running. */
  enqueue(id: string): boolean {
    if (this.stopped || this.current === id || this.waiting.includes(id)) return false;
    this.waiting.push(id);
    this.draining ??= this.drain();
    return true;
  }

  /** Jobs waiting, not counting the running one. */
  get queued(): number {
    return this.waiting.length;
  }

  /** The running job's ID, if any. */
  get active(): string | null {
    return this.current;
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
    if (!this.draining) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** No new jobs; queued ones are dropped (still pending in the store); the running one finishes. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.waiting.length = 0;
    await this.whenIdle();
  }

  private async drain(): Promise<void> {
    for (;;) {
      // A macrotask between jobs: the caller's response, and other I/O, go first.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const id = this.waiting.shift();
      if (id === undefined || this.stopped) break;
      this.current = id;
      try {
        await this.options.run(id);
      } catch (error) {
        this.options.onError?.(id, error);
      } finally {
        this.current = null;
      }
    }
    this.draining = null;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
