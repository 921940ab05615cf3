// The report resource (camelCase on the wire), its POST body (snake_case, DESIGN §5), the list filters
// (camelCase, as the spec says for reports) and the ReportContent model that every format renders:
// the JSON format is exactly a ReportContent, validated by ReportContentSchema.
// Shared with the renderer, so no Node APIs here (atob, not Buffer).
import { z } from 'zod';
import { MAX_REPORT_CAMPAIGNS, DateParam, PageQueryWithDefaults } from './common';
import { RiskLevelSchema, RiskAppetiteSchema, FocusMetricSchema } from './diagnostics';

export const REPORT_FORMATS = ['json', 'pdf', 'markdown'] as const;
export const ReportFormatSchema = z.enum(REPORT_FORMATS);

/** Languages a report's fixed text, dates and numbers come in (catalogues: core/reports/i18n). */
export const REPORT_LOCALES = ['en', 'ja'] as const;
export const ReportLocaleSchema = z.enum(REPORT_LOCALES);
export type ReportLocale = z.infer<typeof ReportLocaleSchema>;
export type ReportFormat = z.infer<typeof ReportFormatSchema>;

export const REPORT_STATUSES = ['pending', 'generating', 'completed', 'failed'] as const;
export const ReportStatusSchema = z.enum(REPORT_STATUSES);
export type ReportStatus = z.infer<typeof ReportStatusSchema>;

export const REPORT_CADENCES = ['weekly', 'monthly'] as const;
export const ReportCadenceSchema = z.enum(REPORT_CADENCES);
export type ReportCadence = z.infer<typeof ReportCadenceSchema>;

export const MAX_LOGO_BYTES = 256 * 1024;
export const LOGO_DATA_URI = /^data:image\/(png|jpeg);base64,([A-Za-z0-9+/]+={0,2})$/;

/** The decoded bytes of a PNG or JPEG data URI, or an explanation of why it is not one we accept. */
export function decodeLogo(
  dataUri: string,
): { ok: true; mimeType: 'image/png' | 'image/jpeg'; bytes: Uint8Array } | { ok: false; reason: string } {
  const match = LOGO_DATA_URI.exec(dataUri);
  if (!match)
    return { ok: false, reason: 'logo must be a data:image/png or data:image/jpeg base64 data URI' };
  const kind = match[1] === 'png' ? 'image/png' : 'image/jpeg';
  const base64 = match[2] ?? '';
  // Cheap size check before decoding: 4 base64 characters carry 3 bytes.
  if (Math.floor((base64.length * 3) / 4) - 2 > MAX_LOGO_BYTES) {
    return { ok: false, reason: `logo is larger than ${MAX_LOGO_BYTES / 1024} KB` };
  }
  let binary: string;
  try {
    binary = atob(base64);
  } catch {
    return { ok: false, reason: 'logo is not valid base64' };
  }
  if (binary.length > MAX_LOGO_BYTES) {
    return { ok: false, reason: `logo is larger than ${MAX_LOGO_BYTES / 1024} KB` };
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  const jpeg = [0xff, 0xd8, 0xff];
  const magic = kind === 'image/png' ? png : jpeg;
  if (bytes.length < magic.length || magic.some((byte, i) => bytes[i] !== byte)) {
    return { ok: false, reason: `logo content is not a ${kind === 'image/png' ? 'PNG' : 'JPEG'} image` };
  }
  return { ok: true, mimeType: kind, bytes };
}

/** White-label branding (Agency plan only): replaces AdLens branding in every format. */
export const WhiteLabelSchema = z
  .object({
    companyName: z.string().trim().min(1, 'companyName must not be empty').max(100),
    logo: z
      .string()
      .superRefine((value, ctx) => {
        const decoded = decodeLogo(value);
        if (!decoded.ok) ctx.addIssue({ code: 'custom', message: decoded.reason });
      })
      .optional(),
    primaryColor: z
      .string()
      .regex(/^#[0-9A-Fa-f]{6}$/, 'primaryColor must be #RRGGBB')
      .optional(),
    footerText: z.string().trim().max(200).optional(),
  })
  .strict();
export type WhiteLabel = z.infer<typeof WhiteLabelSchema>;

/** The parts of a report that can be switched on and off (all on by default). */
export const REPORT_SECTIONS = [
  'commentary',
  'kpis',
  'summary',
  'goals',
  'trend',
  'campaigns',
  'diagnostics',
] as const;
export const ReportSectionSchema = z.enum(REPORT_SECTIONS);
export type ReportSection = z.infer<typeof ReportSectionSchema>;
/** Sections as a set of switches; a section left out is on. */
export const ReportSectionsSchema = z
  .object(
    Object.fromEntries(REPORT_SECTIONS.map((s) => [s, z.boolean().optional()])) as {
      [K in ReportSection]: z.ZodOptional<z.ZodBoolean>;
    },
  )
  .strict();
export type ReportSections = z.infer<typeof ReportSectionsSchema>;
export const MAX_COMMENTARY_CHARS = 4000;
/** The analyst's commentary: Markdown-light text (paragraphs, `- ` bullets, **bold**, *italic*). */
export const CommentarySchema = z.string().trim().max(MAX_COMMENTARY_CHARS);

/** Where a finished report goes besides the data directory: a folder and/or e-mail addresses. */
export const ReportDeliverySchema = z
  .object({
    /** An absolute folder path on this machine; created if missing. */
    folder: z
      .string()
      .trim()
      .min(1)
      .max(1000)
      .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p), 'folder must be an absolute path')
      .optional(),
    /** Sent through the workspace's SMTP server (the alerts' settings), the file attached. */
    emails: z.array(z.email()).max(20).optional(),
  })
  .strict();
export type ReportDelivery = z.infer<typeof ReportDeliverySchema>;

/** POST /v1/reports body (DESIGN §5). Range rules (start ≤ end, ≤ 90 days) are checked by the service. */
export const CreateReportBodySchema = z
  .object({
    account_id: z.string().min(1),
    title: z.string().trim().min(1, 'title must not be empty').max(200),
    date_start: DateParam,
    date_end: DateParam,
    // The count limit is its own error type (too_many_campaigns), so it is not enforced here. An empty
    // list is refused: a report covers campaigns (leave the field out for the default selection).
    campaign_ids: z
      .array(z.string().min(1))
      .min(1, 'campaign_ids must name at least one campaign (omit it for the default selection)')
      .optional(),
    format: ReportFormatSchema.optional(),
    whiteLabel: WhiteLabelSchema.optional(),
    /** An addition to the spec: the report's language (default en). */
    locale: ReportLocaleSchema.optional(),
    /** Additions to the spec: sections switched off, the analyst's commentary. (Delivery to a folder or
     *  by e-mail is the app's and the CLI's: a key must not write files or send mail as the agency.) */
    sections: ReportSectionsSchema.optional(),
    commentary: CommentarySchema.optional(),
  })
  .strict();
export type CreateReportBody = z.infer<typeof CreateReportBodySchema>;

/** GET /v1/reports query: camelCase filters (the spec's exception), page and page_size. */
export const ListReportsQuerySchema = z
  .object({
    campaignId: z.string().min(1).optional(),
    accountId: z.string().min(1).optional(),
    status: ReportStatusSchema.optional(),
    format: ReportFormatSchema.optional(),
    from: z.iso.datetime({ offset: true }).or(DateParam).optional(),
    to: z.iso.datetime({ offset: true }).or(DateParam).optional(),
    ...PageQueryWithDefaults,
  })
  .strict();
export type ListReportsQuery = z.infer<typeof ListReportsQuerySchema>;

/** GET /v1/reports/{id}/download query: the signed link's parameters. */
/** Checked by the signature itself: a missing, malformed or altered link is 404 (DESIGN §5), not 400. */
export const DownloadReportQuerySchema = z
  .object({ expires: z.string().max(64).default(''), signature: z.string().max(128).default('') })
  .strict();
export type DownloadReportQuery = z.infer<typeof DownloadReportQuerySchema>;

export const ReportSummarySchema = z.object({
  totalSpend: z.number(),
  totalConversions: z.number().int(),
  /** Total spend / total conversions (null without conversions), as insights `cpa`. */
  avgCpa: z.number().nullable(),
  /** Total revenue / total spend (null without spend), as insights `roas`. */
  avgRoas: z.number().nullable(),
  /** The highest risk level among the covered campaigns' latest diagnostics in range; LOW when none. */
  overallRiskLevel: RiskLevelSchema,
});
export type ReportSummary = z.infer<typeof ReportSummarySchema>;

const DateRangeSchema = z.object({ from: DateParam, to: DateParam });

export const ReportErrorSchema = z.object({ type: z.string(), message: z.string() });

export const ReportSchema = z.object({
  id: z.string(),
  title: z.string(),
  campaignIds: z.array(z.string()),
  accountId: z.string(),
  status: ReportStatusSchema,
  format: ReportFormatSchema,
  dateRange: DateRangeSchema,
  /** Null until the report's content has been built. */
  summary: ReportSummarySchema.nullable(),
  /** Filled once status is completed (signed, valid 7 days). */
  downloadUrl: z.string().nullable(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  /** A scheduled (recurring) report: when it becomes due while `pending`. */
  dueAt: z.string().nullable(),
  scheduleId: z.string().nullable(),
  /** Present when status is failed. */
  error: ReportErrorSchema.optional(),
  /** An addition: one line per delivery target (folder, e-mail address), absent when none. */
  deliveries: z
    .array(
      z.object({
        channel: z.enum(['folder', 'email']),
        target: z.string(),
        status: z.enum(['pending', 'delivered', 'failed']),
        attempts: z.number().int(),
        lastError: z.string().nullable(),
        deliveredAt: z.string().nullable(),
        path: z.string().nullable(),
      }),
    )
    .optional(),
});
export type ReportDeliveryStatus = NonNullable<z.infer<typeof ReportSchema>['deliveries']>[number];
export type Report = z.infer<typeof ReportSchema>;

export const ReportCreatedSchema = z.object({
  id: z.string(),
  title: z.string(),
  accountId: z.string(),
  status: z.literal('generating'),
  dateRange: DateRangeSchema,
  createdAt: z.string(),
  estimatedCompletionSeconds: z.number().int().min(1),
});
export type ReportCreated = z.infer<typeof ReportCreatedSchema>;

/** A recurring report (created in the app and the CLI; not part of /v1). */
export const ReportScheduleSchema = z.object({
  id: z.string(),
  accountId: z.string(),
  cadence: ReportCadenceSchema,
  title: z.string(),
  format: ReportFormatSchema,
  campaignIds: z.array(z.string()).nullable(),
  nextRunAt: z.string(),
  createdAt: z.string(),
  cancelledAt: z.string().nullable(),
  locale: ReportLocaleSchema,
  sections: ReportSectionsSchema,
  delivery: ReportDeliverySchema.nullable(),
});
export type ReportSchedule = z.infer<typeof ReportScheduleSchema>;

export const CreateReportScheduleSchema = z
  .object({
    accountId: z.string().min(1),
    title: z.string().trim().min(1).max(200),
    cadence: ReportCadenceSchema,
    format: ReportFormatSchema.optional(),
    campaignIds: z.array(z.string().min(1)).optional(),
    whiteLabel: WhiteLabelSchema.optional(),
    locale: ReportLocaleSchema.optional(),
    sections: ReportSectionsSchema.optional(),
    commentary: CommentarySchema.optional(),
    delivery: ReportDeliverySchema.optional(),
  })
  .strict();
export type CreateReportSchedule = z.infer<typeof CreateReportScheduleSchema>;

// ---- The report content: one model, rendered as JSON, Markdown and PDF ----

const nullableNumber = z.number().nullable();

export const ReportDiagnosticSchema = z.object({
  id: z.string(),
  /** campaign: the campaign's own diagnostic; account: an account-wide one, narrowed to this campaign. */
  scope: z.enum(['campaign', 'account']),
  completedAt: z.string(),
  dateRange: DateRangeSchema,
  riskLevel: RiskLevelSchema,
  summary: z.string(),
  issues: z.array(
    z.object({
      id: z.string(),
      type: z.string(),
      severity: z.string(),
      title: z.string(),
      description: z.string(),
    }),
  ),
  recommendations: z.array(
    z.object({
      id: z.string(),
      priority: z.number().int(),
      action: z.string(),
      rationale: z.string(),
      expectedImpact: z.string(),
    }),
  ),
});
export type ReportDiagnostic = z.infer<typeof ReportDiagnosticSchema>;

export const ReportCampaignSchema = z.object({
  id: z.string(),
  platformCampaignId: z.string(),
  name: z.string(),
  status: z.string(),
  spend: z.number(),
  impressions: z.number().int(),
  clicks: z.number().int(),
  /** The campaign's results, counted as its result type (`resultType`, named `resultName`). */
  conversions: z.number().int(),
  /** Cost per result of its own result type (null for MIXED: its ad sets count different results). */
  cpa: nullableNumber,
  /** Null when the campaign has no purchase value in range (not 0.00x). */
  roas: nullableNumber,
  ctr: nullableNumber,
  cpm: nullableNumber,
  /** What the campaign's results are (src/core/platform/results.ts); null when synced before result types. */
  resultType: z.string().nullable(),
  resultName: z.string().nullable(),
  /** The latest diagnostic's risk level, null when the campaign has none in range. */
  riskLevel: RiskLevelSchema.nullable(),
  latestDiagnostic: ReportDiagnosticSchema.nullable(),
});
export type ReportCampaign = z.infer<typeof ReportCampaignSchema>;

export const ReportBrandingSchema = z.object({
  /** True when the branding is the customer's (white-label), false for AdLens's own. */
  whiteLabel: z.boolean(),
  companyName: z.string(),
  primaryColor: z.string().regex(/^#[0-9A-Fa-f]{6}$/),
  footerText: z.string(),
  /** PNG or JPEG data URI, or null (the PDF then shows the company name as a wordmark). */
  logo: z.string().nullable(),
});
export type ReportBranding = z.infer<typeof ReportBrandingSchema>;

export const REPORT_CONTENT_VERSION = 1;

export const KpiSchema = z.object({
  /** spend | results | costPerResult | roas */
  metric: z.enum(['spend', 'results', 'costPerResult', 'roas']),
  /** The result type's name for results and cost per result; null otherwise. */
  resultName: z.string().nullable(),
  value: nullableNumber,
  previous: nullableNumber,
  /** Percent change against the previous period (null without a previous value). */
  change: nullableNumber,
  /** Whether the change is good news (CPA up is bad), for the colour. */
  tone: z.enum(['good', 'bad', 'neutral']),
});
export type Kpi = z.infer<typeof KpiSchema>;

export const GoalActualSchema = z.object({
  /** Null for the account's own goal (all campaigns of the report). */
  campaignId: z.string().nullable(),
  campaignName: z.string().nullable(),
  kind: z.enum(['CPA', 'ROAS']),
  target: z.number(),
  /** Cost per result or ROAS in the period; null when it cannot be computed (no results, mixed types). */
  actual: nullableNumber,
  /** True when the goal was met, false when missed, null when there is no actual. */
  met: z.boolean().nullable(),
  /** Whether the campaign's goal is its own or the account's. */
  source: z.enum(['campaign', 'account']),
});
export type GoalActual = z.infer<typeof GoalActualSchema>;

export const ReportContentSchema = z
  .object({
    schemaVersion: z.literal(REPORT_CONTENT_VERSION),
    reportId: z.string(),
    title: z.string(),
    /** The language of the fixed text, dates and numbers (content stored before it existed: en). */
    locale: ReportLocaleSchema.default('en'),
    generatedAt: z.string(),
    account: z.object({
      id: z.string(),
      platformAccountId: z.string(),
      name: z.string(),
      currency: z.string(),
      timezone: z.string(),
    }),
    dateRange: DateRangeSchema,
    previousDateRange: DateRangeSchema,
    branding: ReportBrandingSchema,
    summary: ReportSummarySchema.extend({
      /** Percent change against the previous equal-length period (null when the previous value is 0). */
      changes: z.object({
        spendChange: nullableNumber,
        conversionsChange: nullableNumber,
        cpaChange: nullableNumber,
        roasChange: nullableNumber,
      }),
    }),
    /** The same totals as GET /v1/insights/summary for this range and these campaigns. */
    totals: z.object({
      spend: z.number(),
      impressions: z.number().int(),
      clicks: z.number().int(),
      conversions: z.number().int(),
      cpa: nullableNumber,
      roas: nullableNumber,
      ctr: nullableNumber,
      cpm: nullableNumber,
    }),
    daily: z.array(
      z.object({ date: DateParam, spend: z.number(), conversions: z.number().int(), cpa: nullableNumber }),
    ),
    campaigns: z.array(ReportCampaignSchema).max(MAX_REPORT_CAMPAIGNS),
    /**
     * Results per result type, never added across types: a lead, an app install and a purchase are not
     * one "conversion". `costPerResult` is null for MIXED campaigns (no single cost per result).
     */
    results: z.array(
      z.object({
        resultType: z.string().nullable(),
        resultName: z.string().nullable(),
        campaigns: z.number().int(),
        results: z.number().int(),
        spend: z.number(),
        costPerResult: nullableNumber,
      }),
    ),
    /** Purchase value in range; ROAS is shown only when there is some. */
    revenue: z.number(),
    /** The sections shown (every format leaves out the others). */
    sections: z.array(ReportSectionSchema).default([...REPORT_SECTIONS]),
    /** The analyst's commentary (Markdown-light), null when none. */
    commentary: z.string().nullable().default(null),
    /** KPI tiles: this period, the previous one and the change, per result type (never summed). */
    kpis: z.array(KpiSchema).default([]),
    /** Goals (CPA or ROAS targets) against what the period delivered. */
    goals: z.array(GoalActualSchema).default([]),
    andromedaContext: z.object({
      riskAppetite: RiskAppetiteSchema,
      focusMetric: FocusMetricSchema,
      description: z.string(),
    }),
  })
  .strict();
export type ReportContent = z.infer<typeof ReportContentSchema>;
