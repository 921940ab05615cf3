// The sync worker: Graph API paging, parsing and the store's upserts of every account's sync run here,
// through the worker's own read-write connection (WAL), so a long sync never stalls the host's thread.
// Several accounts sync at once, interleaved on their requests; the host keeps the run's bookkeeping.
import { serveJobs, workerStore } from '../jobs/worker-side';
import { GraphClient } from '../platform/graph-client';
import { pacerFor } from '../platform/pacing';
import { sqliteSql } from '../store/sql';
import { runSync, type SyncStats } from './engine';
import { progressTracker, recordProgress } from './runs';
import { toSyncFault, type SyncFault, type SyncJobProgress, type SyncJobRequest } from './sync-job';

serveJobs<SyncJobRequest, SyncStats, SyncJobProgress, SyncFault>({
  run: (job, control) => {
    const sql = sqliteSql(workerStore(job.dataDir, 'readwrite').db);
    const track = progressTracker((phase, percent) => recordProgress(sql, job.syncRunId, phase, percent));
    const client = new GraphClient({
      baseUrl: job.endpoint.url,
      apiVersion: job.endpoint.apiVersion,
      token: job.token,
      ...job.client,
      signal: control.signal,
      // Every sync of this account on this thread shares its pacing (usage headers, throttles).
      pacer: pacerFor(job.endpoint.url, job.account.platformAccountId, () => Date.now() + job.clockOffsetMs),
    });
    return runSync({
      sql,
      client,
      account: job.account,
      kind: job.kind,
      now: () => new Date(Date.now() + job.clockOffsetMs),
      updatedSince: job.updatedSince,
      onProgress: async (phase, percent) => {
        const moved = await track(phase, percent);
        if (moved) control.progress(moved);
      },
      isStopped: control.isCancelled,
    });
  },
  encodeError: toSyncFault,
});
