// One zod schema per handler's arguments: the single place arguments are validated (the dispatcher),
// whichever host the call came through (Electron IPC or the web bridge).
import { ReportingCurrencySchema } from '../api/reporting-currency';
import { z } from 'zod';
import { DateRangeSpecSchema } from '../date-range-schema';
import { SAVED_VIEW_SCREENS, SaveViewSchema, type SavedView } from '../api/saved-views';
import {
  CommentarySchema,
  ReportDeliverySchema,
  ReportLocaleSchema,
  ReportSectionsSchema,
  WhiteLabelSchema,
  type ReportContent,
} from '../api/reports';
import type { SyncStarted } from '../api/accounts';
import type { ChangeEvent } from '../api/changes';
import { ISSUE_STATES, type TrackedIssue } from '../api/issues';
import { SetSyncIntervalSchema, type SyncSchedule } from '../api/watch';
import type { AvailableAccounts, ConnectManyResult } from '../api/available-accounts';
import {
  AddAlertDestinationSchema,
  AlertPreferencesSchema,
  OwnDigestSchema,
  SmtpSettingsSchema,
  SmtpTestSchema,
  type AlertDestinationCreated,
  type AlertDestinationView,
  type AlertTestResult,
  type DigestView,
  type SmtpTestResult,
  type SmtpView,
} from '../api/alerts';
import type { AccountOverview, Portfolio } from '../api/portfolio';
import type { DiagnosticChanges, DiagnosticHistory, EvidenceSeries } from '../api/diagnostic-history';
import {
  ClearGoalSchema,
  SetGoalSchema,
  type AccountGoals,
  type CampaignGoal,
  type GoalView,
} from '../api/goals';
import type { HandlerName } from './names';
import type {
  AccountView,
  AndromedaProfile,
  ApiKeyCreated,
  ApiKeyView,
  CampaignDetail,
  CampaignList,
  DemoCandidate,
  DiagnosticCreated,
  DiagnosticDetail,
  DiagnosticListItem,
  InsightsSummaryView,
  Page,
  ClientBrandingView,
  ReportScheduleView,
  ReportView,
  SettingsView,
  UserView,
} from './types';

const id = (prefix: string) =>
  z.string().regex(new RegExp(`^${prefix}_[0-9A-Za-z]{16}$`), `expected a ${prefix}_ ID`);
const accountId = id('act');
const campaignId = id('camp');
const date = z.iso.date();
const platformAccountId = z.string().regex(/^act_\d{1,20}$/, 'expected act_<digits>');
const riskLevel = z.enum(['LOW', 'MEDIUM', 'HIGH', 'CRITICAL']);
const empty = z.object({}).strict();
/** Quiet hours (in a time zone), muted accounts and the pacing threshold, as stored. */
type AlertPrefsView = {
  quietFrom: number | null;
  quietTo: number | null;
  timezone: string;
  mutedAccountIds: string[];
  pacingShare: number;
};
const token = z.string().trim().min(8, 'paste the whole access token').max(4096);
const page = z.number().int().min(1).default(1);
const pageSize = z.number().int().min(1).max(100).default(25);
const reportTitle = z.string().trim().min(1, 'a report needs a title').max(200);
const reportFormat = z.enum(['pdf', 'markdown', 'json']).default('pdf');

/** A date range: explicit dates, or the last N days ending today in the account's timezone. */
const range = z
  .object({
    days: z.number().int().min(1).max(90).optional(),
    from: date.optional(),
    to: date.optional(),
  })
  .strict()
  .refine((r) => (r.from === undefined) === (r.to === undefined), 'give both from and to, or neither')
  .refine((r) => r.from === undefined || r.to === undefined || r.from <= r.to, 'from is after to');

export const argSchemas = {
  'accounts.list': empty,
  'accounts.sync': z.object({ accountId }).strict(),
  'accounts.demoCandidates': empty,
  'accounts.connectDemo': z.object({ platformAccountId }).strict(),
  'accounts.connectToken': z
    .object({
      platformAccountId,
      token,
      baseUrl: z.url({ protocol: /^https?$/ }).optional(),
    })
    .strict(),
  // No token: the embedded demo platform; a token without a URL: Meta's Graph API.
  'accounts.available': z
    .object({ token: token.optional(), baseUrl: z.url({ protocol: /^https?$/ }).optional() })
    .strict()
    .refine((a) => a.baseUrl === undefined || a.token !== undefined, 'a platform URL needs a token'),
  'accounts.connectMany': z
    .object({
      platformAccountIds: z.array(platformAccountId).min(1, 'choose at least one ad account').max(500),
      token: token.optional(),
      baseUrl: z.url({ protocol: /^https?$/ }).optional(),
    })
    .strict()
    .refine((a) => a.baseUrl === undefined || a.token !== undefined, 'a platform URL needs a token'),
  'accounts.facebookLogin': z.object({ platform: z.enum(['meta', 'demo']).default('meta') }).strict(),
  'accounts.disconnect': z.object({ accountId }).strict(),
  // A demo account reconnects with the demo platform's token; any other account needs a new token.
  'accounts.reconnect': z.object({ accountId, token: token.optional() }).strict(),
  // dateRange (Ads Manager presets, custom dates, compare to) wins over the older range.
  'campaigns.list': z
    .object({
      accountId: accountId.optional(),
      range: range.optional(),
      dateRange: DateRangeSpecSchema.optional(),
    })
    .strict(),
  'campaigns.get': z
    .object({ campaignId, range: range.optional(), dateRange: DateRangeSpecSchema.optional() })
    .strict(),
  'campaigns.changes': z.object({ campaignId }).strict(),
  'campaigns.setTargetCpa': z
    .object({
      campaignId,
      /** In the account's currency; null clears it (the cost cap or the baseline is used again). */
      targetCpa: z.number().positive('a target CPA is above zero').max(1_000_000).nullable(),
    })
    .strict(),
  'diagnostics.list': z
    .object({
      accountId: accountId.optional(),
      campaignId: campaignId.optional(),
      riskLevel: riskLevel.optional(),
      status: z.enum(['pending', 'running', 'completed', 'failed']).optional(),
      page,
      pageSize,
    })
    .strict(),
  'diagnostics.get': z.object({ id: id('diag') }).strict(),
  'diagnostics.run': z
    .object({
      accountId,
      campaignId: campaignId.nullable().default(null),
      dateFrom: date.optional(),
      dateTo: date.optional(),
    })
    .strict(),
  'diagnostics.feedback': z
    .object({
      diagnosticId: id('diag'),
      recommendationId: z.string().regex(/^rec_\d{1,3}$/),
      feedback: z.enum(['applied', 'dismissed']),
    })
    .strict(),
  'reports.list': z
    .object({
      status: z.enum(['pending', 'generating', 'completed', 'failed']).optional(),
      page,
      pageSize,
    })
    .strict(),
  'reports.create': z
    .object({
      accountId,
      title: reportTitle,
      dateFrom: date,
      dateTo: date,
      // The 20-campaign limit (distinct campaigns, its own error type) is the reports use case's rule.
      campaignIds: z.array(campaignId).max(1000).optional(),
      format: reportFormat,
      whiteLabel: WhiteLabelSchema.optional(),
      locale: ReportLocaleSchema.optional(),
      sections: ReportSectionsSchema.optional(),
      commentary: CommentarySchema.optional(),
      delivery: ReportDeliverySchema.optional(),
    })
    .strict()
    .refine((r) => r.dateFrom <= r.dateTo, 'the start date is after the end date'),
  'reports.preview': z
    .object({
      accountId,
      title: reportTitle,
      dateFrom: date,
      dateTo: date,
      campaignIds: z.array(campaignId).max(1000).optional(),
      whiteLabel: WhiteLabelSchema.optional(),
      locale: ReportLocaleSchema.optional(),
      sections: ReportSectionsSchema.optional(),
      commentary: CommentarySchema.optional(),
    })
    .strict()
    .refine((r) => r.dateFrom <= r.dateTo, 'the start date is after the end date'),
  'reports.branding': z.object({ accountId }).strict(),
  'reports.setBranding': z.object({ accountId, branding: WhiteLabelSchema.nullable() }).strict(),
  'reports.schedule': z
    .object({
      accountId,
      title: reportTitle,
      cadence: z.enum(['weekly', 'monthly']),
      // The 20-campaign limit (distinct campaigns, its own error type) is the reports use case's rule.
      campaignIds: z.array(campaignId).max(1000).optional(),
      format: reportFormat,
      whiteLabel: WhiteLabelSchema.optional(),
      locale: ReportLocaleSchema.optional(),
      sections: ReportSectionsSchema.optional(),
      commentary: CommentarySchema.optional(),
      delivery: ReportDeliverySchema.optional(),
    })
    .strict(),
  'reports.schedules': z.object({ includeCancelled: z.boolean().default(false) }).strict(),
  'reports.unschedule': z.object({ id: id('sched') }).strict(),
  'insights.summary': z
    .object({
      accountId: accountId.optional(),
      range: range.optional(),
      dateRange: DateRangeSpecSchema.optional(),
      breakdown: z.enum(['campaign', 'account']).optional(),
    })
    .strict(),
  'keys.list': empty,
  'keys.create': z
    .object({ name: z.string().trim().max(100).default(''), mode: z.enum(['live', 'test']).default('test') })
    .strict(),
  'keys.revoke': z.object({ id: id('key') }).strict(),
  'profile.get': empty,
  'profile.update': z
    .object({
      riskAppetite: z.enum(['LOW', 'MEDIUM', 'HIGH']),
      focusMetric: z.enum(['ROAS', 'CPA', 'CTR', 'CONVERSIONS']),
    })
    .strict(),
  'settings.get': empty,
  'settings.update': z
    .object({
      apiPort: z.number().int().min(1024).max(65535).optional(),
      whiteLabelDefaults: WhiteLabelSchema.nullable().optional(),
      metaAppId: z
        .string()
        .regex(/^\d{5,20}$/, 'a Meta app ID is a number (App settings > Basic in Meta for Developers)')
        .nullable()
        .optional(),
      metaAppSecret: z.string().trim().min(16, 'paste the whole app secret').max(128).nullable().optional(),
      keepRunningInTray: z.boolean().optional(),
      openAtLogin: z.boolean().optional(),
      reportingCurrency: ReportingCurrencySchema.nullable().optional(),
    })
    .strict(),
  'users.list': empty,
  'users.disable': z.object({ userId: id('user') }).strict(),
  'users.enable': z.object({ userId: id('user') }).strict(),
  'users.remove': z.object({ userId: id('user') }).strict(),
  'issues.list': z
    .object({
      accountId: accountId.optional(),
      campaignId: campaignId.optional(),
      states: z.array(z.enum(ISSUE_STATES)).max(4).optional(),
      minSeverity: riskLevel.optional(),
      page,
      pageSize,
    })
    .strict(),
  'issues.acknowledge': z.object({ id: id('iss') }).strict(),
  'issues.snooze': z
    .object({ id: id('iss'), until: date.optional(), untilWorse: z.boolean().optional() })
    .strict()
    .refine(
      (s) => s.until !== undefined || s.untilWorse === true,
      'snooze until a date or until it gets worse',
    ),
  'watch.schedules': empty,
  'watch.setInterval': SetSyncIntervalSchema,
  'alerts.list': empty,
  'alerts.add': AddAlertDestinationSchema,
  'alerts.remove': z.object({ id: id('dest') }).strict(),
  'alerts.test': z.object({ id: id('dest') }).strict(),
  'alerts.smtp': empty,
  'alerts.setSmtp': SmtpSettingsSchema,
  'alerts.testSmtp': SmtpTestSchema,
  'alerts.preferences': empty,
  'alerts.setPreferences': AlertPreferencesSchema,
  'alerts.digest': empty,
  'alerts.setDigest': OwnDigestSchema,
  'goals.list': z.object({ accountId }).strict(),
  'goals.campaign': z.object({ campaignId }).strict(),
  'goals.set': SetGoalSchema,
  'goals.clear': ClearGoalSchema,
  'views.list': z.object({ screen: z.enum(SAVED_VIEW_SCREENS) }).strict(),
  'views.save': SaveViewSchema,
  'views.remove': z.object({ id: id('view') }).strict(),
  'portfolio.home': empty,
  'portfolio.overview': z.object({ accountId, days: z.number().int().min(7).max(90).optional() }).strict(),
  'diagnostics.history': z
    .object({ accountId: accountId.optional(), campaignId: campaignId.optional() })
    .strict()
    .refine(
      (a) => a.accountId !== undefined || a.campaignId !== undefined,
      'name the account or the campaign',
    ),
  'diagnostics.changes': z.object({ id: id('diag') }).strict(),
  'diagnostics.evidence': z.object({ id: id('diag') }).strict(),
} satisfies Record<HandlerName, z.ZodType>;

/** What each handler returns when it succeeds. */
export interface HandlerResults {
  'accounts.list': AccountView[];
  'accounts.sync': SyncStarted;
  'accounts.demoCandidates': DemoCandidate[];
  'accounts.connectDemo': AccountView;
  'accounts.connectToken': AccountView;
  'accounts.available': AvailableAccounts;
  'accounts.connectMany': ConnectManyResult;
  'accounts.facebookLogin': { token: string; expiresAt: string | null };
  'accounts.disconnect': AccountView;
  'accounts.reconnect': AccountView;
  'campaigns.list': CampaignList;
  'campaigns.get': CampaignDetail;
  'campaigns.setTargetCpa': { campaignId: string; targetCpa: number | null };
  'campaigns.changes': ChangeEvent[];
  'diagnostics.list': Page<DiagnosticListItem>;
  'diagnostics.get': DiagnosticDetail;
  'diagnostics.run': DiagnosticCreated;
  'diagnostics.feedback': { recommendationId: string; feedback: 'applied' | 'dismissed' };
  'reports.list': Page<ReportView>;
  'reports.create': ReportView;
  'reports.schedule': ReportScheduleView;
  'reports.schedules': ReportScheduleView[];
  'reports.unschedule': ReportScheduleView;
  'reports.preview': ReportContent;
  'reports.branding': ClientBrandingView;
  'reports.setBranding': ClientBrandingView;
  'insights.summary': InsightsSummaryView;
  'keys.list': ApiKeyView[];
  'keys.create': ApiKeyCreated;
  'keys.revoke': ApiKeyView;
  'profile.get': AndromedaProfile;
  'profile.update': AndromedaProfile;
  'settings.get': SettingsView;
  'settings.update': SettingsView;
  'users.list': UserView[];
  'users.disable': UserView;
  'users.enable': UserView;
  'users.remove': UserView;
  'issues.list': Page<TrackedIssue>;
  'issues.acknowledge': TrackedIssue;
  'issues.snooze': TrackedIssue;
  'watch.schedules': SyncSchedule[];
  'watch.setInterval': SyncSchedule[];
  'alerts.list': AlertDestinationView[];
  'alerts.add': AlertDestinationCreated;
  'alerts.remove': AlertDestinationView;
  'alerts.test': AlertTestResult;
  'alerts.smtp': SmtpView | null;
  'alerts.setSmtp': SmtpView | null;
  'alerts.testSmtp': SmtpTestResult;
  'alerts.preferences': AlertPrefsView;
  'alerts.setPreferences': AlertPrefsView;
  'alerts.digest': DigestView;
  'alerts.setDigest': DigestView;
  'goals.list': AccountGoals;
  'goals.campaign': CampaignGoal;
  'goals.set': GoalView;
  'goals.clear': AccountGoals;
  'views.list': SavedView[];
  'views.save': SavedView;
  'views.remove': { id: string };
  'portfolio.home': Portfolio;
  'portfolio.overview': AccountOverview;
  'diagnostics.history': DiagnosticHistory;
  'diagnostics.changes': DiagnosticChanges;
  'diagnostics.evidence': EvidenceSeries;
}

/** Arguments as a caller writes them (defaults may be left out). */
export type HandlerInput<K extends HandlerName> = z.input<(typeof argSchemas)[K]>;
/** Arguments as a handler receives them (validated, defaults filled). */
export type HandlerArgs<K extends HandlerName> = z.output<(typeof argSchemas)[K]>;
export type HandlerResult<K extends HandlerName> = HandlerResults[K];
