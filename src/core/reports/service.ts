// Reports: creation and validation, the generation queue (PDFs rendered in a worker thread), the
// lifecycle generating → completed | failed, recurring schedules (pending until due), listing, and
// signed downloads. Files live in <dataDir>/reports and survive restarts.
import type { Jobs } from '../jobs/jobs';
import { z } from 'zod';
import {
  CommentarySchema,
  ReportDeliverySchema,
  ReportFormatSchema,
  ReportCadenceSchema,
  ReportLocaleSchema,
  ReportSectionsSchema,
  WhiteLabelSchema,
  type Report,
  type ReportContent,
  type ReportDelivery,
  type ReportSections,
  type ReportCreated,
  type ReportFormat,
  type ReportLocale,
  type ReportSchedule,
  type ReportStatus,
  type WhiteLabel,
} from '../../shared/api/reports';
import { MAX_RANGE_DAYS, MAX_REPORT_CAMPAIGNS } from '../../shared/api/common';
import { daysBetween } from '../clock';
import type { Core } from '../core';
import { AppError } from '../errors';
import { newId } from '../ids';
import { WHITE_LABEL_PLANS, type RequestContext } from '../identity/access';
import { ReportRenderer } from './renderer';
import { CONTENT_TYPES, FILE_EXTENSIONS, toJobError } from './render';
import {
  parseRenderOptions,
  toReport,
  toSchedule,
  type RenderOptions,
  type ReportRow,
  type ScheduleRequest,
  type ScheduleRow,
} from './rows';
import { nextRun, runOn } from './schedule';
import { downloadFileName, signDownload, signingSecret, verifyDownload } from './signing';
import { ReportStore, deliveriesOf, insertDeliveries, type ListFilter as ReportListFilter } from './store';
import { buildReportContent } from './content';
import { DeliveryPump, deliveryRows, toDeliveryStatus } from './delivery';
import { resolveBranding } from './branding';

export const DOWNLOAD_VALIDITY_DAYS = 7;
const SCHEDULE_CHECK_MS = 60_000;

export interface ReportsServiceOptions {
  /** Render PDFs in a worker thread (default true); false renders them on the calling thread. */
  renderInWorker?: boolean;
  /** How often due scheduled reports are looked for (default one minute). */
  scheduleCheckMs?: number;
}

export interface CreateReportInput {
  accountId: string;
  title: string;
  dateFrom: string;
  dateTo: string;
  campaignIds?: string[];
  format?: ReportFormat;
  whiteLabel?: WhiteLabel;
  locale?: ReportLocale;
  sections?: ReportSections;
  commentary?: string;
  delivery?: ReportDelivery;
}

export interface ScheduleReportInput {
  accountId: string;
  title: string;
  cadence: 'weekly' | 'monthly';
  format?: ReportFormat;
  campaignIds?: string[];
  whiteLabel?: WhiteLabel;
  locale?: ReportLocale;
  sections?: ReportSections;
  commentary?: string;
  delivery?: ReportDelivery;
}

export type { ReportListFilter };

export interface ReportFile {
  contentType: string;
  /** An ASCII file name, safe in any header. */
  fileName: string;
  /** The readable (UTF-8) file name: title and date range. */
  utf8FileName: string;
  /** `attachment; filename="<ascii>"; filename*=UTF-8''<utf-8>` (RFC 6266). */
  contentDisposition: string;
  body: Buffer;
}

const createInput = z.object({
  accountId: z.string().min(1),
  title: z.string().trim().min(1, 'title must not be empty').max(200),
  dateFrom: z.iso.date(),
  dateTo: z.iso.date(),
  campaignIds: z.array(z.string().min(1)).optional(),
  format: ReportFormatSchema.optional(),
  whiteLabel: WhiteLabelSchema.optional(),
  locale: ReportLocaleSchema.optional(),
  sections: ReportSectionsSchema.optional(),
  commentary: CommentarySchema.optional(),
  delivery: ReportDeliverySchema.optional(),
});

const scheduleInput = createInput
  .omit({ dateFrom: true, dateTo: true })
  .extend({ cadence: ReportCadenceSchema });

function invalid(error: z.ZodError): AppError {
  return new AppError(
    'invalid_request',
    error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`).join('; '),
  );
}

export class ReportsService {
  private readonly store: ReportStore;
  private readonly renderer: ReportRenderer;
  private readonly jobs: Jobs;
  private baseUrl = '';
  private baseUrlKnown: Promise<void> = Promise.resolve();
  private secret: Promise<string> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private resuming: Promise<void> | null = null;
  private duePass: Promise<number> | null = null;
  private readonly deliveries: DeliveryPump;

  constructor(
    private readonly core: Core,
    private readonly options: ReportsServiceOptions = {},
  ) {
    this.store = new ReportStore(core.sql);
    this.jobs = core.jobs('report', {
      run: (id) => this.generate(id),
      onError: (id, error) =>
        core.logger.error('report generation crashed', { reportId: id, error: String(error) }),
    });
    this.deliveries = new DeliveryPump(core, {
      completedReport: async (id) => {
        const row = await this.store.byId(id);
        return row?.status === 'completed' ? row : undefined;
      },
      fileOf: (row) => this.readFile(row),
      changed: (row) => this.changed(row.workspace_id, row.id, 'completed'),
    });
    this.renderer = new ReportRenderer(core.sql, core.reportFiles, {
      dataDir: core.reportFiles.dataDir,
      useWorker: options.renderInWorker ?? true,
      logger: core.logger,
    });
  }

  /** The /v1 server's origin (http://127.0.0.1:PORT), the base of every downloadUrl. */
  /**
   * The URL of the server that last ran on this store, for a host without a /v1 server of its own
   * (the CLI): links then match every transport's. Read asynchronously; `ready()` waits for it.
   */
  useRecordedBaseUrl(recorded: Promise<string | undefined>): void {
    this.baseUrlKnown = recorded.then(
      (url) => {
        if (url && !this.baseUrl) this.setBaseUrl(url);
      },
      () => {},
    );
  }

  /** Resolves once the download links' base URL is known. */
  ready(): Promise<void> {
    return this.baseUrlKnown;
  }

  setBaseUrl(url: string): void {
    this.baseUrl = url.replace(/\/+$/, '');
  }

  async create(ctx: RequestContext, input: CreateReportInput): Promise<ReportCreated> {
    const parsed = createInput.safeParse(input);
    if (!parsed.success) throw invalid(parsed.error);
    const data = parsed.data;
    this.checkLimits(ctx, data.campaignIds, data.whiteLabel);
    if (data.dateFrom > data.dateTo) {
      throw new AppError(
        'invalid_date_range',
        `date_start ${data.dateFrom} is after date_end ${data.dateTo}.`,
      );
    }
    if (daysBetween(data.dateFrom, data.dateTo) > MAX_RANGE_DAYS) {
      throw new AppError('invalid_date_range', `A report covers at most ${MAX_RANGE_DAYS} days.`);
    }
    const account = await this.store.account(ctx, data.accountId);
    const campaignIds = data.campaignIds
      ? await this.store.resolveCampaigns(account.id, data.campaignIds)
      : await this.store.defaultCampaigns(account.id, data.dateFrom, data.dateTo, MAX_REPORT_CAMPAIGNS);
    const now = this.core.clock.now().toISOString();
    const format = data.format ?? 'pdf';
    const row: ReportRow = {
      id: newId('rpt'),
      workspace_id: ctx.workspaceId,
      account_id: account.id,
      schedule_id: null,
      title: data.title,
      campaign_ids: JSON.stringify(campaignIds),
      format,
      status: 'generating',
      date_from: data.dateFrom,
      date_to: data.dateTo,
      white_label: JSON.stringify({
        whiteLabel: data.whiteLabel ?? null,
        userId: ctx.userId,
        ...(data.locale ? { locale: data.locale } : {}),
        ...(data.sections ? { sections: data.sections } : {}),
        ...(data.commentary ? { commentary: data.commentary } : {}),
        ...(data.delivery ? { delivery: data.delivery } : {}),
      } satisfies RenderOptions),
      summary: null,
      file_path: null,
      error: null,
      due_at: null,
      created_at: now,
      completed_at: null,
      expires_at: null,
    };
    await this.store.insert(row);
    this.changed(row.workspace_id, row.id, 'generating');
    this.enqueue(row.id);
    return {
      id: row.id,
      title: row.title,
      accountId: row.account_id,
      status: 'generating',
      dateRange: { from: row.date_from, to: row.date_to },
      createdAt: now,
      estimatedCompletionSeconds: format === 'pdf' ? 2 : 1,
    };
  }

  async get(ctx: RequestContext, id: string): Promise<Report | undefined> {
    const row = await this.store.visible(ctx, id);
    return row ? (await this.withDeliveries([toReport(row, await this.downloadUrl(row))]))[0] : undefined;
  }

  async list(ctx: RequestContext, f: ReportListFilter): Promise<{ items: Report[]; total: number }> {
    const { rows, total } = await this.store.list(ctx, f);
    return {
      items: await this.withDeliveries(
        await Promise.all(rows.map(async (row) => toReport(row, await this.downloadUrl(row)))),
      ),
      total,
    };
  }

  /**
   * The content of a report not generated yet, for the preview beside the form: built on this thread
   * from the store (a few milliseconds), with the branding the report would get.
   */
  async preview(ctx: RequestContext, input: CreateReportInput): Promise<ReportContent> {
    const parsed = createInput.safeParse(input);
    if (!parsed.success) throw invalid(parsed.error);
    const data = parsed.data;
    this.checkLimits(ctx, data.campaignIds, data.whiteLabel);
    const account = await this.store.account(ctx, data.accountId);
    const campaignIds = data.campaignIds
      ? await this.store.resolveCampaigns(account.id, data.campaignIds)
      : await this.store.defaultCampaigns(account.id, data.dateFrom, data.dateTo, MAX_REPORT_CAMPAIGNS);
    return buildReportContent(this.core.sql, {
      reportId: 'rpt_preview',
      workspaceId: ctx.workspaceId,
      accountId: account.id,
      campaignIds,
      title: data.title,
      dateFrom: data.dateFrom,
      dateTo: data.dateTo,
      whiteLabel: await this.brandingFor(ctx.workspaceId, account.id, data.whiteLabel ?? null),
      locale: data.locale,
      sections: data.sections,
      commentary: data.commentary ?? null,
      userId: ctx.userId,
      generatedAt: this.core.clock.now(),
    });
  }

  /** The branding a report gets (branding.ts). */
  brandingFor(
    workspaceId: string,
    accountId: string,
    explicit: WhiteLabel | null,
  ): Promise<WhiteLabel | null> {
    return resolveBranding(this.core.sql, workspaceId, accountId, explicit);
  }

  private async withDeliveries(reports: Report[]): Promise<Report[]> {
    const rows = await deliveriesOf(
      this.core.sql,
      reports.map((r) => r.id),
    );
    if (rows.length === 0) return reports;
    return reports.map((r) => {
      const mine = rows.filter((d) => d.report_id === r.id);
      return mine.length > 0 ? { ...r, deliveries: mine.map(toDeliveryStatus) } : r;
    });
  }

  /** The file behind a signed link. Every refusal is 404 not_found (DESIGN §5), with a precise message. */
  async download(
    ctx: RequestContext,
    id: string,
    q: { expires: string; signature: string },
  ): Promise<ReportFile> {
    const row = await this.store.visible(ctx, id);
    if (!row) throw new AppError('not_found', `Report ${id} was not found.`);
    if (row.status !== 'completed') {
      throw new AppError(
        'not_found',
        `Report ${id} is not completed yet (status ${row.status}); nothing to download.`,
      );
    }
    if (!verifyDownload(await this.signingSecret(), id, q.expires, q.signature)) {
      throw new AppError('not_found', `The download link of report ${id} has an invalid signature.`);
    }
    if (Number(q.expires) * 1000 <= this.core.clock.now().getTime()) {
      throw new AppError('not_found', `The download link of report ${id} has expired; request a new report.`);
    }
    return this.readFile(row);
  }

  /** The file of a completed report without a signed link: for the desktop app, which has no URL to sign. */
  async openFile(ctx: RequestContext, id: string): Promise<ReportFile> {
    const row = await this.store.visible(ctx, id);
    if (!row || row.status !== 'completed') {
      throw new AppError('not_found', `Report ${id} was not found or is not completed.`);
    }
    return this.readFile(row);
  }

  /** Where a completed report's file is on disk (for the CLI), or null. */
  async localPath(ctx: RequestContext, id: string): Promise<string | null> {
    const row = await this.store.visible(ctx, id);
    return row?.status === 'completed' && row.file_path ? this.core.reportFiles.pathOf(row.file_path) : null;
  }

  async schedule(ctx: RequestContext, input: ScheduleReportInput): Promise<ReportSchedule> {
    const parsed = scheduleInput.safeParse(input);
    if (!parsed.success) throw invalid(parsed.error);
    const data = parsed.data;
    this.checkLimits(ctx, data.campaignIds, data.whiteLabel);
    const account = await this.store.account(ctx, data.accountId);
    const campaignIds = data.campaignIds
      ? await this.store.resolveCampaigns(account.id, data.campaignIds)
      : null;
    const now = this.core.clock.now();
    const request: ScheduleRequest = {
      title: data.title,
      format: data.format ?? 'pdf',
      campaignIds,
      whiteLabel: data.whiteLabel ?? null,
      userId: ctx.userId,
      ...(data.locale ? { locale: data.locale } : {}),
      ...(data.sections ? { sections: data.sections } : {}),
      ...(data.commentary ? { commentary: data.commentary } : {}),
      ...(data.delivery ? { delivery: data.delivery } : {}),
    };
    const run = nextRun(data.cadence, now);
    const schedule: ScheduleRow = {
      id: newId('sched'),
      workspace_id: ctx.workspaceId,
      account_id: account.id,
      cadence: data.cadence,
      request: JSON.stringify(request),
      next_run_at: run.dueAt,
      created_at: now.toISOString(),
      cancelled_at: null,
    };
    await this.core.sql.transaction(async (tx) => {
      const store = this.store.on(tx);
      await store.insertSchedule(schedule);
      await this.insertPendingRun(store, schedule, request, now.toISOString());
    });
    return toSchedule(schedule);
  }

  async listSchedules(ctx: RequestContext): Promise<ReportSchedule[]> {
    return (await this.store.schedules(ctx)).map(toSchedule);
  }

  /** Stops a schedule; its pending (not yet due) report is removed. */
  async cancelSchedule(ctx: RequestContext, id: string): Promise<ReportSchedule> {
    const row = (await this.store.schedules(ctx)).find((s) => s.id === id);
    if (!row) throw new AppError('not_found', `Report schedule ${id} was not found.`);
    if (!row.cancelled_at) {
      row.cancelled_at = this.core.clock.now().toISOString();
      await this.store.cancelSchedule(id, row.cancelled_at);
    }
    return toSchedule(row);
  }

  /**
   * At start: reports left `generating` by a process that died are generated again (the content is
   * rebuilt from the store, so the result is the same), and due scheduled reports start. Then a timer
   * (unref'd: it never keeps a process alive) looks for due reports every minute.
   */
  resume(): Promise<void> {
    this.jobs.start();
    this.resuming = this.safely(async () => {
      for (const id of await this.store.idsWithStatus('generating')) this.enqueue(id);
      await this.runDue();
      void this.deliverDue();
    });
    if (!this.timer) {
      this.timer = setInterval(() => {
        void this.safely(() => this.runDue());
        void this.deliverDue();
      }, this.options.scheduleCheckMs ?? SCHEDULE_CHECK_MS);
      this.timer.unref();
    }
    return this.resuming;
  }

  /**
   * Moves due `pending` reports to `generating` and schedules each one's next run. Returns how many.
   * One pass at a time; a report another pass (or process) already took is skipped.
   */
  runDue(): Promise<number> {
    this.duePass ??= this.startDue().finally(() => {
      this.duePass = null;
    });
    return this.duePass;
  }

  private async startDue(): Promise<number> {
    if (this.jobs.isStopped) return 0;
    const now = this.core.clock.now();
    let started = 0;
    for (const row of await this.store.duePending(now.toISOString())) {
      const claimed = await this.core.sql.transaction(async (tx) => {
        const store = this.store.on(tx);
        if (!(await store.claimPending(row.id))) return false;
        const schedule = row.schedule_id ? await store.schedule(row.schedule_id) : undefined;
        if (schedule && !schedule.cancelled_at) {
          const run = nextRun(schedule.cadence, now);
          schedule.next_run_at = run.dueAt;
          await store.setNextRun(schedule.id, run.dueAt);
          await this.insertPendingRun(
            store,
            schedule,
            JSON.parse(schedule.request) as ScheduleRequest,
            now.toISOString(),
          );
        }
        return true;
      });
      if (!claimed) continue;
      started += 1;
      this.changed(row.workspace_id, row.id, 'generating');
      this.enqueue(row.id);
    }
    return started;
  }

  private async safely(work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.core.logger.error('scheduled reports failed', { error: String(error) });
    }
  }

  /** Resolves when no report is queued or generating and no delivery is being attempted. */
  async whenIdle(): Promise<void> {
    await this.jobs.whenIdle();
    await this.deliveries.whenIdle();
  }

  /**
   * Attempts the deliveries that are due (new ones at once, failed ones after their backoff), one
   * pass at a time; each outcome is saved on its row and announced as a report change.
   */
  deliverDue(): Promise<void> {
    return this.deliveries.deliverDue();
  }

  /** Resolves with the report once it is completed or failed (for the CLI and tests). */
  async waitFor(ctx: RequestContext, id: string): Promise<Report> {
    for (;;) {
      // Listening before reading: a change while the read is under way is not missed.
      let off = (): void => {};
      const changed = new Promise<void>((resolve) => {
        off = this.core.events.on('report.changed', (event) => {
          if (event.reportId === id) resolve();
        });
      });
      try {
        const report = await this.get(ctx, id);
        if (!report) throw new AppError('not_found', `Report ${id} was not found.`);
        if (report.status === 'completed' || report.status === 'failed') return report;
        await changed;
      } finally {
        off();
      }
    }
  }

  /** Starts the render worker now rather than on the first PDF. */
  warmUp(): Promise<void> {
    return this.renderer.warmUp();
  }

  /** No new work; waits for the report being generated, then ends the worker. Queued ones stay `generating` for resume(). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.resuming;
    await this.duePass;
    await this.jobs.stop();
    await this.deliveries.whenIdle();
    await this.renderer.close();
  }

  // ---- internals ----

  /**
   * The plan and size rules of a report request, once for every transport: at most 20 distinct
   * campaigns (a campaign named twice is one campaign of the report), white-label on plans that have it.
   */
  checkLimits(
    ctx: RequestContext,
    campaignIds: readonly string[] | undefined,
    whiteLabel: WhiteLabel | undefined,
  ): void {
    if (campaignIds && new Set(campaignIds).size > MAX_REPORT_CAMPAIGNS) {
      throw new AppError(
        'too_many_campaigns',
        `A report covers at most ${MAX_REPORT_CAMPAIGNS} campaigns; ${new Set(campaignIds).size} were given.`,
      );
    }
    if (whiteLabel && !WHITE_LABEL_PLANS.includes(ctx.plan)) {
      throw new AppError(
        'white_label_not_available',
        `White-label reports need the Agency plan; this workspace is on the ${ctx.plan} plan.`,
      );
    }
  }

  private async insertPendingRun(
    store: ReportStore,
    schedule: ScheduleRow,
    request: ScheduleRequest,
    now: string,
  ): Promise<void> {
    const window = runOn(schedule.cadence, schedule.next_run_at.slice(0, 10));
    await store.insert({
      id: newId('rpt'),
      workspace_id: schedule.workspace_id,
      account_id: schedule.account_id,
      schedule_id: schedule.id,
      title: request.title,
      campaign_ids: JSON.stringify(request.campaignIds ?? []),
      format: request.format,
      status: 'pending',
      date_from: window.dateFrom,
      date_to: window.dateTo,
      white_label: JSON.stringify({
        whiteLabel: request.whiteLabel,
        userId: request.userId,
        ...(request.locale ? { locale: request.locale } : {}),
        ...(request.sections ? { sections: request.sections } : {}),
        ...(request.commentary ? { commentary: request.commentary } : {}),
        ...(request.delivery ? { delivery: request.delivery } : {}),
      } satisfies RenderOptions),
      summary: null,
      file_path: null,
      error: null,
      due_at: window.dueAt,
      created_at: now,
      completed_at: null,
      expires_at: null,
    });
  }

  private enqueue(id: string): void {
    this.jobs.enqueue(id);
  }

  private async generate(id: string): Promise<void> {
    const row = await this.store.byId(id);
    if (!row || row.status !== 'generating') return;
    const options = parseRenderOptions(row.white_label);
    const relativePath = `reports/${row.id}.${FILE_EXTENSIONS[row.format]}`;
    try {
      let campaignIds = JSON.parse(row.campaign_ids) as string[];
      if (campaignIds.length === 0 && row.schedule_id) {
        // A scheduled run without a fixed list covers the account's top campaigns of its own window.
        campaignIds = await this.store.defaultCampaigns(
          row.account_id,
          row.date_from,
          row.date_to,
          MAX_REPORT_CAMPAIGNS,
        );
        await this.store.setCampaigns(row.id, campaignIds);
      }
      const result = await this.renderer.generate({
        format: row.format,
        relativePath,
        input: {
          reportId: row.id,
          workspaceId: row.workspace_id,
          accountId: row.account_id,
          campaignIds,
          title: row.title,
          dateFrom: row.date_from,
          dateTo: row.date_to,
          // Resolved when rendered, so a schedule's runs carry the client's current branding.
          whiteLabel: await this.brandingFor(row.workspace_id, row.account_id, options.whiteLabel),
          locale: options.locale,
          sections: options.sections,
          commentary: options.commentary ?? null,
          userId: options.userId,
          generatedAt: this.core.clock.now().toISOString(),
        },
      });
      const completedAt = this.core.clock.now();
      const expiresAt = new Date(completedAt.getTime() + DOWNLOAD_VALIDITY_DAYS * 86_400_000);
      await this.store.complete(row.id, {
        summary: JSON.stringify(result.summary),
        filePath: relativePath,
        completedAt: completedAt.toISOString(),
        expiresAt: expiresAt.toISOString(),
      });
      const deliveries = deliveryRows(row.id, options.delivery, completedAt.toISOString());
      if (deliveries.length > 0) await insertDeliveries(this.core.sql, deliveries);
      this.changed(row.workspace_id, row.id, 'completed');
      if (deliveries.length > 0) void this.deliverDue();
    } catch (error) {
      const reason = toJobError(error);
      this.core.logger.warn('report generation failed', { reportId: row.id, ...reason });
      await this.store.fail(row.id, JSON.stringify(reason), this.core.clock.now().toISOString());
      this.changed(row.workspace_id, row.id, 'failed');
    }
  }

  private async readFile(row: ReportRow): Promise<ReportFile> {
    const body = row.file_path ? await this.core.reportFiles.read(row.id, row.file_path) : null;
    if (!body) {
      throw new AppError('not_found', `The file of report ${row.id} is no longer in the store.`);
    }
    const names = downloadFileName(row.title, row.date_from, row.date_to, FILE_EXTENSIONS[row.format]);
    return {
      contentType: CONTENT_TYPES[row.format],
      fileName: names.asciiFileName,
      utf8FileName: names.fileName,
      contentDisposition: names.contentDisposition,
      body,
    };
  }

  private async downloadUrl(row: ReportRow): Promise<string | null> {
    if (row.status !== 'completed' || !row.expires_at) return null;
    const expires = Math.floor(Date.parse(row.expires_at) / 1000);
    const signature = signDownload(await this.signingSecret(), row.id, expires);
    return `${this.baseUrl}/v1/reports/${row.id}/download?expires=${expires}&signature=${signature}`;
  }

  /** The install's signing secret (read once; made by the first process that needs it). */
  private signingSecret(): Promise<string> {
    return (this.secret ??= signingSecret(this.core.sql));
  }

  private changed(workspaceId: string, reportId: string, status: ReportStatus): void {
    this.core.events.emit('report.changed', { workspaceId, reportId, status });
  }
}
