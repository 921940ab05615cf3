// Alerts (an addition to the spec): where the watcher's findings reach the analyst — webhooks signed
// like Stripe's, e-mail through the agency's SMTP server — with the rules each destination follows,
// the quiet hours, per-account mutes, and each user's morning digest.
import { z } from 'zod';
import { RISK_LEVELS } from './diagnostics';

/** What a destination can be sent (`digest` is the morning digest). */
export const ALERT_TYPES = [
  'issue.opened',
  'issue.worsened',
  'issue.resolved',
  'results.zero',
  'sync.failed',
  'token.expiring',
  'account.disabled',
  'account.spend_cap',
  'spend.pacing',
  'digest',
] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

const hour = z.number().int().min(0).max(23);
const timezone = z.string().refine((tz) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}, 'give an IANA time zone, e.g. Europe/Paris');

export const AddAlertDestinationSchema = z
  .object({
    kind: z.enum(['webhook', 'email']),
    /** The webhook URL (http or https) or the e-mail address. */
    target: z.string().min(1).max(2000),
    /** One account (service or platform ID); absent: every account of the workspace. */
    accountId: z.string().min(1).optional(),
    /** Issues below this risk are not sent (default HIGH). */
    minRisk: z.enum(RISK_LEVELS).optional(),
    /** A Slack-compatible body (`{"text": …}`) instead of the JSON event (webhooks only). */
    slack: z.boolean().optional(),
    /** The types it receives (default: all). */
    types: z.array(z.enum(ALERT_TYPES)).min(1).optional(),
  })
  .strict()
  .superRefine((d, ctx) => {
    if (d.kind === 'webhook' && !/^https?:\/\/[^\s]+$/.test(d.target)) {
      ctx.addIssue({ code: 'custom', message: 'a webhook is an http(s) URL' });
    }
    if (d.kind === 'email' && !/^[^\s@]+@[^\s@]+$/.test(d.target)) {
      ctx.addIssue({ code: 'custom', message: 'give an e-mail address' });
    }
    if (d.kind === 'email' && d.slack) ctx.addIssue({ code: 'custom', message: 'slack is for webhooks' });
  });
export type AddAlertDestination = z.input<typeof AddAlertDestinationSchema>;

export interface AlertDestinationView {
  id: string;
  kind: 'webhook' | 'email';
  target: string;
  accountId: string | null;
  minRisk: (typeof RISK_LEVELS)[number];
  format: 'json' | 'slack';
  types: AlertType[];
  createdAt: string;
  /** The last delivery: when, and how it went. */
  lastDelivery: { at: string; status: 'pending' | 'delivered' | 'failed'; httpStatus: number | null } | null;
}

/** The destination as created: the webhook's signing secret is shown this once. */
export interface AlertDestinationCreated extends AlertDestinationView {
  secret: string | null;
}

export interface AlertTestResult {
  destinationId: string;
  delivered: boolean;
  /** The HTTP status of the webhook's answer (null for e-mail or no answer). */
  httpStatus: number | null;
  error: string | null;
}

export const SmtpSettingsSchema = z
  .object({
    host: z.string().min(1),
    port: z.number().int().min(1).max(65535),
    /** tls: TLS from the start (465); starttls: required upgrade (587); none: as the server offers. */
    security: z.enum(['tls', 'starttls', 'none']).default('starttls'),
    user: z.string().min(1).optional(),
    password: z.string().min(1).optional(),
    from: z.string().min(3),
  })
  .strict();
export type SmtpSettings = z.input<typeof SmtpSettingsSchema>;

export const AlertPreferencesSchema = z
  .object({
    /** Quiet hours in `timezone`: deliveries are held from `quietFrom` to `quietTo` (null: none). */
    quietFrom: hour.nullable().optional(),
    quietTo: hour.nullable().optional(),
    timezone: timezone.optional(),
    /** Accounts whose alerts are muted (service IDs). */
    mutedAccountIds: z.array(z.string()).optional(),
    /** A day's spend this far off the daily budgets (0.5 = under half or over 150%) raises spend.pacing. */
    pacingShare: z.number().min(0.1).max(5).optional(),
  })
  .strict();
export type AlertPreferences = z.input<typeof AlertPreferencesSchema>;

export const DigestSettingsSchema = z
  .object({
    userId: z.string().min(1),
    /** The local hour it is sent; null: no digest. */
    hour: hour.nullable(),
    timezone: timezone.default('UTC'),
  })
  .strict();
export type DigestSettings = z.input<typeof DigestSettingsSchema>;

/** The workspace's SMTP server as shown back: never the password, only whether one is set. */
export interface SmtpView {
  host: string;
  port: number;
  security: 'tls' | 'starttls' | 'none';
  user: string | null;
  from: string;
  passwordSet: boolean;
}

/** A test e-mail through the workspace's SMTP server (to the signed-in user unless told otherwise). */
export const SmtpTestSchema = z.object({ to: z.email().optional() }).strict();
export interface SmtpTestResult {
  delivered: boolean;
  to: string;
  error: string | null;
}

/** The signed-in user's own morning digest (Settings). */
export const OwnDigestSchema = z
  .object({ hour: hour.nullable(), timezone: timezone.default('UTC') })
  .strict();
export interface DigestView {
  userId: string;
  hour: number | null;
  timezone: string;
  lastSentAt: string | null;
}
