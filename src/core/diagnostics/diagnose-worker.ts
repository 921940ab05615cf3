// The diagnosis worker: loads campaign snapshots through its own read-only connection and runs the
// engine, so an account-level diagnostic of hundreds of campaigns never stalls the host's thread.
import { serveJobs, workerStore } from '../jobs/worker-side';
import { computeDiagnosis, toDiagnosisFault, type DiagnosisFault, type DiagnosisJob } from './compute';
import type { DiagnosisContent } from './engine';

serveJobs<DiagnosisJob, DiagnosisContent, never, DiagnosisFault>({
  run: (job) => computeDiagnosis(workerStore(job.dataDir, 'readonly').db, job),
  encodeError: toDiagnosisFault,
  lowPriority: true,
});
