// Admission control for the /v1 server: under overload, answer at once with the error envelope and a
// retry hint instead of letting connections queue for seconds.
//
// Handlers run on one thread, mostly synchronously, so a burst of requests would otherwise be
// worked through back to back while every later client waits. Instead each request joins a FIFO
// queue and runs from it one macrotask at a time, so requests arriving meanwhile are seen at once:
// when the queue already holds more work than `maxQueueWaitMs` (its length × the measured average
// handler time), the newcomer is refused immediately, which costs microseconds. A request that
// nevertheless waited too long is refused when its turn comes. Handlers that wait on I/O release
// the line (up to `maxInFlight` at once), so a slow download does not hold up the reads.

export interface AdmissionOptions {
  /** Handlers started and not finished at once (those awaiting I/O keep their slot). */
  maxInFlight?: number;
  /** Longest expected wait in the queue before a newcomer is refused. */
  maxQueueWaitMs?: number;
  /** Hard cap on waiting requests. */
  maxQueue?: number;
  /**
   * Nobody is refused while fewer than this many wait: a screen's burst of parallel calls, or the
   * requests that piled up behind one long job, is not overload.
   */
  minQueueToRefuse?: number;
}

export type Admitted = { ok: true; release(): void } | { ok: false; retryAfterSeconds: number };

interface Waiting {
  at: number;
  resolve(admitted: Admitted): void;
}

export class Admission {
  private inFlight = 0;
  private readonly queue: Waiting[] = [];
  private scheduled = false;
  /** Exponentially weighted average of a handler's run time, in ms. */
  private averageMs = 1;
  private readonly maxInFlight: number;
  private readonly maxQueueWaitMs: number;
  private readonly maxQueue: number;
  private readonly minQueueToRefuse: number;

  constructor(options: AdmissionOptions = {}) {
    this.maxInFlight = options.maxInFlight ?? 16;
    this.maxQueueWaitMs = options.maxQueueWaitMs ?? 30;
    this.maxQueue = options.maxQueue ?? 512;
    this.minQueueToRefuse = options.minQueueToRefuse ?? 8;
  }

  /** Resolves when the request may run (then `release()` when it is done), or with a refusal. */
  admit(): Promise<Admitted> {
    const expectedWaitMs = (this.queue.length + 1) * this.averageMs;
    const overloaded = this.queue.length >= this.minQueueToRefuse && expectedWaitMs > this.maxQueueWaitMs;
    if (this.queue.length >= this.maxQueue || overloaded) {
      return Promise.resolve({ ok: false, retryAfterSeconds: 1 });
    }
    return new Promise((resolve) => {
      this.queue.push({ at: performance.now(), resolve });
      this.schedule();
    });
  }

  /** Requests waiting now (for tests and diagnostics). */
  get waiting(): number {
    return this.queue.length;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // A macrotask: sockets that became readable meanwhile are read (and queued or refused) first.
    setImmediate(() => {
      this.scheduled = false;
      this.runNext();
    });
  }

  private runNext(): void {
    while (this.queue.length > 0 && this.inFlight < this.maxInFlight) {
      const next = this.queue.shift() as Waiting;
      const waited = performance.now() - next.at;
      if (this.queue.length >= this.minQueueToRefuse && waited > this.maxQueueWaitMs * 2.5) {
        next.resolve({ ok: false, retryAfterSeconds: 1 });
        continue;
      }
      this.inFlight += 1;
      const started = performance.now();
      let released = false;
      next.resolve({
        ok: true,
        release: () => {
          if (released) return;
          released = true;
          this.inFlight -= 1;
          this.averageMs = this.averageMs * 0.9 + (performance.now() - started) * 0.1;
          if (this.queue.length > 0) this.schedule();
        },
      });
      // One request per macrotask: let it run (its continuation is a microtask) before the next.
      if (this.queue.length > 0) this.schedule();
      return;
    }
  }
}
