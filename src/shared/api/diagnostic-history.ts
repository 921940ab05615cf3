// A diagnostic's context (an addition to the spec): the past diagnostics of the same campaign (or of
// the whole account) with their risk, what changed since the previous one, and dated daily series for
// each issue's evidence chart, with the baseline window the detectors compared against.
import { z } from 'zod';
import { CalendarDateSchema, RiskLevelSchema } from './diagnostics';

export const DiagnosticHistoryEntrySchema = z.object({
  id: z.string(),
  riskLevel: RiskLevelSchema.nullable(),
  issuesDetected: z.number().int(),
  dateRange: z.object({ from: CalendarDateSchema, to: CalendarDateSchema }),
  completedAt: z.string(),
  trigger: z.enum(['manual', 'automatic']),
});
export type DiagnosticHistoryEntry = z.infer<typeof DiagnosticHistoryEntrySchema>;

export const DiagnosticHistorySchema = z.object({
  accountId: z.string(),
  campaignId: z.string().nullable(),
  /** Newest first. */
  items: z.array(DiagnosticHistoryEntrySchema),
});
export type DiagnosticHistory = z.infer<typeof DiagnosticHistorySchema>;

const IssueRef = z.object({
  type: z.string(),
  title: z.string(),
  severity: RiskLevelSchema,
  entity: z.object({ type: z.string(), id: z.string(), name: z.string() }),
  campaignId: z.string().nullable(),
});
export type IssueRef = z.infer<typeof IssueRef>;

export const DiagnosticChangesSchema = z.object({
  diagnosticId: z.string(),
  /** The completed diagnostic of the same scope just before this one; null for the first. */
  previous: z
    .object({ id: z.string(), riskLevel: RiskLevelSchema.nullable(), completedAt: z.string() })
    .nullable(),
  newIssues: z.array(IssueRef),
  resolvedIssues: z.array(IssueRef),
  worsenedIssues: z.array(IssueRef.extend({ previousSeverity: RiskLevelSchema })),
  improvedIssues: z.array(IssueRef.extend({ previousSeverity: RiskLevelSchema })),
});
export type DiagnosticChanges = z.infer<typeof DiagnosticChangesSchema>;

export const EvidenceDaySchema = z.object({
  date: CalendarDateSchema,
  spend: z.number(),
  impressions: z.number().int(),
  conversions: z.number().int(),
  reach: z.number().int(),
  cpa: z.number().nullable(),
  cpm: z.number().nullable(),
  ctr: z.number().nullable(),
  frequency: z.number().nullable(),
});
export type EvidenceDay = z.infer<typeof EvidenceDaySchema>;

export const EvidenceSeriesSchema = z.object({
  diagnosticId: z.string(),
  /** Dates are calendar days in this time zone (the account's). */
  timezone: z.string(),
  baseline: z.object({ from: CalendarDateSchema, to: CalendarDateSchema }),
  range: z.object({ from: CalendarDateSchema, to: CalendarDateSchema }),
  /** Per issue ID: the entity its chart follows and its days from the baseline's start to the range's end. */
  issues: z.record(
    z.string(),
    z.object({
      level: z.enum(['ad', 'adSet', 'campaign', 'account']),
      entityId: z.string(),
      entityName: z.string(),
      days: z.array(EvidenceDaySchema),
    }),
  ),
});
export type EvidenceSeries = z.infer<typeof EvidenceSeriesSchema>;
