// Keeps connected ad accounts synced: runs are persisted, queued on the one job queue and executed
// inline or on the sync worker thread; the service keeps their bookkeeping, events and errors.
import type { Core } from '../core';
import { AppError, isAppError } from '../errors';
import { JobQueue } from '../jobs/queue';
import { JobThread } from '../jobs/thread';
import { GraphError } from '../platform/errors';
import { GraphClient, type GraphClientOptions } from '../platform/graph-client';
import { pacerFor } from '../platform/pacing';
import { expireConnection, getAdAccount, getConnection, type AdAccount } from './accounts';
import { connectAccount, type ConnectAccountInput } from './connect';
import { checkTokenExpiry } from './token-expiry';
import { DEMO_BASE_URL, type DemoPlatformSource } from './embedded-demo';
import { runSync, SyncStopped, type SyncPhase, type SyncStats } from './engine';
import {
  beginRun,
  finishRun,
  lastCompletedRun,
  progressTracker,
  pausedRuns,
  reapStaleRuns,
  recordProgress,
  type SyncKind,
} from './runs';
import { fromSyncFault, type SyncFault, type SyncJobProgress, type SyncJobRequest } from './sync-job';

export type { ConnectAccountInput } from './connect';

export interface SyncServiceOptions {
  fetch?: typeof fetch;
  /** Resolves `demo:` connections; by default an in-process demo platform is started on first use. */
  demoPlatform?: DemoPlatformSource;
  /** Overrides for the Graph client (tests shorten backoff; benches raise page sizes). */
  client?: Partial<
    Pick<
      GraphClientOptions,
      'sleep' | 'maxRetries' | 'backoffBaseMs' | 'pageLimit' | 'maxThrottleWaitMs' | 'asyncPollMs'
    >
  >;
  /**
   * Run the engine (Graph paging, parsing, upserts) on the sync worker thread, so the host's thread
   * stays free (hosts). Ignored when `fetch` or `client.sleep` is injected: functions stay in-process.
   */
  inWorker?: boolean;
  /**
   * Arms the timer that resumes a sync paused by Meta's rate limit; returns its cancel. Tests inject
   * one to fire it at will; by default a setTimeout that does not keep the process alive.
   */
  resumeTimer?: (delayMs: number, resume: () => void) => () => void;
}

/** A throttle shorter than this is waited out at least this long before the paused sync resumes. */
const MIN_PAUSE_MS = 60_000;

export interface SyncOutcome {
  syncRunId: string;
  accountId: string;
  kind: SyncKind;
  /** `paused`: Meta's rate limit asked for a longer wait than a sync sits through; it resumes by itself. */
  status: 'completed' | 'failed' | 'interrupted' | 'paused';
  /** When a paused sync resumes (ISO time). */
  resumeAfter?: string;
  startedAt: string;
  finishedAt: string;
  stats?: SyncStats;
  error?: { type: string; message: string };
}

export interface StartedSync {
  syncRunId: string;
  startedAt: string;
  kind: SyncKind;
  done: Promise<SyncOutcome>;
}

/** Syncs running at once in a process; more wait in the job queue (accounts share one machine's bandwidth and CPU). */
export const SYNC_CONCURRENCY = 4;

interface ActiveSync {
  account: AdAccount;
  syncRunId: string;
  kind: SyncKind;
  startedAt: string;
  updatedSince: string | null;
  abort: AbortController;
  done: Promise<SyncOutcome>;
  settle: (outcome: SyncOutcome) => void;
}

/**
 * Connects ad accounts and keeps them synced: one sync at a time per account, in this process and
 * across processes (the run row's unique index). Syncs are jobs of the one job queue: the run is
 * persisted first, then queued; a run a dead process left behind is resumed by resume().
 */
export class SyncService {
  /** Queued or running syncs by account ID. */
  private readonly running = new Map<string, ActiveSync>();
  private readonly jobs: JobQueue;
  private readonly demoPlatform: DemoPlatformSource;
  private readonly thread: JobThread<SyncJobRequest, SyncStats, SyncJobProgress, SyncFault> | null;
  private stopping = false;
  /** Cancels of the timers that resume paused syncs, by account ID. */
  private readonly resumeTimers = new Map<string, () => void>();

  constructor(
    private readonly core: Core,
    private readonly options: SyncServiceOptions = {},
  ) {
    // The host injects its demo platform; a process without one cannot reach demo accounts.
    this.demoPlatform =
      options.demoPlatform ??
      (async () => {
        throw new AppError(
          'not_found',
          'No demo platform runs in this process; demo accounts cannot sync here.',
        );
      });
    this.jobs = new JobQueue({
      concurrency: SYNC_CONCURRENCY,
      run: (syncRunId) => this.runQueued(syncRunId),
      onError: (syncRunId, error) =>
        core.logger.error('sync job crashed', { syncRunId, error: String(error) }),
    });
    this.thread =
      options.inWorker && !options.fetch && !options.client?.sleep
        ? new JobThread({
            entry: new URL('./sync-worker', import.meta.url),
            decodeError: fromSyncFault,
            label: 'sync',
          })
        : null;
  }

  /** True when the engine runs on the sync worker thread. */
  get offThread(): boolean {
    return this.thread !== null;
  }

  /** The demo platform demo accounts are read from (started on first use by hosts that embed one lazily). */
  demoEndpoint(): ReturnType<DemoPlatformSource> {
    return this.demoPlatform();
  }

  connectAccount(input: ConnectAccountInput): Promise<AdAccount> {
    return connectAccount(
      {
        core: this.core,
        demoPlatform: this.demoPlatform,
        client: (url, version, token, extra) => this.client(url, version, token, extra),
      },
      input,
    );
  }

  /** Starts a sync once its run is recorded; `done` settles with the outcome (it never rejects). */
  async startSync(accountId: string, opts: { kind?: SyncKind } = {}): Promise<StartedSync> {
    if (this.stopping) throw new AppError('conflict', 'the sync service is shutting down');
    const { sql } = this.core;
    const account = await getAdAccount(sql, accountId);
    if (!account) throw new AppError('not_found', `no ad account ${accountId}`);
    if (account.connectionStatus !== 'active') {
      throw new AppError(
        account.connectionStatus === 'token_expired' ? 'token_expired' : 'conflict',
        `account ${account.platformAccountId} cannot sync: its connection is ${account.connectionStatus}; reconnect it first`,
      );
    }
    if (this.running.has(accountId)) {
      throw new AppError('sync_in_progress', `account ${accountId} is already syncing`);
    }
    const last = await lastCompletedRun(sql, accountId);
    const kind = opts.kind ?? (last ? 'incremental' : 'full');
    const updatedSince = last?.started_at ?? null;
    const startedAt = this.core.clock.now().toISOString();
    // Persisted first (the row is the claim), then queued: a crash leaves a row that resume() finds.
    // The run row's unique index also refuses a second start that raced this one in this process.
    const syncRunId = await beginRun(sql, accountId, kind, startedAt);
    let settle: (outcome: SyncOutcome) => void = () => {};
    const done = new Promise<SyncOutcome>((resolve) => (settle = resolve));
    const abort = new AbortController();
    this.running.set(accountId, { account, syncRunId, kind, startedAt, updatedSince, abort, done, settle });
    this.jobs.enqueue(syncRunId);
    return { syncRunId, startedAt, kind, done };
  }

  private async runQueued(syncRunId: string): Promise<void> {
    const active = [...this.running.values()].find((run) => run.syncRunId === syncRunId);
    if (!active) return;
    const { account, kind, startedAt, updatedSince, abort } = active;
    try {
      active.settle(await this.execute(account, syncRunId, kind, startedAt, updatedSince, abort));
    } finally {
      this.running.delete(account.id);
    }
  }

  /** The outcome of the account's queued or running sync, if it has one. */
  current(accountId: string): Promise<SyncOutcome> | undefined {
    return this.running.get(accountId)?.done;
  }

  /**
   * Takes work again, and resumes the syncs a dead process left running (killed, crashed, the machine
   * lost power): each such account whose connection is still active syncs again (what was committed
   * stays; the re-read is idempotent).
   */
  async resume(): Promise<void> {
    this.stopping = false;
    this.jobs.start();
    const { sql, clock, logger } = this.core;
    // Syncs paused by Meta's rate limit resume at their time, also after a restart.
    for (const paused of await pausedRuns(sql)) this.armResume(paused.accountId, paused.resumeAfter);
    for (const accountId of new Set(await reapStaleRuns(sql, clock.now().toISOString()))) {
      const account = await getAdAccount(sql, accountId);
      if (!account || account.connectionStatus !== 'active' || this.running.has(accountId)) continue;
      try {
        await this.startSync(accountId);
        logger.info('resuming an interrupted sync', { accountId });
      } catch (error) {
        logger.warn('an interrupted sync could not be resumed', { accountId, error: String(error) });
      }
    }
  }

  /** Resumes the account's sync at `resumeAfter` (or at once if that has passed). */
  private armResume(accountId: string, resumeAfter: string): void {
    this.resumeTimers.get(accountId)?.();
    const delay = Math.max(0, Date.parse(resumeAfter) - this.core.clock.now().getTime());
    const fire = async (): Promise<void> => {
      this.resumeTimers.delete(accountId);
      if (this.stopping || this.running.has(accountId)) return;
      try {
        const account = await getAdAccount(this.core.sql, accountId);
        if (!account || account.connectionStatus !== 'active') return;
        await this.startSync(accountId);
        this.core.logger.info('resuming a sync paused by the rate limit', { accountId });
      } catch (error) {
        this.core.logger.warn('a paused sync could not be resumed', { accountId, error: String(error) });
      }
    };
    const arm =
      this.options.resumeTimer ??
      ((ms: number, fn: () => void) => {
        const timer = setTimeout(fn, ms);
        timer.unref();
        return () => clearTimeout(timer);
      });
    this.resumeTimers.set(
      accountId,
      arm(delay, () => void fire()),
    );
  }

  /** When the account's paused sync resumes, if it is paused. */
  async pausedUntil(accountId: string): Promise<string | null> {
    return (await pausedRuns(this.core.sql)).find((p) => p.accountId === accountId)?.resumeAfter ?? null;
  }

  async syncAccount(accountId: string, opts: { kind?: SyncKind } = {}): Promise<SyncOutcome> {
    return (await this.startSync(accountId, opts)).done;
  }

  isSyncing(accountId: string): boolean {
    return this.running.has(accountId);
  }

  /** Stops one account's running sync at its next page boundary (committed pages stay); resolves when it has ended. */
  async stopSync(accountId: string): Promise<void> {
    const run = this.running.get(accountId);
    if (!run) return;
    run.abort.abort();
    await run.done;
  }

  /**
   * Graceful: no new syncs; running ones stop at their next page boundary (committed pages stay) and
   * queued ones end as interrupted without a request.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const cancel of this.resumeTimers.values()) cancel();
    this.resumeTimers.clear();
    const runs = [...this.running.values()];
    for (const run of runs) run.abort.abort();
    await Promise.all(runs.map((run) => run.done));
    await this.jobs.stop();
    await this.thread?.close();
  }

  private async execute(
    account: AdAccount,
    syncRunId: string,
    kind: SyncKind,
    startedAt: string,
    updatedSince: string | null,
    abort: AbortController,
  ): Promise<SyncOutcome> {
    const { sql, events, clock, logger } = this.core;
    const base = { syncRunId, accountId: account.id, kind, startedAt };
    const ids = { workspaceId: account.workspaceId, accountId: account.id, syncRunId };
    const announce = (progress: { phase: string; percent: number }) =>
      events.emit('sync.progress', { ...ids, ...progress });
    const track = progressTracker((phase, percent) => recordProgress(sql, syncRunId, phase, percent));
    const onProgress = async (phase: SyncPhase, reported: number): Promise<void> => {
      const moved = await track(phase, reported);
      if (moved) announce(moved);
    };
    const finish = async (
      status: SyncOutcome['status'],
      stats: SyncStats | undefined,
      error?: { type: string; message: string; resumeAfter?: string },
    ): Promise<SyncOutcome> => {
      const finishedAt = clock.now().toISOString();
      // A paused run is stored as interrupted (what it committed stays) with its resume time.
      const stored = status === 'paused' ? 'interrupted' : status;
      // Recorded before it is announced: a listener (a screen, the watcher) reads the finished run.
      await finishRun(
        sql,
        syncRunId,
        { status: stored, stats: stats ?? {}, ...(error ? { error } : {}) },
        finishedAt,
      );
      if (status === 'completed') events.emit('sync.completed', { ...ids, kind });
      else {
        const { type, message } = error ?? { type: 'api_error', message: status };
        events.emit('sync.failed', { ...ids, error: { type, message } });
      }
      const resumeAfter = error?.resumeAfter;
      return {
        ...base,
        status,
        finishedAt,
        ...(stats ? { stats } : {}),
        ...(error ? { error: { type: error.type, message: error.message } } : {}),
        ...(resumeAfter ? { resumeAfter } : {}),
      };
    };
    try {
      if (abort.signal.aborted) throw new SyncStopped();
      const connection = await getConnection(sql, account.connectionId);
      if (!connection) throw new AppError('not_found', `account ${account.id} has no platform connection`);
      const endpoint =
        connection.base_url === DEMO_BASE_URL
          ? await this.demoPlatform()
          : { url: connection.base_url, apiVersion: connection.api_version };
      const token = this.core.tokenCipher.decrypt(connection.token_encrypted);
      await checkTokenExpiry(this.core, connection.id, () =>
        this.client(endpoint.url, endpoint.apiVersion, token, { maxRetries: 0, signal: abort.signal }),
      );
      const stats = this.thread
        ? await this.runOnWorker(
            { syncRunId, account, kind, updatedSince, endpoint, token },
            this.thread,
            announce,
            abort.signal,
          )
        : await runSync({
            sql,
            client: this.client(endpoint.url, endpoint.apiVersion, token, {
              signal: abort.signal,
              pacer: pacerFor(endpoint.url, account.platformAccountId, () => clock.now().getTime()),
            }),
            account,
            kind,
            now: () => clock.now(),
            updatedSince,
            onProgress,
            isStopped: () => abort.signal.aborted,
          });
      return await finish('completed', stats);
    } catch (error) {
      if (error instanceof SyncStopped || abort.signal.aborted) {
        return await finish('interrupted', undefined, {
          type: 'interrupted',
          message: new SyncStopped().message,
        });
      }
      if (error instanceof GraphError && error.kind === 'token_expired') {
        const changed = await expireConnection(
          sql,
          account.connectionId,
          error.message,
          clock.now().toISOString(),
        );
        for (const expired of changed) {
          events.emit('connection.changed', {
            workspaceId: expired.workspaceId,
            accountId: expired.id,
            connectionStatus: 'token_expired',
          });
        }
        return await finish('failed', undefined, {
          type: 'token_expired',
          message: `the platform token expired or was revoked (${error.message}); synced history is kept, reconnect to resume syncing`,
        });
      }
      if (error instanceof GraphError && error.kind === 'throttled') {
        // Meta asks for a longer wait than a sync sits through: pause, keep what was committed, and
        // resume after that time; other accounts' syncs go on meanwhile.
        const waitMs = Math.max(MIN_PAUSE_MS, error.info.retryAfterMs ?? 0);
        const resumeAfter = new Date(clock.now().getTime() + waitMs).toISOString();
        const outcome = await finish('paused', undefined, {
          type: 'rate_limited',
          message: `paused by Meta's rate limit until ${resumeAfter} (${error.message})`,
          resumeAfter,
        });
        if (!this.stopping) this.armResume(account.id, resumeAfter);
        return outcome;
      }
      if (error instanceof GraphError) {
        return await finish('failed', undefined, { type: 'platform_error', message: error.message });
      }
      if (isAppError(error)) return await finish('failed', undefined, error.toValue());
      logger.error('sync failed', { syncRunId, error: (error as Error).stack ?? String(error) });
      return await finish('failed', undefined, { type: 'api_error', message: (error as Error).message });
    }
  }

  /** The same engine on the sync worker: progress comes back as messages, a stop goes as one. */
  private async runOnWorker(
    job: Pick<SyncJobRequest, 'syncRunId' | 'account' | 'kind' | 'updatedSince' | 'endpoint' | 'token'>,
    thread: JobThread<SyncJobRequest, SyncStats, SyncJobProgress, SyncFault>,
    announce: (progress: SyncJobProgress) => void,
    signal: AbortSignal,
  ): Promise<SyncStats> {
    const { sleep: _sleep, ...tuning } = this.options.client ?? {};
    const running = thread.start(
      {
        ...job,
        dataDir: this.core.dataDir,
        client: tuning,
        clockOffsetMs: this.core.clock.now().getTime() - Date.now(),
      },
      announce,
    );
    const cancel = () => running.cancel();
    signal.addEventListener('abort', cancel, { once: true });
    try {
      return await running.result;
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  }

  private client(
    baseUrl: string,
    apiVersion: string,
    token: string,
    extra: Partial<GraphClientOptions> = {},
  ): GraphClient {
    return new GraphClient({
      baseUrl,
      apiVersion,
      token,
      ...(this.options.fetch ? { fetchImpl: this.options.fetch } : {}),
      ...this.options.client,
      ...extra,
    });
  }
}
