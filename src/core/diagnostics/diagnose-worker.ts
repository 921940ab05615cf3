// The diagnosis worker: loads campaign snapshots through its own read-only connection (behind the
// store boundary, as a team server's pool will be), runs the engine and serializes the result, so an
// account-level diagnostic of hundreds of campaigns never stalls the host's thread (the host writes
// the stored JSON as it comes).
import { serveJobs, workerStore } from '../jobs/worker-side';
import { computeDiagnosis, toDiagnosisFault, type DiagnosisFault, type WorkerDiagnosisJob } from './compute';
import { storedDiagnosis, type StoredDiagnosis } from './rows';
import { sqliteSql } from '../store/sql';

serveJobs<WorkerDiagnosisJob, StoredDiagnosis, never, DiagnosisFault>({
  run: async (job) =>
    storedDiagnosis(await computeDiagnosis(sqliteSql(workerStore(job.dataDir, 'readonly').db), job)),
  encodeError: toDiagnosisFault,
  lowPriority: true,
});
