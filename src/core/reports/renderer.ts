// Where reports are rendered: PDFs in one long-lived worker thread (started on first use, so serving
// /v1 never waits on layout), JSON and Markdown inline (a few milliseconds). Falls back to inline
// rendering when no worker can be started (e.g. a bundle without the worker file), with a warning.
import { Worker } from 'node:worker_threads';
import type { Logger } from '../core';
import type { Db } from '../store/open';
import { fromJobError, generateReport, type GenerateJob, type GenerateResult } from './render';
import type { WorkerRequest, WorkerResponse } from './render-worker';

export interface ReportRendererOptions {
  /** false = render PDFs on the calling thread too (hosts that cannot start the worker). */
  useWorker?: boolean;
  /** A PDF not done after this long fails, and the worker is replaced (default 2 minutes). */
  jobTimeoutMs?: number;
  logger: Logger;
}

interface Pending {
  resolve: (result: GenerateResult) => void;
  reject: (error: Error) => void;
}

export class ReportRenderer {
  private worker: Worker | null = null;
  private ready: Promise<Worker> | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextJobId = 1;
  private useWorker: boolean;

  constructor(
    private readonly db: Db,
    private readonly options: ReportRendererOptions,
  ) {
    this.useWorker = options.useWorker ?? true;
  }

  async generate(job: GenerateJob): Promise<GenerateResult> {
    if (job.format !== 'pdf' || !this.useWorker) return generateReport(this.db, job);
    let worker: Worker;
    try {
      worker = await this.start();
    } catch (error) {
      this.options.logger.warn('report render worker unavailable; rendering PDFs inline', {
        error: (error as Error).message,
      });
      this.useWorker = false;
      return generateReport(this.db, job);
    }
    const jobId = this.nextJobId++;
    const timeoutMs = this.options.jobTimeoutMs ?? 120_000;
    return new Promise<GenerateResult>((resolve, reject) => {
      // A stuck render must not hold the queue forever: fail it and start afresh with a new worker.
      const timer = setTimeout(() => {
        this.fail(new Error(`report rendering took longer than ${Math.round(timeoutMs / 1000)} s`));
        void worker.terminate();
      }, timeoutMs);
      timer.unref();
      this.pending.set(jobId, {
        resolve: (result) => {
          clearTimeout(timer);
          resolve(result);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      worker.ref();
      worker.postMessage({ jobId, job } satisfies WorkerRequest);
    });
  }

  /** Starts the worker now (e.g. at app start or before a benchmark) instead of on the first PDF. */
  warmUp(): Promise<void> {
    if (!this.useWorker) return Promise.resolve();
    return this.start().then(() => undefined);
  }

  private start(): Promise<Worker> {
    if (this.ready) return this.ready;
    this.ready = new Promise<Worker>((resolve, reject) => {
      // From source (tsx, vitest) the worker registers tsx first; from a build (out/main, where
      // render-worker.js is an entry of its own) it starts the compiled file directly.
      const fromSource = import.meta.url.endsWith('.ts');
      const entry = new URL(`./render-worker.${fromSource ? 'ts' : 'js'}`, import.meta.url);
      const worker = fromSource
        ? new Worker(new URL('./worker-boot.mjs', import.meta.url), {
            workerData: { entry: entry.href },
            // Not the parent's flags: test runners and `--import tsx` would load a second, conflicting loader.
            execArgv: [],
          })
        : new Worker(entry, { execArgv: [] });
      let started = false;
      worker.on('message', (message: WorkerResponse | { ready: true }) => {
        if ('ready' in message) {
          started = true;
          worker.unref();
          this.worker = worker;
          resolve(worker);
          return;
        }
        const pending = this.pending.get(message.jobId);
        if (!pending) return;
        this.pending.delete(message.jobId);
        if (this.pending.size === 0) worker.unref();
        if (message.ok) pending.resolve(message.result);
        else pending.reject(fromJobError(message.error));
      });
      worker.on('error', (error) => {
        if (!started) reject(error);
        this.fail(new Error(`report render worker failed: ${error.message}`));
      });
      worker.on('exit', (code) => {
        if (!started) reject(new Error(`report render worker exited with code ${code} before it was ready`));
        this.fail(new Error(`report render worker exited (code ${code})`));
      });
    });
    return this.ready;
  }

  /** A dead worker fails its jobs with a reason; the next PDF starts a fresh one. */
  private fail(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
    this.worker = null;
    this.ready = null;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    if (worker) await worker.terminate();
  }
}
