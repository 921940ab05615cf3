// The background-work port every service queues its jobs on (diagnostics, reports, syncs). A job is
// the ID of a row its service persisted first. Solo: `JobQueue`, in this process. Team server:
// `TeamJobQueue`, claimed exactly once across every serve process through row leases.
import type { JobKind } from './leases';

export interface Jobs {
  /**
   * True on a team server's database, which other processes (on other machines) work on too: work a
   * process left behind is told by leases, never guessed from process IDs, and a job queued here may
   * run in another process (its lease taken over when the process that claimed it dies).
   */
  readonly shared: boolean;
  /**
   * True when a job this process stops unfinished goes back to the others (leased jobs: a serve
   * process of a team server); a run answering HAND_OVER then leaves its row for them to go on with.
   */
  readonly handsOver: boolean;
  /**
   * Queues a job; false when stopping, or when this process already has it queued or running.
   * Jobs sharing an `exclusiveKey` (a sync's ad account) never run at once.
   */
  enqueue(id: string, options?: { exclusiveKey?: string }): boolean;
  /** Jobs waiting here, not counting the running ones. */
  readonly queued: number;
  readonly runningCount: number;
  /** The first job running here, if any. */
  readonly active: string | null;
  has(id: string): boolean;
  readonly isStopped: boolean;
  /** Accepts work again after stop() (a service's resume()). */
  start(): void;
  /** Resolves when nothing this process queued or claimed is waiting or running. */
  whenIdle(): Promise<void>;
  /** No new jobs; waiting ones stay in the store for the next start; running ones finish. */
  stop(): Promise<void>;
}

/**
 * What a job's run answers when it stopped unfinished because this process is stopping and another
 * process may go on with it: a team runner gives its lease back at once instead of recording it done
 * (a solo queue has no one to give it to; the job stays in the store for the next start).
 */
export const HAND_OVER = 'hand-over';
export type JobEnd = void | typeof HAND_OVER;

export interface JobsOptions {
  /** Runs one job; a thrown error is reported to `onError` and the runner goes on. */
  run(id: string): JobEnd | Promise<JobEnd>;
  onError?(id: string, error: unknown): void;
  /** Jobs running at once in this process (default 1). */
  concurrency?: number;
}

/** Makes a service's runner: the host chooses the solo or the team one. */
export type JobsFactory = (kind: JobKind, options: JobsOptions) => Jobs;
