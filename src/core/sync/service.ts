// Keeps connected ad accounts synced: runs are persisted, queued on the one job queue and executed
// inline or on the sync worker thread; the service keeps their bookkeeping, events and errors.
import type { Core } from '../core';
import { AppError, isAppError } from '../errors';
import { HAND_OVER, type JobEnd, type Jobs } from '../jobs/jobs';
import { JobThread } from '../jobs/thread';
import { GraphError } from '../platform/errors';
import { GraphClient, type GraphClientOptions } from '../platform/graph-client';
import { pacerFor, pacingKey, type SharedPacing } from '../platform/pacing';
import { expireConnection, getAdAccount, getConnection, type AdAccount } from './accounts';
import { connectAccount, type ConnectAccountInput } from './connect';
import { checkTokenExpiry } from './token-expiry';
import { DEMO_BASE_URL, type DemoPlatformSource } from './embedded-demo';
import { runSync, SyncStopped, type SyncPhase, type SyncStats } from './engine';
import {
  beginRun,
  finishRun,
  getRun,
  lastCompletedRun,
  progressTracker,
  pausedRuns,
  reapStaleRuns,
  recordProgress,
  resumeAfterOf,
  runningRuns,
  type SyncKind,
  type SyncRunRow,
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
  /**
   * Team server: each ad account's Meta pacing shared by every process (pacing-pg.ts), so their
   * calls together stay within the account's limits. Absent when solo.
   */
  sharedPacing?: SharedPacing;
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
  /** Set once this process executes it; on a team server another process may execute it instead. */
  executing: boolean;
}

/**
 * Connects ad accounts and keeps them synced: one sync at a time per account, in this process and
 * across processes (the run row's unique index). Syncs are jobs of the one job queue: the run is
 * persisted first, then queued; a run a dead process left behind is resumed by resume().
 */
export class SyncService {
  /** Queued or running syncs by account ID. */
  private readonly running = new Map<string, ActiveSync>();
  private readonly jobs: Jobs;
  private readonly demoPlatform: DemoPlatformSource;
  private readonly thread: JobThread<SyncJobRequest, SyncStats, SyncJobProgress, SyncFault> | null;
  private stopping = false;
  /** Runs this process stopped mid-way on a team server, for another process to go on with. */
  private readonly handedOver = new Set<string>();
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
    this.jobs = core.jobs('sync', {
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
            // Never stopped when idle: its pacers remember each account's usage and Meta's throttles.
          })
        : null;
    if (this.jobs.shared) {
      // A sync queued here may run in another process: its outcome arrives as that process's event.
      const remote = (payload: { accountId: string; syncRunId: string }): void =>
        void this.settleRemote(payload.accountId, payload.syncRunId);
      core.events.on('sync.completed', remote);
      core.events.on('sync.failed', remote);
    }
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
    const syncRunId = await beginRun(sql, accountId, kind, startedAt, {
      reapDeadProcesses: !this.jobs.shared,
    });
    let settle: (outcome: SyncOutcome) => void = () => {};
    const done = new Promise<SyncOutcome>((resolve) => (settle = resolve));
    const abort = new AbortController();
    const active = { account, syncRunId, kind, startedAt, updatedSince, abort, done, settle };
    this.running.set(accountId, { ...active, executing: false });
    this.jobs.enqueue(syncRunId, { exclusiveKey: accountId });
    return { syncRunId, startedAt, kind, done };
  }

  private async runQueued(syncRunId: string): Promise<JobEnd> {
    let active = [...this.running.values()].find((run) => run.syncRunId === syncRunId);
    // A team server: a run another process queued, or one taken over from a process that died.
    if (!active && this.jobs.shared) active = await this.adopt(syncRunId);
    if (!active) return;
    active.executing = true;
    const { account, kind, startedAt, updatedSince, abort } = active;
    try {
      active.settle(await this.execute(account, syncRunId, kind, startedAt, updatedSince, abort));
    } finally {
      if (this.running.get(account.id) === active) this.running.delete(account.id);
    }
    return this.handedOver.delete(syncRunId) ? HAND_OVER : undefined;
  }

  /**
   * A run this process did not queue, rebuilt from its row: the same run continues (what an earlier
   * attempt committed stays; the pages it re-reads are upserts, so nothing is duplicated).
   */
  private async adopt(syncRunId: string): Promise<ActiveSync | undefined> {
    const { sql } = this.core;
    const run = await getRun(sql, syncRunId);
    if (!run || run.status !== 'running') return undefined;
    const account = await getAdAccount(sql, run.account_id);
    if (!account) return undefined;
    const last = await lastCompletedRun(sql, account.id);
    let settle: (outcome: SyncOutcome) => void = () => {};
    const done = new Promise<SyncOutcome>((resolve) => (settle = resolve));
    const abort = new AbortController();
    // Claimed while this process stops: it ends as interrupted at once, as a queued solo run would.
    if (this.stopping) abort.abort();
    const active: ActiveSync = {
      account,
      syncRunId,
      kind: run.kind,
      startedAt: run.started_at,
      updatedSince: last?.started_at ?? null,
      abort,
      done,
      settle,
      executing: false,
    };
    this.running.set(account.id, active);
    return active;
  }

  /** A sync this process queued and another one ran: its outcome, read from the finished run. */
  private async settleRemote(accountId: string, syncRunId: string): Promise<void> {
    const active = this.running.get(accountId);
    if (!active || active.syncRunId !== syncRunId || active.executing) return;
    const run = await getRun(this.core.sql, syncRunId);
    if (!run || run.status === 'running' || this.running.get(accountId) !== active) return;
    this.running.delete(accountId);
    active.settle(outcomeOf(run));
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
    if (this.jobs.shared) {
      // A team server: every unfinished run is offered again (once per run across the processes);
      // one whose process died is taken over when its lease runs out.
      for (const run of await runningRuns(sql)) this.jobs.enqueue(run.id, { exclusiveKey: run.account_id });
      return;
    }
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
    // A team process claims nothing more from here: a run it hands over goes back to the database,
    // and its own runner would take it again (and hand it over again) for as long as its slowest run
    // takes to reach a page boundary. A solo queue stops after its runs, which it still has to end.
    const jobsStopped = this.jobs.shared ? this.jobs.stop() : null;
    for (const cancel of this.resumeTimers.values()) cancel();
    this.resumeTimers.clear();
    const runs = [...this.running.values()];
    if (this.jobs.shared) {
      // Queued here but not running here: the run stays in the database for another process.
      for (const run of runs.filter((r) => !r.executing)) {
        if (this.running.get(run.account.id) === run) this.running.delete(run.account.id);
        run.settle({
          syncRunId: run.syncRunId,
          accountId: run.account.id,
          kind: run.kind,
          status: 'interrupted',
          startedAt: run.startedAt,
          finishedAt: this.core.clock.now().toISOString(),
          error: { type: 'interrupted', message: 'this process stopped before it ran the sync' },
        });
      }
    }
    for (const run of runs) run.abort.abort();
    await Promise.all(runs.map((run) => run.done));
    await (jobsStopped ?? this.jobs.stop());
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
              ...(this.options.sharedPacing
                ? {
                    sharedPacing: {
                      pacing: this.options.sharedPacing,
                      accountKey: pacingKey(endpoint.url, account.platformAccountId),
                    },
                  }
                : {}),
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
        if (this.stopping && this.jobs.handsOver) {
          // A team server: the run stays running in the database and its lease goes back at once,
          // so another process goes on with the same run (as after a crash, without the lease's wait).
          this.handedOver.add(syncRunId);
          return {
            ...base,
            status: 'interrupted',
            finishedAt: clock.now().toISOString(),
            error: {
              type: 'interrupted',
              message: 'this process stopped; another one goes on with the sync',
            },
          };
        }
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

/** A finished run as the outcome its starter awaits (a run stored as interrupted with a resume time was paused). */
function outcomeOf(run: SyncRunRow): SyncOutcome {
  const error = run.error ? (JSON.parse(run.error) as { type: string; message: string }) : undefined;
  const resumeAfter = resumeAfterOf(run.error);
  const status: SyncOutcome['status'] =
    run.status === 'interrupted' && resumeAfter ? 'paused' : (run.status as SyncOutcome['status']);
  return {
    syncRunId: run.id,
    accountId: run.account_id,
    kind: run.kind,
    status,
    startedAt: run.started_at,
    finishedAt: run.finished_at ?? run.started_at,
    ...(run.status === 'completed' ? { stats: JSON.parse(run.stats) as SyncStats } : {}),
    ...(error ? { error: { type: error.type, message: error.message } } : {}),
    ...(resumeAfter ? { resumeAfter } : {}),
  };
}
