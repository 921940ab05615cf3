// The render worker: builds and renders reports off the thread that serves /v1. It reads the store
// through its own read-only connection and writes the finished file itself; only a summary comes back.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { openStore, type Store } from '../store/open';
import { generateReport, toJobError, type GenerateJob, type GenerateResult, type JobError } from './render';

export interface WorkerRequest {
  jobId: number;
  job: GenerateJob;
}

export type WorkerResponse =
  { jobId: number; ok: true; result: GenerateResult } | { jobId: number; ok: false; error: JobError };

// React's production build: the development one validates every element, a measurable cost per PDF.
// (A worker has its own copy of the environment, so the host's setting is untouched.)
process.env.NODE_ENV ??= 'production';

const stores = new Map<string, Store>();

function storeFor(dataDir: string): Store {
  let store = stores.get(dataDir);
  if (!store || !store.db.open) {
    store = openStore(dataDir, { readonly: true });
    stores.set(dataDir, store);
  }
  return store;
}

/**
 * On Linux a thread has its own nice value: lowering this one lets the thread that serves /v1 win the
 * CPU whenever both want it, so API latency holds while a PDF renders. Elsewhere this is a no-op.
 */
function yieldToApiThread(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 8);
  } catch {
    // No /proc (macOS, Windows) or not permitted: run at normal priority.
  }
}

const port = parentPort;
if (port) {
  yieldToApiThread();
  port.on('message', (message: WorkerRequest) => {
    void (async () => {
      let response: WorkerResponse;
      try {
        const result = await generateReport(storeFor(message.job.dataDir).db, message.job);
        response = { jobId: message.jobId, ok: true, result };
      } catch (error) {
        response = { jobId: message.jobId, ok: false, error: toJobError(error) };
      }
      port.postMessage(response);
    })();
  });
  port.postMessage({ ready: true });
}
