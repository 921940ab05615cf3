// The worker side of a JobThread: takes jobs by ID, runs them (several may interleave on their awaits),
// reports progress, honours cancel requests at the job's checkpoints, and answers with a result or an
// error value (an Error cannot cross threads with its class).
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { openStore, type Store } from '../store/open';

export type ToWorker<Req> = { type: 'run'; jobId: number; request: Req } | { type: 'cancel'; jobId: number };

export type FromWorker<Res, Prog, E> =
  | { type: 'ready' }
  | { type: 'progress'; jobId: number; progress: Prog }
  | { type: 'done'; jobId: number; ok: true; result: Res }
  | { type: 'done'; jobId: number; ok: false; error: E };

export interface JobControl<Prog> {
  progress(progress: Prog): void;
  /** True once the host asked this job to stop. */
  isCancelled(): boolean;
  /** Aborted when the host asks this job to stop (for waits and requests in flight). */
  signal: AbortSignal;
}

export interface ServeJobsOptions<Req, Res, Prog, E> {
  run(request: Req, control: JobControl<Prog>): Res | Promise<Res>;
  encodeError(error: unknown): E;
  /** Run this thread below the host's priority (Linux), so the thread serving /v1 wins the CPU. */
  lowPriority?: boolean;
}

/**
 * On Linux a thread has its own nice value: lowering this one lets the thread that serves /v1 win the
 * CPU whenever both want it, so API latency holds while a job runs. Elsewhere this is a no-op.
 */
function lowerThreadPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 8);
  } catch {
    // No /proc (macOS, Windows) or not permitted: run at normal priority.
  }
}

export function serveJobs<Req, Res, Prog, E>(options: ServeJobsOptions<Req, Res, Prog, E>): void {
  const port = parentPort;
  if (!port) return;
  if (options.lowPriority) lowerThreadPriority();
  const cancels = new Map<number, AbortController>();
  const post = (message: FromWorker<Res, Prog, E>) => port.postMessage(message);
  port.on('message', (message: ToWorker<Req>) => {
    if (message.type === 'cancel') {
      cancels.get(message.jobId)?.abort();
      return;
    }
    const { jobId, request } = message;
    const cancel = new AbortController();
    cancels.set(jobId, cancel);
    const control: JobControl<Prog> = {
      progress: (progress) => post({ type: 'progress', jobId, progress }),
      isCancelled: () => cancel.signal.aborted,
      signal: cancel.signal,
    };
    void (async () => {
      try {
        post({ type: 'done', jobId, ok: true, result: await options.run(request, control) });
      } catch (error) {
        post({ type: 'done', jobId, ok: false, error: options.encodeError(error) });
      } finally {
        cancels.delete(jobId);
      }
    })();
  });
  post({ type: 'ready' });
}

const stores = new Map<string, Store>();

/**
 * The worker's own connection to a data directory's store, opened once (the host has already migrated
 * and checked it). Read-only for jobs that only read; a sync writes through its own connection (WAL).
 */
export function workerStore(dataDir: string, mode: 'readonly' | 'readwrite'): Store {
  const key = `${mode}:${dataDir}`;
  let store = stores.get(key);
  if (!store || !store.db.open) {
    store = openStore(dataDir, { readonly: mode === 'readonly', checkedByHost: true });
    stores.set(key, store);
  }
  return store;
}
