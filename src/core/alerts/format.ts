// What a delivery says: the JSON event a webhook receives (signed like Stripe's), its Slack-compatible
// form, and the e-mail's subject and text. Pure functions of the alert.
import { createHmac } from 'node:crypto';

/** The event body every webhook receives (and e-mails are written from). */
export interface AlertEvent {
  id: string;
  type: string;
  createdAt: string;
  account: { id: string; name: string } | null;
  campaign: { id: string; name: string } | null;
  /** The issue with its evidence (issue.* alerts), else null. */
  issue: Record<string, unknown> | null;
  /** Other facts: the failed sync's error, the day with zero results, the digest's lines. */
  detail: Record<string, unknown> | null;
  title: string;
  text: string;
  /** The dashboard page to open (null when no dashboard URL is known). */
  link: string | null;
}

/** `AdLens-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export function signature(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

export function slackBody(event: AlertEvent): string {
  const link = event.link ? `\n<${event.link}|Open in AdLens>` : '';
  return JSON.stringify({ text: `*${event.title}*\n${event.text}${link}` });
}

export function emailOf(event: AlertEvent): { subject: string; text: string } {
  return {
    subject: `[AdLens] ${event.title}`,
    text: `${event.text}${event.link ? `\n\nOpen in AdLens: ${event.link}` : ''}\n`,
  };
}
