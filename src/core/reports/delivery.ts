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
import { reportFormatter } from './format';
import type { ReportRow } from './rows';
import { accountName, claimDelivery, dueDeliveries, saveDeliveryOutcome, type DeliveryRow } from './store';

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

export interface DeliveryPumpPorts {
  /** The report if it is completed (a delivery waits for nothing else). */
  completedReport(id: string): Promise<ReportRow | undefined>;
  fileOf(row: ReportRow): Promise<{ utf8FileName: string; contentType: string; body: Buffer }>;
  /** Announces a delivery's outcome (report.changed), so screens refresh its status. */
  changed(row: ReportRow): void;
}

/** An attempt's lease: a process that dies mid-attempt leaves the delivery due again after it. */
const DELIVERY_LEASE_MS = 5 * 60_000;

/**
 * Attempts the deliveries that are due (new ones at once, failed ones after their backoff), one pass at
 * a time; each outcome is saved on its row. A call during a pass asks for one more pass.
 */
export class DeliveryPump {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly core: Core,
    private readonly ports: DeliveryPumpPorts,
  ) {}

  deliverDue(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        const now = this.core.clock.now();
        for (const delivery of await dueDeliveries(this.core.sql, now.toISOString())) {
          const leaseUntil = new Date(now.getTime() + DELIVERY_LEASE_MS).toISOString();
          if (!(await claimDelivery(this.core.sql, delivery, leaseUntil))) continue;
          await this.attempt(delivery);
        }
      } while (this.again);
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  async whenIdle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async attempt(delivery: DeliveryRow): Promise<void> {
    const row = await this.ports.completedReport(delivery.report_id);
    if (!row) return;
    let outcome: { ok: true; path: string | null } | { ok: false; error: string };
    try {
      const file = await this.ports.fileOf(row);
      const path = await attemptDelivery(this.core, row.workspace_id, delivery, {
        title: row.title,
        fileName: file.utf8FileName,
        contentType: file.contentType.split(';')[0] ?? file.contentType,
        body: file.body,
        accountName: (await accountName(this.core.sql, row.account_id)) ?? row.account_id,
        period: reportFormatter('en').dateRange({ from: row.date_from, to: row.date_to }),
      });
      outcome = { ok: true, path };
    } catch (error) {
      outcome = { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    await saveDeliveryOutcome(
      this.core.sql,
      delivery.id,
      afterAttempt(delivery, outcome, this.core.clock.now()),
    );
    if (!outcome.ok) {
      this.core.logger.warn('report delivery failed', {
        reportId: row.id,
        channel: delivery.channel,
        error: outcome.error,
      });
    }
    this.ports.changed(row);
  }
}
