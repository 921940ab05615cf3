// The render worker: builds and renders reports off the thread that serves /v1. It reads the store
// through its own read-only connection (behind the store boundary) and writes the finished file itself; only a summary comes back.
import { serveJobs, workerStore } from '../jobs/worker-side';
import { sqliteSql } from '../store/sql';
import { dataDirReportFiles } from './files';
import {
  generateReport,
  toJobError,
  type GenerateResult,
  type JobError,
  type WorkerGenerateJob,
} from './render';

// React's production build: the development one validates every element, a measurable cost per PDF.
// (A worker has its own copy of the environment, so the host's setting is untouched.)
process.env.NODE_ENV ??= 'production';

serveJobs<WorkerGenerateJob, GenerateResult, never, JobError>({
  run: (job) => {
    const { db } = workerStore(job.dataDir, 'readonly');
    return generateReport(sqliteSql(db), dataDirReportFiles(job.dataDir), job);
  },
  encodeError: toJobError,
  lowPriority: true,
});
