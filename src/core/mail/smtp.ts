// The agency's SMTP server, one sender for everything the app e-mails (alerts, reports). The settings
// are the workspace's alert SMTP settings (Settings → Alerts, `alerts smtp`), the password sealed
// with the token cipher at rest and opened only to send.
import nodemailer from 'nodemailer';
import type { Core } from '../core';
import { readSetting } from '../settings/store';
import { smtpKey, type StoredSmtp } from '../alerts/prefs';

const SEND_TIMEOUT_MS = 10_000;

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
}

export class NoSmtpServerError extends Error {
  constructor() {
    super('no SMTP server is set for the workspace');
  }
}

/** Whether the workspace has an SMTP server set. */
export async function hasSmtpServer(core: Core, workspaceId: string): Promise<boolean> {
  return (await readSetting(core.sql, smtpKey(workspaceId))) !== undefined;
}

/** Sends one message through the workspace's SMTP server; rejects with the server's reason. */
export async function sendWorkspaceMail(
  core: Core,
  workspaceId: string,
  message: MailMessage,
): Promise<void> {
  const stored = await readSetting(core.sql, smtpKey(workspaceId));
  if (!stored) throw new NoSmtpServerError();
  const settings = JSON.parse(stored) as StoredSmtp;
  const password = settings.password
    ? core.tokenCipher.decrypt(Buffer.from(settings.password, 'base64'))
    : undefined;
  const transport = nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.security === 'tls',
    requireTLS: settings.security === 'starttls',
    ...(settings.user ? { auth: { user: settings.user, pass: password ?? '' } } : {}),
    connectionTimeout: SEND_TIMEOUT_MS,
    greetingTimeout: SEND_TIMEOUT_MS,
    socketTimeout: SEND_TIMEOUT_MS,
  });
  try {
    await transport.sendMail({ from: settings.from, ...message });
  } finally {
    transport.close();
  }
}
