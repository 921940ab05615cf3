// Row types and row → API mapping for reports and report schedules (row types kept apart from API types).
import type {
  Report,
  ReportCadence,
  ReportDelivery,
  ReportFormat,
  ReportSections,
  ReportLocale,
  ReportSchedule,
  ReportStatus,
  ReportSummary,
  WhiteLabel,
} from '../../shared/api/reports';

export interface ReportRow {
  id: string;
  workspace_id: string;
  account_id: string;
  schedule_id: string | null;
  title: string;
  campaign_ids: string;
  format: ReportFormat;
  status: ReportStatus;
  date_from: string;
  date_to: string;
  /** JSON RenderOptions (see below): the white-label branding and whose Andromeda profile applies. */
  white_label: string | null;
  summary: string | null;
  file_path: string | null;
  error: string | null;
  due_at: string | null;
  created_at: string;
  completed_at: string | null;
  expires_at: string | null;
}

export interface ScheduleRow {
  id: string;
  workspace_id: string;
  account_id: string;
  cadence: ReportCadence;
  request: string;
  next_run_at: string;
  created_at: string;
  cancelled_at: string | null;
}

/**
 * What a report is rendered with beyond its columns. Kept in `reports.white_label` as JSON (the schema's
 * column for per-report rendering options), so no migration is needed for the requesting user.
 */
export interface RenderOptions {
  whiteLabel: WhiteLabel | null;
  userId: string | null;
  /** The report's language; absent on reports created before there was a choice (en). */
  locale?: ReportLocale;
  /** Sections switched off; the analyst's commentary; where the file goes besides the data directory. */
  sections?: ReportSections;
  commentary?: string;
  delivery?: ReportDelivery;
}

/** `report_schedules.request`: what each run of a schedule is created with. */
export interface ScheduleRequest extends RenderOptions {
  title: string;
  format: ReportFormat;
  campaignIds: string[] | null;
}

export function parseRenderOptions(value: string | null): RenderOptions {
  if (!value) return { whiteLabel: null, userId: null };
  const parsed = JSON.parse(value) as Partial<RenderOptions>;
  return {
    whiteLabel: parsed.whiteLabel ?? null,
    userId: parsed.userId ?? null,
    ...(parsed.locale ? { locale: parsed.locale } : {}),
    ...(parsed.sections ? { sections: parsed.sections } : {}),
    ...(parsed.commentary ? { commentary: parsed.commentary } : {}),
    ...(parsed.delivery ? { delivery: parsed.delivery } : {}),
  };
}

export function toReport(row: ReportRow, downloadUrl: string | null): Report {
  const report: Report = {
    id: row.id,
    title: row.title,
    campaignIds: JSON.parse(row.campaign_ids) as string[],
    accountId: row.account_id,
    status: row.status,
    format: row.format,
    dateRange: { from: row.date_from, to: row.date_to },
    summary: row.summary ? (JSON.parse(row.summary) as ReportSummary) : null,
    downloadUrl: row.status === 'completed' ? downloadUrl : null,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    dueAt: row.due_at,
    scheduleId: row.schedule_id,
  };
  if (row.status === 'failed' && row.error)
    report.error = JSON.parse(row.error) as { type: string; message: string };
  return report;
}

export function toSchedule(row: ScheduleRow): ReportSchedule {
  const request = JSON.parse(row.request) as ScheduleRequest;
  return {
    id: row.id,
    accountId: row.account_id,
    cadence: row.cadence,
    title: request.title,
    format: request.format,
    campaignIds: request.campaignIds,
    nextRunAt: row.next_run_at,
    createdAt: row.created_at,
    cancelledAt: row.cancelled_at,
    locale: request.locale ?? 'en',
    sections: request.sections ?? {},
    delivery: request.delivery ?? null,
  };
}
