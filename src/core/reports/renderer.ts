// Where reports are rendered: PDFs in one long-lived worker thread (started on first use, so serving
// /v1 never waits on layout), JSON and Markdown inline (a few milliseconds). Falls back to inline
// rendering when no worker can be started (e.g. a bundle without the worker file), with a warning.
// The worker opens the data directory itself, so a store without one (a team server) renders inline.
import type { Logger } from '../core';
import { IDLE_STOP_MS, JobThread } from '../jobs/thread';
import type { Sql } from '../store/sql';
import type { ReportFiles } from './files';
import {
  fromJobError,
  generateReport,
  type GenerateJob,
  type GenerateResult,
  type JobError,
  type WorkerGenerateJob,
} from './render';

export interface ReportRendererOptions {
  /** The data directory the worker opens; null = render everything on the calling thread. */
  dataDir: string | null;
  /** false = render PDFs on the calling thread too (hosts that cannot start the worker). */
  useWorker?: boolean;
  /** A PDF not done after this long fails, and the worker is replaced (default 2 minutes). */
  jobTimeoutMs?: number;
  logger: Logger;
}

export class ReportRenderer {
  private readonly thread: JobThread<WorkerGenerateJob, GenerateResult, never, JobError>;
  private useWorker: boolean;

  constructor(
    private readonly sql: Sql,
    private readonly files: ReportFiles,
    private readonly options: ReportRendererOptions,
  ) {
    this.useWorker = options.dataDir !== null && (options.useWorker ?? true);
    this.thread = new JobThread({
      entry: new URL('./render-worker', import.meta.url),
      decodeError: fromJobError,
      jobTimeoutMs: options.jobTimeoutMs ?? 120_000,
      label: 'report rendering',
      idleStopMs: IDLE_STOP_MS,
    });
  }

  async generate(job: GenerateJob): Promise<GenerateResult> {
    const dataDir = this.options.dataDir;
    if (job.format !== 'pdf' || !this.useWorker || dataDir === null) return this.inline(job);
    try {
      await this.thread.warmUp();
    } catch (error) {
      this.options.logger.warn('report render worker unavailable; rendering PDFs inline', {
        error: (error as Error).message,
      });
      this.useWorker = false;
      return this.inline(job);
    }
    return this.thread.run({ ...job, dataDir });
  }

  private inline(job: GenerateJob): Promise<GenerateResult> {
    return generateReport(this.sql, this.files, job);
  }

  /** Starts the worker now (e.g. at app start or before a benchmark) instead of on the first PDF. */
  warmUp(): Promise<void> {
    if (!this.useWorker) return Promise.resolve();
    return this.thread.warmUp();
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
