// The host side of a long-lived worker thread that runs one kind of heavy job (PDF rendering, a
// diagnosis, a sync) off the thread that serves /v1 and the window. Started on first use; jobs are
// messages answered by job ID, with progress on the way and a cancel signal; a worker that dies fails
// its jobs with a reason and the next job starts a fresh one.
import { Worker } from 'node:worker_threads';
import type { FromWorker, ToWorker } from './worker-side';

/**
 * Starts a worker from its entry, given as a URL without extension beside the caller's module: from
 * source (tsx, vitest) the `.ts` file through worker-boot.mjs; from a build, where each worker is an
 * entry of its own beside the main bundle, the `.js` file. `data` reaches it as `workerData.data`.
 */
export function spawnWorker(entry: URL, data?: unknown): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const file = new URL(`${entry.href}.${fromSource ? 'ts' : 'js'}`);
  // Not the parent's flags: test runners and `--import tsx` would load a second, conflicting loader.
  return fromSource
    ? new Worker(new URL('./worker-boot.mjs', import.meta.url), {
        workerData: { entry: file.href, data },
        execArgv: [],
      })
    : new Worker(file, { workerData: { data }, execArgv: [] });
}

export interface JobThreadOptions<E> {
  /**
   * The worker's entry as a URL without extension, relative to the caller's module: from source
   * (tsx, vitest) the `.ts` file is started through worker-boot.mjs; from a build, where each worker is
   * an entry of its own beside the main bundle, the `.js` file.
   */
  entry: URL;
  /** Turns the worker's error value back into the error the caller expects. */
  decodeError(error: E): Error;
  /** A job not done after this long fails, and the worker is replaced (default: no limit). */
  jobTimeoutMs?: number;
  /** What the job is, for messages ("report render", "diagnosis"). */
  label: string;
  /**
   * A worker with no job for this long is stopped, and the next job starts a fresh one (default: kept).
   * A worker holds its own module graph, heap and store connection (about 100 MB from source), which
   * occasional jobs should not keep all day; a worker that keeps state between jobs (the sync
   * worker's per-account pacing, which remembers Meta's throttles) must not set it.
   */
  idleStopMs?: number;
}

/** The idle time after which the diagnosis and report workers stop. */
export const IDLE_STOP_MS = 30_000;

interface Pending<R, P> {
  resolve: (result: R) => void;
  reject: (error: Error) => void;
  onProgress: ((progress: P) => void) | undefined;
}

export interface RunningJob<R> {
  result: Promise<R>;
  /** Asks the worker to stop the job at its next checkpoint; `result` then settles as the job decides. */
  cancel(): void;
}

export class JobThread<Req, Res, Prog = never, E = unknown> {
  private worker: Worker | null = null;
  private ready: Promise<Worker> | null = null;
  private readonly pending = new Map<number, Pending<Res, Prog>>();
  private nextJobId = 1;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: JobThreadOptions<E>) {}

  /** Runs one job on the worker; several may run at once (the worker decides how they share it). */
  start(request: Req, onProgress?: (progress: Prog) => void): RunningJob<Res> {
    const jobId = this.nextJobId++;
    clearTimeout(this.idleTimer);
    let worker: Worker | null = null;
    let cancelled = false;
    const result = this.launch().then(
      (started) =>
        new Promise<Res>((resolve, reject) => {
          worker = started;
          const timeoutMs = this.options.jobTimeoutMs;
          // A stuck job must not hold its callers forever: fail it and start afresh with a new worker.
          const timer =
            timeoutMs === undefined
              ? undefined
              : setTimeout(() => {
                  this.fail(
                    new Error(`${this.options.label} took longer than ${Math.round(timeoutMs / 1000)} s`),
                  );
                  void started.terminate();
                }, timeoutMs);
          timer?.unref();
          this.pending.set(jobId, {
            resolve: (value) => {
              clearTimeout(timer);
              resolve(value);
            },
            reject: (error) => {
              clearTimeout(timer);
              reject(error);
            },
            onProgress,
          });
          started.ref();
          started.postMessage({ type: 'run', jobId, request } satisfies ToWorker<Req>);
          if (cancelled) started.postMessage({ type: 'cancel', jobId } satisfies ToWorker<Req>);
        }),
    );
    return {
      result,
      cancel: () => {
        cancelled = true;
        worker?.postMessage({ type: 'cancel', jobId } satisfies ToWorker<Req>);
      },
    };
  }

  run(request: Req, onProgress?: (progress: Prog) => void): Promise<Res> {
    return this.start(request, onProgress).result;
  }

  /** Starts the worker now (at app start, before a benchmark) instead of on the first job. */
  async warmUp(): Promise<void> {
    await this.launch();
  }

  private launch(): Promise<Worker> {
    if (this.ready) return this.ready;
    const ready = new Promise<Worker>((resolve, reject) => {
      const worker = spawnWorker(this.options.entry);
      let started = false;
      worker.on('message', (message: FromWorker<Res, Prog, E>) => {
        if (message.type === 'ready') {
          started = true;
          worker.unref();
          this.worker = worker;
          resolve(worker);
          return;
        }
        const pending = this.pending.get(message.jobId);
        if (!pending) return;
        if (message.type === 'progress') {
          pending.onProgress?.(message.progress);
          return;
        }
        this.pending.delete(message.jobId);
        // An idle worker does not keep the process alive, and stops after a while.
        if (this.pending.size === 0) {
          worker.unref();
          this.stopWhenIdle(worker);
        }
        if (message.ok) pending.resolve(message.result);
        else pending.reject(this.options.decodeError(message.error));
      });
      worker.on('error', (error) => {
        if (!started) reject(error);
        this.fail(new Error(`${this.options.label} worker failed: ${error.message}`), worker);
      });
      worker.on('exit', (code) => {
        if (!started)
          reject(new Error(`${this.options.label} worker exited with code ${code} before it was ready`));
        this.fail(new Error(`${this.options.label} worker exited (code ${code})`), worker);
      });
    });
    this.ready = ready;
    // A worker that cannot start is not remembered: the next job tries again.
    ready.catch(() => {
      if (this.ready === ready) this.ready = null;
    });
    return ready;
  }

  private stopWhenIdle(worker: Worker): void {
    const idleStopMs = this.options.idleStopMs;
    if (idleStopMs === undefined) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.pending.size === 0 && this.worker === worker) void this.close();
    }, idleStopMs);
    this.idleTimer.unref();
  }

  /** True while a worker is started (or starting). */
  get started(): boolean {
    return this.ready !== null;
  }

  /** A dead worker fails its jobs with a reason; the next job starts a fresh one. */
  private fail(error: Error, which?: Worker): void {
    // A worker already replaced or stopped (idle, timed out) speaks for no job any more.
    if (which && which !== this.worker) return;
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
    this.worker = null;
    this.ready = null;
  }

  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    if (worker) await worker.terminate();
  }
}
