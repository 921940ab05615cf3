// Diagnostics as jobs: pending → running → completed | failed, one active per campaign (and per
// account for account-level runs, enforced by partial unique indexes), run one at a time on an
// in-process queue so that POST returns at once. Results are stored whole in diagnostics.result.
import type { Jobs } from '../jobs/jobs';
import type {
  DiagnosticCreated,
  DiagnosticDetail,
  DiagnosticListItem,
  DiagnosticStatus,
  RiskLevel,
} from '../../shared/api/diagnostics';
import type { Core } from '../core';
import { addDays } from '../clock';
import { AppError } from '../errors';
import { newId } from '../ids';
import { rowsOfAccounts, type AccountSelection, type RequestContext } from '../identity/access';
import { IDLE_STOP_MS, JobThread } from '../jobs/thread';
import { issuesTracked } from '../issues/tracker';
import { unindexed } from '../store/dialect';
import { latestDiagnostics } from './latest';
import type { LatestDiagnostic } from '../../shared/ipc/types';
import { isUniqueViolation, keptPlan } from '../store/sql';
import { recordFeedback, setProfile, getProfile, type ActionKind } from './andromeda';
import {
  computeDiagnosis,
  fromDiagnosisFault,
  type DiagnosisFault,
  type DiagnosisJob,
  type WorkerDiagnosisJob,
} from './compute';
import { deleteGoal, saveGoal } from '../goals/store';
import {
  LIST_SELECT,
  SELECT,
  storedDiagnosis,
  toDetail,
  toListItem,
  type DiagnosticListRow,
  type DiagnosticRow,
  type StoredDiagnosis,
} from './rows';
import type { Profile } from './types';

/** What the service needs of a request context (the API's RequestContext satisfies it). */
export type DiagnosticsContext = Pick<RequestContext, 'workspaceId' | 'userId'>;

export interface CreateDiagnosticInput {
  accountId: string;
  campaignId: string | null;
  dateFrom: string;
  dateTo: string;
  /** 'automatic': started by the watcher after new data (default 'manual'). */
  trigger?: 'manual' | 'automatic';
  /** An account-level diagnostic that re-judges only these campaigns (the ones new data changed). */
  campaignScope?: readonly string[] | undefined;
}

export interface ListDiagnosticsFilter {
  accounts: AccountSelection;
  riskLevel?: string | undefined;
  dateStart?: string | undefined;
  dateEnd?: string | undefined;
  status?: string | undefined;
  campaignId?: string | undefined;
  page: number;
  pageSize: number;
}

export interface DiagnosticsServiceOptions {
  /** Load and analyse on a worker thread, so the host's thread stays free (hosts); default inline. */
  inWorker?: boolean;
}

export class DiagnosticsService {
  private readonly jobs: Jobs;
  private readonly thread: JobThread<WorkerDiagnosisJob, StoredDiagnosis, never, DiagnosisFault> | null;

  constructor(
    private readonly core: Core,
    options: DiagnosticsServiceOptions = {},
  ) {
    this.thread = options.inWorker
      ? new JobThread({
          entry: new URL('./diagnose-worker', import.meta.url),
          decodeError: fromDiagnosisFault,
          label: 'diagnosis',
          idleStopMs: IDLE_STOP_MS,
        })
      : null;
    this.jobs = core.jobs('diagnostic', {
      run: (id) => this.process(id),
      onError: (id, error) =>
        core.logger.error('diagnostic job crashed', { diagnosticId: id, error: String(error) }),
    });
  }

  /** True when diagnoses run on the worker thread. */
  get offThread(): boolean {
    return this.thread !== null;
  }

  private get sql() {
    return this.core.sql;
  }

  /** Creates under way (the watcher starts them from events): `whenIdle` waits for them too. */
  private readonly creating = new Set<Promise<unknown>>();

  private now(): string {
    return this.core.clock.now().toISOString();
  }

  /** The user whose Andromeda profile applies: the caller, else the workspace's owner. */
  async userFor(ctx: DiagnosticsContext): Promise<string | null> {
    if (ctx.userId) return ctx.userId;
    const owner = await this.sql.get<{ id: string }>(
      `SELECT id FROM users WHERE workspace_id = ? ORDER BY role = 'owner' DESC, created_at, id LIMIT 1`,
      [ctx.workspaceId],
    );
    return owner?.id ?? null;
  }

  create(ctx: DiagnosticsContext, input: CreateDiagnosticInput): Promise<DiagnosticCreated> {
    const creating = this.insert(ctx, input);
    this.creating.add(creating);
    const forget = () => this.creating.delete(creating);
    creating.then(forget, forget);
    return creating;
  }

  private async insert(ctx: DiagnosticsContext, input: CreateDiagnosticInput): Promise<DiagnosticCreated> {
    if (this.jobs.isStopped) throw new AppError('api_error', 'The diagnostics service is shutting down.');
    if (input.dateFrom > input.dateTo)
      throw new AppError('invalid_date_range', 'date_start is after date_end.');
    const account = await this.sql.get(`SELECT id FROM ad_accounts WHERE id = ? AND workspace_id = ?`, [
      input.accountId,
      ctx.workspaceId,
    ]);
    if (!account) throw new AppError('not_found', `Account ${input.accountId} was not found.`);
    if (input.campaignId) {
      const campaign = await this.sql.get<{ insights_synced_at: string | null }>(
        `SELECT insights_synced_at FROM campaigns WHERE id = ? AND account_id = ?`,
        [input.campaignId, input.accountId],
      );
      if (!campaign) throw new AppError('not_found', `Campaign ${input.campaignId} was not found.`);
      if (!campaign.insights_synced_at) {
        throw new AppError(
          'campaign_not_synced',
          `Campaign ${input.campaignId} has not been synced yet; sync the account first (about 30-60 seconds).`,
        );
      }
    } else {
      const synced = await this.sql.get(
        `SELECT 1 AS found FROM campaigns WHERE account_id = ? AND insights_synced_at IS NOT NULL LIMIT 1`,
        [input.accountId],
      );
      if (!synced)
        throw new AppError(
          'campaign_not_synced',
          `No campaign of account ${input.accountId} has been synced yet; sync the account first.`,
        );
    }
    const id = newId('diag');
    const createdAt = this.now();
    const userId = await this.userFor(ctx);
    try {
      await this.sql.run(
        `INSERT INTO diagnostics (id, workspace_id, account_id, campaign_id, user_id, status, date_from, date_to,
           created_at, trigger, campaign_scope)
         VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?)`,
        [
          id,
          ctx.workspaceId,
          input.accountId,
          input.campaignId,
          userId,
          input.dateFrom,
          input.dateTo,
          createdAt,
          input.trigger ?? 'manual',
          input.campaignScope && !input.campaignId ? JSON.stringify(input.campaignScope) : null,
        ],
      );
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new AppError(
          'diagnostic_in_progress',
          input.campaignId
            ? `A diagnostic is already running for campaign ${input.campaignId}.`
            : `An account-level diagnostic is already running for account ${input.accountId}.`,
        );
      }
      throw error;
    }
    const estimatedCompletionSeconds = await this.estimateSeconds(ctx.workspaceId);
    this.emit(ctx.workspaceId, id, input.campaignId, 'pending', null);
    this.enqueue(id);
    return { id, campaignId: input.campaignId, status: 'pending', createdAt, estimatedCompletionSeconds };
  }

  /** Runs a diagnostic to the end before returning (the CLI's `diagnose`). */
  async runNow(ctx: DiagnosticsContext, input: CreateDiagnosticInput): Promise<DiagnosticDetail> {
    const created = await this.create(ctx, input);
    await this.whenIdle();
    const detail = await this.get(ctx, created.id);
    if (!detail) throw new AppError('api_error', `Diagnostic ${created.id} disappeared.`);
    return detail;
  }

  /**
   * Seconds from the mean of the workspace's last 20 processing times (its newest completed
   * diagnostics), times the jobs ahead in the queue. Read from the newest end of
   * (workspace_id, created_at) and stopped after 20: the table keeps every diagnostic ever run, and
   * an automatic re-diagnosis creates hundreds at once.
   */
  private async estimateSeconds(workspaceId: string): Promise<number> {
    const row = await this.sql.get<{ ms: number | null }>(
      `SELECT AVG(processing_time_ms) AS ms FROM (SELECT processing_time_ms FROM diagnostics
       WHERE workspace_id = ? AND ${unindexed(this.sql, 'status')} = 'completed' AND processing_time_ms IS NOT NULL
       ORDER BY created_at DESC LIMIT 20) AS recent`,
      [workspaceId],
    );
    const perJob = row?.ms ?? 1000;
    const ahead = this.jobs.queued + (this.jobs.active ? 1 : 0) + 1;
    return Math.max(1, Math.ceil((perJob * ahead) / 1000));
  }

  private enqueue(id: string): void {
    this.jobs.enqueue(id);
  }

  private async process(id: string): Promise<void> {
    const row = await this.sql.get<DiagnosticRow>(`SELECT * FROM diagnostics WHERE id = ?`, [id]);
    if (!row || (row.status !== 'pending' && row.status !== 'running')) return;
    const startedAt = this.now();
    await this.sql.run(`UPDATE diagnostics SET status = 'running', started_at = ? WHERE id = ?`, [
      startedAt,
      id,
    ]);
    this.emit(row.workspace_id, id, row.campaign_id, 'running', null);
    const started = performance.now();
    try {
      const content = await this.compute(row);
      const processingTimeMs = Math.max(1, Math.round(performance.now() - started));
      await this.sql.run(
        `UPDATE diagnostics SET status = 'completed', risk_level = ?, summary = ?, issues_detected = ?,
           recommendation_count = ?, result = ?, processing_time_ms = ?, completed_at = ? WHERE id = ?`,
        [
          content.riskLevel,
          content.summary,
          content.issuesDetected,
          content.recommendationCount,
          content.result,
          processingTimeMs,
          this.now(),
          id,
        ],
      );
      this.emit(row.workspace_id, id, row.campaign_id, 'completed', content.riskLevel);
    } catch (error) {
      const value =
        error instanceof AppError
          ? error.toValue()
          : { type: 'api_error', message: 'The analysis failed unexpectedly.' };
      if (!(error instanceof AppError))
        this.core.logger.error('diagnostic failed', { id, error: String(error) });
      await this.sql.run(
        `UPDATE diagnostics SET status = 'failed', error = ?, processing_time_ms = ?, completed_at = ? WHERE id = ?`,
        [JSON.stringify(value), Math.round(performance.now() - started), this.now(), id],
      );
      this.emit(row.workspace_id, id, row.campaign_id, 'failed', null);
    }
  }

  /** Loads and analyses one diagnostic's data (pure engine over a store snapshot), off-thread in hosts. */
  private async compute(row: DiagnosticRow): Promise<StoredDiagnosis> {
    const job: DiagnosisJob = {
      accountId: row.account_id,
      campaignId: row.campaign_id,
      userId: row.user_id,
      dateFrom: row.date_from,
      dateTo: row.date_to,
      campaignScope: row.campaign_scope ? (JSON.parse(row.campaign_scope) as string[]) : null,
    };
    return this.thread
      ? this.thread.run({ ...job, dataDir: this.core.dataDir })
      : storedDiagnosis(await computeDiagnosis(this.sql, job));
  }

  private emit(
    workspaceId: string,
    diagnosticId: string,
    campaignId: string | null,
    status: DiagnosticStatus,
    riskLevel: RiskLevel | null,
  ): void {
    this.core.events.emit('diagnostic.changed', { workspaceId, diagnosticId, campaignId, status, riskLevel });
  }

  async get(ctx: DiagnosticsContext, id: string): Promise<DiagnosticDetail | undefined> {
    const row = await this.sql.get<DiagnosticRow>(
      keptPlan(`${SELECT} WHERE d.id = ? AND d.workspace_id = ?`),
      [id, ctx.workspaceId],
    );
    return row ? toDetail(row) : undefined;
  }

  async list(
    ctx: DiagnosticsContext,
    f: ListDiagnosticsFilter,
  ): Promise<{ items: DiagnosticListItem[]; total: number }> {
    // One account (an account's page, the usual script) reads its (account_id, created_at) range.
    const scope = rowsOfAccounts(this.sql, 'd', ctx.workspaceId, f.accounts);
    const where = scope.terms;
    const params: (string | number)[] = scope.params;
    const add = (condition: string, value: string | undefined): void => {
      if (!value) return;
      where.push(condition);
      params.push(value);
    };
    add(`d.risk_level = ?`, f.riskLevel);
    add(`d.status = ?`, f.status);
    add(`d.campaign_id = ?`, f.campaignId);
    // date_start/date_end: the period in which diagnostics were created (calendar dates, UTC), as a
    // range of the instants (an ISO instant of a day sorts after the day's date and before the next's).
    add(`d.created_at >= ?`, f.dateStart);
    add(`d.created_at < ?`, f.dateEnd === undefined ? undefined : addDays(f.dateEnd, 1));
    const clause = where.join(' AND ');
    const plan = (text: string) => (scope.keyed ? keptPlan(text) : text);
    const count = `SELECT count(*) AS n FROM diagnostics d ${scope.join} WHERE ${clause}`;
    const total =
      (
        await this.sql.get<{ n: number }>(
          // Every visible account's are counted whole, by whichever plan their number favours.
          'ids' in f.accounts ? plan(count) : count,
          params,
        )
      )?.n ?? 0;
    const rows = await this.sql.all<DiagnosticListRow>(
      plan(
        `${LIST_SELECT} ${scope.join} WHERE ${clause} ORDER BY d.created_at DESC, d.id DESC LIMIT ? OFFSET ?`,
      ),
      [...params, f.pageSize, (f.page - 1) * f.pageSize],
    );
    return { items: rows.map(toListItem), total };
  }

  /** The newest completed diagnostic of each campaign (for the campaign list's latestDiagnostic). */
  latestForCampaigns(campaignIds: string[]): Promise<Map<string, LatestDiagnostic>> {
    return latestDiagnostics(this.sql, campaignIds);
  }

  /**
   * Jobs a previous process left pending or running are run again: their inputs are all stored and the
   * engine is deterministic, so a re-run gives what the interrupted run would have given.
   */
  async resume(): Promise<void> {
    this.jobs.start();
    const rows = await this.sql.all<{ id: string }>(
      `SELECT id FROM diagnostics WHERE status IN ('pending', 'running') ORDER BY created_at, id`,
    );
    for (const { id } of rows) this.jobs.enqueue(id);
  }

  /** Resolves when no diagnostic is being created, queued or run, and their issues are tracked. */
  async whenIdle(): Promise<void> {
    while (this.creating.size > 0) await Promise.allSettled([...this.creating]);
    await this.jobs.whenIdle();
    await issuesTracked(this.core);
  }

  /** No new jobs; the running one finishes; queued ones stay pending for the next start's resume(). */
  async stop(): Promise<void> {
    await this.jobs.stop();
    await this.thread?.close();
  }

  // Andromeda, scoped to the caller's workspace.

  async getProfile(ctx: DiagnosticsContext): Promise<{
    userId: string | null;
    riskAppetite: Profile['riskAppetite'];
    focusMetric: Profile['focusMetric'];
    updatedAt: string | null;
  }> {
    const userId = await this.userFor(ctx);
    const { profile, updatedAt } = await getProfile(this.sql, userId);
    return { userId, ...profile, updatedAt };
  }

  async setProfile(ctx: DiagnosticsContext, change: Partial<Profile>): Promise<Profile> {
    const userId = await this.userFor(ctx);
    if (!userId) throw new AppError('not_found', 'The workspace has no user to keep a profile for.');
    const inWorkspace = await this.sql.get(`SELECT 1 AS found FROM users WHERE id = ? AND workspace_id = ?`, [
      userId,
      ctx.workspaceId,
    ]);
    if (!inWorkspace) throw new AppError('not_found', `User ${userId} was not found.`);
    return setProfile(this.sql, userId, change, this.now());
  }

  /**
   * The analyst's target cost per result for a campaign: since goals, the campaign's own CPA goal
   * (null clears it; the campaign follows the account's goal again).
   */
  async setTargetCpa(ctx: DiagnosticsContext, campaignId: string, amount: number | null): Promise<void> {
    const row = await this.sql.get<{ account_id: string }>(
      `SELECT c.account_id FROM campaigns c JOIN ad_accounts a ON a.id = c.account_id
         WHERE c.id = ? AND a.workspace_id = ?`,
      [campaignId, ctx.workspaceId],
    );
    if (!row) throw new AppError('not_found', `Campaign ${campaignId} was not found.`);
    if (amount === null) await deleteGoal(this.sql, row.account_id, campaignId);
    else
      await saveGoal(this.sql, {
        account_id: row.account_id,
        campaign_id: campaignId,
        kind: 'CPA',
        target: amount,
        updated_at: this.now(),
        updated_by: ctx.userId ?? null,
      });
  }

  async feedback(
    ctx: DiagnosticsContext,
    input: { diagnosticId: string; recommendationId: string; feedback: 'applied' | 'dismissed' },
  ): Promise<{ actionKind: ActionKind }> {
    const userId = await this.userFor(ctx);
    if (!userId) throw new AppError('not_found', 'The workspace has no user to record feedback for.');
    const owned = await this.sql.get(`SELECT 1 AS found FROM diagnostics WHERE id = ? AND workspace_id = ?`, [
      input.diagnosticId,
      ctx.workspaceId,
    ]);
    if (!owned) throw new AppError('not_found', `Diagnostic ${input.diagnosticId} was not found.`);
    return recordFeedback(this.sql, { ...input, userId, now: this.now() });
  }
}
