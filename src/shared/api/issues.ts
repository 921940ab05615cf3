// Issues with a lifecycle (an addition to the spec): a problem that persists across diagnoses is one
// issue — opened, updated (worse or better, with its history), resolved when the evidence is gone —
// that the analyst can acknowledge or snooze (until a date, or until it gets worse).
import { z } from 'zod';
import { PageQueryWithDefaults, serviceIdParam } from './common';
import { CalendarDateSchema, RiskLevelSchema } from './diagnostics';

export const ISSUE_STATES = ['open', 'acknowledged', 'snoozed', 'resolved'] as const;
export const IssueStateSchema = z.enum(ISSUE_STATES);
export type IssueState = z.infer<typeof IssueStateSchema>;

/** What happened to an issue at one diagnosis or one action of the analyst. */
export const ISSUE_CHANGES = [
  'opened',
  'worsened',
  'improved',
  'resolved',
  'reopened',
  'acknowledged',
  'snoozed',
  'unsnoozed',
] as const;
export const IssueChangeSchema = z.enum(ISSUE_CHANGES);
export type IssueChange = z.infer<typeof IssueChangeSchema>;

export const IssueIdParam = serviceIdParam('iss');

export const IssueHistoryEntrySchema = z.object({
  at: z.string(),
  change: IssueChangeSchema,
  severity: RiskLevelSchema,
  /** The diagnosis that saw it (null for the analyst's own actions). */
  diagnosticId: z.string().nullable(),
  /** Who acknowledged or snoozed it. */
  by: z.string().nullable(),
});

export const TrackedIssueSchema = z.object({
  id: z.string(),
  accountId: z.string(),
  accountName: z.string(),
  campaignId: z.string().nullable(),
  campaignName: z.string().nullable(),
  type: z.string(),
  entity: z.object({ id: z.string(), name: z.string() }),
  state: IssueStateSchema,
  severity: RiskLevelSchema,
  /** The worst severity it reached while live. */
  peakSeverity: RiskLevelSchema,
  title: z.string(),
  description: z.string(),
  evidence: z.record(z.string(), z.unknown()),
  /** The latest diagnosis that saw it. */
  diagnosticId: z.string(),
  openedAt: z.string(),
  updatedAt: z.string(),
  resolvedAt: z.string().nullable(),
  snoozedUntil: z.string().nullable(),
  snoozeUntilWorse: z.boolean(),
  acknowledgedBy: z.string().nullable(),
  history: z.array(IssueHistoryEntrySchema),
});
export type TrackedIssue = z.infer<typeof TrackedIssueSchema>;

export const ListIssuesQuerySchema = z
  .object({
    account_id: z.string().min(1).optional(),
    campaign_id: z.string().min(1).optional(),
    /** Comma-separated states; default: the live ones (open, acknowledged, snoozed). */
    state: z
      .string()
      .regex(/^(open|acknowledged|snoozed|resolved)(,(open|acknowledged|snoozed|resolved))*$/, {
        message: 'state is a comma-separated list of open, acknowledged, snoozed, resolved',
      })
      .optional(),
    min_severity: RiskLevelSchema.optional(),
    ...PageQueryWithDefaults,
  })
  .strict();

export const SnoozeIssueBodySchema = z
  .object({
    /** Snoozed until this date (the analyst's calendar day, inclusive)… */
    until: CalendarDateSchema.optional(),
    /** …and/or until it gets worse. */
    untilWorse: z.boolean().optional(),
  })
  .strict()
  .refine((body) => body.until !== undefined || body.untilWorse === true, {
    message: 'give until (a date) or untilWorse: true',
  });
export type SnoozeIssueBody = z.infer<typeof SnoozeIssueBodySchema>;
