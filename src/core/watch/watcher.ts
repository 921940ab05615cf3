// The watcher keeps every connected account fresh and judged without anyone asking: it starts
// scheduled syncs (incremental on the account's interval, a full reconciliation nightly in its time
// zone), backs off after failures, and after any sync that brought new or revised data — from this
// process or another (the CLI) — re-diagnoses the campaigns that changed, as one automatic
// account-level job. Schedules live in the store, so they survive restarts; a slot missed while the
// machine slept is caught up once. Hosts drive tick() on a timer; tests drive it with their clock.
import { dateInZone } from '../clock';
import { diagnosticWindow } from '../windows';
import type { Core } from '../core';
import type { DiagnosticsService } from '../diagnostics/service';
import { isAppError } from '../errors';
import { wakeSnoozed } from '../issues/lifecycle';
import { pausedRuns } from '../sync/runs';
import type { SyncService } from '../sync/service';
import { thinHistory } from './retention';
import { backoffMs, nextIncremental, nextNightly } from './slots';
import {
  accountZone,
  intervalFor,
  workspaceInterval,
  markJudged,
  saveSchedule,
  scheduleOf,
  unjudgedRuns,
  watchedAccounts,
  type ScheduleRow,
} from './store';

/** How often a host checks the schedules. */
export const TICK_MS = 30_000;

export interface TickReport {
  /** Accounts whose scheduled sync started, with its kind. */
  started: { accountId: string; kind: 'full' | 'incremental' }[];
  /** Automatic diagnostics started for new data. */
  diagnosed: { accountId: string; diagnosticId: string; campaigns: number }[];
}

export class Watcher {
  private timer: NodeJS.Timeout | null = null;
  private offs: (() => void)[] = [];
  /** Event and tick work, one piece at a time in the order it came (it reads the store). */
  private queue: Promise<unknown> = Promise.resolve();
  private queued = 0;

  constructor(
    private readonly core: Core,
    private readonly sync: SyncService,
    private readonly diagnostics: DiagnosticsService,
    /** Alerts' outbox and digests, pumped on the same clock. */
    private readonly alerts: { tick(): void } | null = null,
  ) {}

  /** Starts watching: event hooks, a first tick, then one every TICK_MS. */
  start(tickMs = TICK_MS): void {
    if (this.timer) return;
    this.listen();
    this.timer = setInterval(() => this.safeTick(), tickMs);
    this.timer.unref();
    setImmediate(() => this.safeTick());
  }

  /**
   * The event hooks alone (tests drive tick() themselves): a sync's outcome moves its account's
   * backoff, and new data is judged as soon as its sync completes.
   */
  listen(): void {
    if (this.offs.length > 0) return;
    const { events } = this.core;
    this.offs.push(
      events.on('sync.completed', ({ accountId }) => {
        void this.safely(async () => {
          await this.recordOutcome(accountId, null);
          await this.judgeNow();
        });
      }),
      events.on('sync.failed', ({ accountId, error }) => {
        void this.safely(() => this.recordOutcome(accountId, error.type));
      }),
      // A re-diagnosis refused because another diagnostic of the account was running is retried then.
      events.on('diagnostic.changed', ({ campaignId, status }) => {
        if (campaignId === null && (status === 'completed' || status === 'failed'))
          void this.safely(() => this.judgeNow());
      }),
    );
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const off of this.offs.splice(0)) off();
  }

  private safeTick(): void {
    this.tick().catch((error: unknown) =>
      this.core.logger.error('watcher tick failed', { error: String(error) }),
    );
  }

  /** Resolves when no event or tick work is queued or under way (tests, shutdown). */
  async whenIdle(): Promise<void> {
    while (this.queued > 0) await this.queue.catch(() => undefined);
  }

  /** Queues work behind what came before it; a failure is logged, never thrown at the event's emitter. */
  private safely<T>(work: () => Promise<T>): Promise<T> {
    this.queued += 1;
    const run = this.queue.then(work).finally(() => {
      this.queued -= 1;
    });
    this.queue = run.catch((error: unknown) =>
      this.core.logger.error('watcher failed', { error: String(error) }),
    );
    return run;
  }

  /** One pass: snoozes that ended, syncs that are due, new data to judge, old history to thin. */
  tick(): Promise<TickReport> {
    return this.safely(async () => {
      await wakeSnoozed(this.core);
      const started = await this.startDueSyncs();
      const diagnosed = await this.judgeNow();
      this.alerts?.tick();
      await this.thin();
      return { started, diagnosed };
    });
  }

  /** A bounded share of the old history, each pass (retention.ts); a failure waits for the next. */
  private async thin(): Promise<void> {
    const { sql, clock, logger } = this.core;
    try {
      const thinned = await thinHistory(sql, clock.now());
      if (thinned.diagnoses + thinned.syncRuns + thinned.alertDeliveries > 0)
        logger.info('old history thinned', { ...thinned });
    } catch (error) {
      logger.warn('thinning old history failed', { error: String(error) });
    }
  }

  private async startDueSyncs(): Promise<TickReport['started']> {
    const { sql, clock, logger } = this.core;
    const now = clock.now();
    const nowIso = now.toISOString();
    const started: TickReport['started'] = [];
    const workspaceMinutes = new Map<string, number | null>();
    for (const account of await watchedAccounts(sql)) {
      if (!workspaceMinutes.has(account.workspace_id))
        workspaceMinutes.set(account.workspace_id, await workspaceInterval(sql, account.workspace_id));
      const interval = intervalFor(
        workspaceMinutes.get(account.workspace_id) ?? null,
        account.schedule,
      ).minutes;
      const schedule: ScheduleRow = account.schedule ?? {
        account_id: account.id,
        interval_minutes: null,
        // A newly watched account was just connected (and synced): its first slot is the next one.
        next_incremental_at: nextIncremental(account.id, interval, now).toISOString(),
        next_full_at: nextNightly(account.timezone, now).toISOString(),
        failures: 0,
        backoff_until: null,
        last_reason: null,
      };
      if (!account.schedule) {
        await saveSchedule(sql, schedule);
        continue;
      }
      if (schedule.backoff_until && schedule.backoff_until > nowIso) continue;
      const fullDue = schedule.next_full_at <= nowIso;
      const incrementalDue = schedule.next_incremental_at <= nowIso;
      if (!fullDue && !incrementalDue) continue;
      if (this.sync.isSyncing(account.id)) continue; // a sync of it runs: the slot waits for it
      const kind = fullDue ? 'full' : 'incremental';
      try {
        await this.sync.startSync(account.id, { kind });
      } catch (error) {
        // Another process syncs it, or its connection just lapsed: try at the next tick.
        if (!isAppError(error)) throw error;
        logger.info('scheduled sync not started', { accountId: account.id, reason: error.message });
        continue;
      }
      // Past slots are caught up once: the next slot is computed from now, not from the missed one.
      await saveSchedule(sql, {
        ...schedule,
        next_incremental_at: nextIncremental(account.id, interval, now).toISOString(),
        next_full_at: fullDue ? nextNightly(account.timezone, now).toISOString() : schedule.next_full_at,
      });
      started.push({ accountId: account.id, kind });
    }
    return started;
  }

  /** A sync's outcome moves the account's backoff: a success clears it, a failure doubles it. */
  private async recordOutcome(accountId: string, failure: string | null): Promise<void> {
    const { sql, clock } = this.core;
    const schedule = await scheduleOf(sql, accountId);
    if (!schedule) return;
    if (failure === null) {
      if (schedule.failures === 0 && schedule.backoff_until === null) return;
      await saveSchedule(sql, { ...schedule, failures: 0, backoff_until: null, last_reason: null });
      return;
    }
    if (failure === 'interrupted') return; // a stop (shutdown) is not the account's fault
    if (failure === 'rate_limited') {
      // Meta paused the account: the sync service resumes it at Meta's time; no scheduled sync before.
      const paused = (await pausedRuns(sql)).find((p) => p.accountId === accountId);
      if (paused)
        await saveSchedule(sql, { ...schedule, backoff_until: paused.resumeAfter, last_reason: failure });
      return;
    }
    const failures = schedule.failures + 1;
    const until = new Date(clock.now().getTime() + backoffMs(failures)).toISOString();
    await saveSchedule(sql, { ...schedule, failures, backoff_until: until, last_reason: failure });
  }

  /**
   * Completed syncs not judged yet: the campaigns whose data they changed are re-diagnosed, per
   * account, as one automatic account-level diagnostic of the default window. A sync that changed
   * nothing is judged without a diagnostic; one whose account already has an account-level diagnostic
   * running waits for it to end.
   */
  judgeNewData(): Promise<TickReport['diagnosed']> {
    return this.safely(() => this.judgeNow());
  }

  /** judgeNewData's pass, inside the queue. */
  private async judgeNow(): Promise<TickReport['diagnosed']> {
    const { sql, clock, logger } = this.core;
    const byAccount = new Map<string, { runIds: string[]; campaigns: Set<string> }>();
    for (const run of await unjudgedRuns(sql)) {
      const entry = byAccount.get(run.account_id) ?? { runIds: [], campaigns: new Set<string>() };
      entry.runIds.push(run.id);
      const stats = JSON.parse(run.stats || '{}') as { changedCampaignIds?: string[] };
      for (const id of stats.changedCampaignIds ?? []) entry.campaigns.add(id);
      byAccount.set(run.account_id, entry);
    }
    const diagnosed: TickReport['diagnosed'] = [];
    const nowIso = clock.now().toISOString();
    for (const [accountId, { runIds, campaigns }] of byAccount) {
      if (campaigns.size === 0) {
        await markJudged(sql, runIds, nowIso);
        continue;
      }
      const account = await accountZone(sql, accountId);
      if (!account) {
        await markJudged(sql, runIds, nowIso);
        continue;
      }
      const window = diagnosticWindow(dateInZone(clock.now(), account.timezone));
      try {
        const created = await this.diagnostics.create(
          { workspaceId: account.workspace_id, userId: null },
          {
            accountId,
            campaignId: null,
            dateFrom: window.from,
            dateTo: window.to,
            trigger: 'automatic',
            campaignScope: [...campaigns],
          },
        );
        await markJudged(sql, runIds, nowIso);
        diagnosed.push({ accountId, diagnosticId: created.id, campaigns: campaigns.size });
      } catch (error) {
        if (isAppError(error) && error.type === 'diagnostic_in_progress') continue; // retried when it ends
        if (isAppError(error) && error.type === 'campaign_not_synced') {
          await markJudged(sql, runIds, nowIso);
          continue;
        }
        logger.error('automatic diagnosis not started', { accountId, error: String(error) });
      }
    }
    return diagnosed;
  }
}
