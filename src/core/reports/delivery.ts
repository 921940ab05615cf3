// Delivering a finished report: a copy in a chosen folder and/or an e-mail with the file attached,
// through the workspace's SMTP server (the alerts' settings and sender). Each target is a row in
// report_deliveries; a failure is recorded on it and retried with backoff (like the alerts outbox),
// up to MAX_ATTEMPTS, then marked failed with the last reason — visible on the report.
import { mkdirSync, writeFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ReportDelivery, ReportDeliveryStatus } from '../../shared/api/reports';
import { retryDelayMs } from '../alerts/service';
import type { Core } from '../core';
import { newId } from '../ids';
import { sendWorkspaceMail } from '../mail/smtp';
import type { DeliveryRow } from './store';

export const MAX_DELIVERY_ATTEMPTS = 5;

export interface DeliverableFile {
  title: string;
  /** The readable file name (title and range). */
  fileName: string;
  contentType: string;
  body: Buffer;
  /** For the e-mail's text. */
  accountName: string;
  period: string;
}

/** A file name that every file system accepts: separators and reserved characters become "-". */
export function safeFileName(name: string): string {
  const cleaned = name
    // eslint-disable-next-line no-control-regex -- control characters are what must go from a file name
    .replace(/[/\\:*?"<>|\u0000-\u001f]/g, '-')
    .replace(/^\.+/, '')
    .trim();
  return cleaned.slice(0, 200) || 'report';
}

export function deliveryRows(
  reportId: string,
  delivery: ReportDelivery | undefined,
  now: string,
): DeliveryRow[] {
  if (!delivery) return [];
  const targets: Array<['folder' | 'email', string]> = [
    ...(delivery.folder ? [['folder', delivery.folder] as ['folder', string]] : []),
    ...[...new Set(delivery.emails ?? [])].map((e): ['email', string] => ['email', e]),
  ];
  return targets.map(([channel, target]) => ({
    id: newId('dlv'),
    report_id: reportId,
    channel,
    target,
    status: 'pending',
    attempts: 0,
    next_attempt_at: now,
    last_error: null,
    delivered_at: null,
    path: null,
    created_at: now,
  }));
}

/** One attempt: the path written (folder) or null (e-mail); throws with the reason on failure. */
export async function attemptDelivery(
  core: Core,
  workspaceId: string,
  row: DeliveryRow,
  file: DeliverableFile,
): Promise<string | null> {
  if (row.channel === 'folder') {
    mkdirSync(row.target, { recursive: true });
    const path = join(row.target, safeFileName(file.fileName));
    const temporary = `${path}.${randomBytes(4).toString('hex')}.partial`;
    try {
      writeFileSync(temporary, file.body);
      renameSync(temporary, path);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
    return path;
  }
  await sendWorkspaceMail(core, workspaceId, {
    to: row.target,
    subject: `${file.title} · ${file.accountName} · ${file.period}`,
    text: `${file.title}\n${file.accountName}, ${file.period}\n\nThe report is attached (${file.fileName}).\n`,
    attachments: [{ filename: file.fileName, content: file.body, contentType: file.contentType }],
  });
  return null;
}

/** The row after an attempt: delivered, or pending again later, or failed for good. */
export function afterAttempt(
  row: DeliveryRow,
  outcome: { ok: true; path: string | null } | { ok: false; error: string },
  now: Date,
): Pick<DeliveryRow, 'status' | 'attempts' | 'next_attempt_at' | 'last_error' | 'delivered_at' | 'path'> {
  const attempts = row.attempts + 1;
  if (outcome.ok) {
    return {
      status: 'delivered',
      attempts,
      next_attempt_at: row.next_attempt_at,
      last_error: null,
      delivered_at: now.toISOString(),
      path: outcome.path,
    };
  }
  const giveUp = attempts >= MAX_DELIVERY_ATTEMPTS;
  return {
    status: giveUp ? 'failed' : 'pending',
    attempts,
    next_attempt_at: new Date(now.getTime() + retryDelayMs(attempts)).toISOString(),
    last_error: outcome.error,
    delivered_at: null,
    path: null,
  };
}

export function toDeliveryStatus(row: DeliveryRow): ReportDeliveryStatus {
  return {
    channel: row.channel,
    target: row.target,
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    deliveredAt: row.delivered_at,
    path: row.path,
  };
}
