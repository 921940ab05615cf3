// Wire pieces shared by every /v1 resource: envelopes, pagination, dates, IDs and the error body.
// One zod schema per shape gives the TypeScript type, request validation and the OpenAPI document.
import { z } from 'zod';
import { API_ERROR_STATUS, type ApiErrorType } from '../errors';

export const API_VERSIONS = ['2026-03-01'] as const;
export const CURRENT_API_VERSION = API_VERSIONS[0];
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_RANGE_DAYS = 90;
export const MAX_REPORT_CAMPAIGNS = 20;
export const INSIGHTS_DATE_RANGES = [
  'today',
  'yesterday',
  'last_7d',
  'last_14d',
  'last_30d',
  'lifetime',
] as const;
export type InsightsDateRange = (typeof INSIGHTS_DATE_RANGES)[number];

export const ErrorBody = z.object({
  error: z.object({
    type: z.enum(Object.keys(API_ERROR_STATUS) as [ApiErrorType, ...ApiErrorType[]]),
    message: z.string(),
    requestId: z.string().optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const Pagination = z.object({
  total: z.number().int().min(0),
  page: z.number().int().min(1),
  page_size: z.number().int().min(1).max(MAX_PAGE_SIZE),
  hasMore: z.boolean(),
});
export type Pagination = z.infer<typeof Pagination>;

export const Meta = z.object({ remaining_requests: z.number().int().min(0) });
export type Meta = z.infer<typeof Meta>;

export function dataEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ data: item, meta: Meta });
}

export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), pagination: Pagination, meta: Meta });
}

export const DateRange = z.object({ from: z.iso.date(), to: z.iso.date() });
export type DateRange = z.infer<typeof DateRange>;

export const Timestamp = z.iso.datetime();

// ---- Request pieces (query strings arrive as text; each field says what it accepts) ----

/** A calendar date, checked against the calendar (2026-02-30 is refused). */
export const DateParam = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((value) => {
    const parsed = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
  }, 'is not a calendar date');

const positiveInt = (max: number, label: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${label} must be a positive integer`)
    .transform(Number)
    .pipe(z.number().int().min(1, `${label} must be at least 1`).max(max, `${label} must be at most ${max}`));

export const PageQuery = {
  page: positiveInt(1_000_000, 'page').optional(),
  page_size: positiveInt(MAX_PAGE_SIZE, 'page_size').optional(),
};

/** The same parsing with the spec's defaults filled in (page 1, page_size 20). */
export const PageQueryWithDefaults = {
  page: positiveInt(1_000_000, 'page').default(1),
  page_size: positiveInt(MAX_PAGE_SIZE, 'page_size').default(DEFAULT_PAGE_SIZE),
};

/** An ad account as a request names it: service ID (act_ + 16 base62) or platform ID (act_<digits>). */
export const AccountIdParam = z
  .string()
  .regex(
    /^act_(\d{1,20}|[0-9A-Za-z]{16})$/,
    'must be a service account ID (act_ + 16 characters) or a platform account ID (act_<digits>)',
  );

export const serviceIdParam = (prefix: string) =>
  z
    .string()
    .regex(new RegExp(`^${prefix}_[0-9A-Za-z]{16}$`), `must be an ID of the form ${prefix}_<16 characters>`);

export const CampaignIdParam = serviceIdParam('camp');
export const DiagnosticIdParam = serviceIdParam('diag');
export const ReportIdParam = serviceIdParam('rpt');

export function pagination(total: number, page: number, pageSize: number): Pagination {
  return { total, page, page_size: pageSize, hasMore: page * pageSize < total };
}
