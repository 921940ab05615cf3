// Where reports are rendered: PDFs in one long-lived worker thread (started on first use, so serving
// /v1 never waits on layout), JSON and Markdown inline (a few milliseconds). Falls back to inline
// rendering when no worker can be started (e.g. a bundle without the worker file), with a warning.
import type { Logger } from '../core';
import { JobThread } from '../jobs/thread';
import type { Db } from '../store/open';
import type { Sql } from '../store/sql';
import { fromJobError, generateReport, type GenerateJob, type GenerateResult, type JobError } from './render';

export interface ReportRendererOptions {
  /** false = render PDFs on the calling thread too (hosts that cannot start the worker). */
  useWorker?: boolean;
  /** A PDF not done after this long fails, and the worker is replaced (default 2 minutes). */
  jobTimeoutMs?: number;
  logger: Logger;
}

export class ReportRenderer {
  private readonly thread: JobThread<GenerateJob, GenerateResult, never, JobError>;
  private useWorker: boolean;

  constructor(
    private readonly db: Db,
    private readonly sql: Sql,
    private readonly options: ReportRendererOptions,
  ) {
    this.useWorker = options.useWorker ?? true;
    this.thread = new JobThread({
      entry: new URL('./render-worker', import.meta.url),
      decodeError: fromJobError,
      jobTimeoutMs: options.jobTimeoutMs ?? 120_000,
      label: 'report rendering',
    });
  }

  async generate(job: GenerateJob): Promise<GenerateResult> {
    if (job.format !== 'pdf' || !this.useWorker) return generateReport(this.db, this.sql, job);
    try {
      await this.thread.warmUp();
    } catch (error) {
      this.options.logger.warn('report render worker unavailable; rendering PDFs inline', {
        error: (error as Error).message,
      });
      this.useWorker = false;
      return generateReport(this.db, this.sql, job);
    }
    return this.thread.run(job);
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
