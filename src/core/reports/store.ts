// SQL for reports and report schedules. Every lookup made for a request is scoped by workspace and mode.
import type { ReportStatus } from '../../shared/api/reports';
import { AppError } from '../errors';
import { accountScope, type RequestContext } from '../identity/access';
import { isPlatformAccountId } from '../ids';
import type { Db } from '../store/open';
import type { ReportRow, ScheduleRow } from './rows';

export interface ListFilter {
  accountIds: string[];
  campaignId?: string | undefined;
  accountId?: string | undefined;
  status?: string | undefined;
  format?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  page: number;
  pageSize: number;
}

/** A `from`/`to` filter value as an ISO instant; a bare date `to` covers that whole day. */
export function boundary(value: string, end: boolean): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return end
      ? new Date(Date.parse(`${value}T00:00:00Z`) + 86_400_000 - 1).toISOString()
      : `${value}T00:00:00.000Z`;
  }
  const parsed = Date.parse(value);
  if (Number.isNaN(parsed))
    throw new AppError('invalid_request', `${value} is not an ISO 8601 date or timestamp.`);
  return new Date(parsed).toISOString();
}

export class ReportStore {
  constructor(private readonly db: Db) {}

  /** The account (service or platform ID) inside the context's workspace and mode, or 404. */
  account(ctx: RequestContext, idText: string): { id: string; currency: string } {
    const scope = accountScope(ctx);
    const column = isPlatformAccountId(idText) ? 'platform_account_id' : 'id';
    const row = this.db
      .prepare(`SELECT a.id, a.currency FROM ad_accounts a WHERE a.${column} = ? AND ${scope.sql}`)
      .get(idText, ...scope.params) as { id: string; currency: string } | undefined;
    if (!row) throw new AppError('not_found', `Ad account ${idText} was not found.`);
    return row;
  }

  /** Service or platform campaign IDs → service IDs of this account, de-duplicated; any other → 404. */
  resolveCampaigns(accountId: string, ids: readonly string[]): string[] {
    const rows = this.db
      .prepare(
        `SELECT id, platform_campaign_id FROM campaigns WHERE account_id = ?
           AND (id IN (SELECT value FROM json_each(?)) OR platform_campaign_id IN (SELECT value FROM json_each(?)))`,
      )
      .all(accountId, JSON.stringify(ids), JSON.stringify(ids)) as Array<{
      id: string;
      platform_campaign_id: string;
    }>;
    const byAny = new Map<string, string>();
    for (const row of rows) {
      byAny.set(row.id, row.id);
      byAny.set(row.platform_campaign_id, row.id);
    }
    const missing = ids.filter((id) => !byAny.has(id));
    if (missing.length > 0) {
      throw new AppError(
        'not_found',
        `Campaign ${missing.join(', ')} was not found in account ${accountId}.`,
      );
    }
    return [...new Set(ids.map((id) => byAny.get(id) as string))];
  }

  /** The account's campaigns with spend in the window, top `limit` by spend; all campaigns (by name) if none spent. */
  defaultCampaigns(accountId: string, from: string, to: string, limit: number): string[] {
    const spending = this.db
      .prepare(
        `SELECT campaign_id FROM insights_campaign_daily
          WHERE account_id = ? AND date BETWEEN ? AND ?
          GROUP BY campaign_id HAVING sum(spend_micros) > 0
          ORDER BY sum(spend_micros) DESC, campaign_id LIMIT ?`,
      )
      .pluck()
      .all(accountId, from, to, limit) as string[];
    if (spending.length > 0) return spending;
    return this.db
      .prepare(`SELECT id FROM campaigns WHERE account_id = ? ORDER BY name, id LIMIT ?`)
      .pluck()
      .all(accountId, limit) as string[];
  }

  insert(row: ReportRow): void {
    this.db
      .prepare(
        `INSERT INTO reports (id, workspace_id, account_id, schedule_id, title, campaign_ids, format, status, date_from,
           date_to, white_label, summary, file_path, error, due_at, created_at, completed_at, expires_at)
         VALUES (@id, @workspace_id, @account_id, @schedule_id, @title, @campaign_ids, @format, @status, @date_from,
           @date_to, @white_label, @summary, @file_path, @error, @due_at, @created_at, @completed_at, @expires_at)`,
      )
      .run(row);
  }

  byId(id: string): ReportRow | undefined {
    return this.db.prepare(`SELECT * FROM reports WHERE id = ?`).get(id) as ReportRow | undefined;
  }

  /** The report if the context may see it (its workspace, and its account's mode). */
  visible(ctx: RequestContext, id: string): ReportRow | undefined {
    const scope = accountScope(ctx);
    return this.db
      .prepare(
        `SELECT r.* FROM reports r JOIN ad_accounts a ON a.id = r.account_id
          WHERE r.id = ? AND r.workspace_id = ? AND ${scope.sql}`,
      )
      .get(id, ctx.workspaceId, ...scope.params) as ReportRow | undefined;
  }

  list(ctx: RequestContext, f: ListFilter): { rows: ReportRow[]; total: number } {
    const scope = accountScope(ctx);
    const where = [`r.workspace_id = ?`, scope.sql, `r.account_id IN (SELECT value FROM json_each(?))`];
    const params: unknown[] = [ctx.workspaceId, ...scope.params, JSON.stringify(f.accountIds)];
    if (f.accountId) {
      where.push(`r.account_id = ?`);
      params.push(f.accountId);
    }
    if (f.campaignId) {
      where.push(`EXISTS (SELECT 1 FROM json_each(r.campaign_ids) WHERE value = ?)`);
      params.push(f.campaignId);
    }
    if (f.status) {
      where.push(`r.status = ?`);
      params.push(f.status);
    }
    if (f.format) {
      where.push(`r.format = ?`);
      params.push(f.format);
    }
    if (f.from) {
      where.push(`r.created_at >= ?`);
      params.push(boundary(f.from, false));
    }
    if (f.to) {
      where.push(`r.created_at <= ?`);
      params.push(boundary(f.to, true));
    }
    const from = `FROM reports r JOIN ad_accounts a ON a.id = r.account_id WHERE ${where.join(' AND ')}`;
    const total =
      (this.db
        .prepare(`SELECT count(*) ${from}`)
        .pluck()
        .get(...params) as number) ?? 0;
    const rows = this.db
      .prepare(`SELECT r.* ${from} ORDER BY r.created_at DESC, r.id DESC LIMIT ? OFFSET ?`)
      .all(...params, f.pageSize, (f.page - 1) * f.pageSize) as ReportRow[];
    return { rows, total };
  }

  idsWithStatus(status: ReportStatus): string[] {
    return this.db
      .prepare(`SELECT id FROM reports WHERE status = ? ORDER BY created_at, id`)
      .pluck()
      .all(status) as string[];
  }

  duePending(now: string): ReportRow[] {
    return this.db
      .prepare(`SELECT * FROM reports WHERE status = 'pending' AND due_at <= ? ORDER BY due_at, id`)
      .all(now) as ReportRow[];
  }

  setStatus(id: string, status: ReportStatus): void {
    this.db.prepare(`UPDATE reports SET status = ? WHERE id = ?`).run(status, id);
  }

  setCampaigns(id: string, campaignIds: string[]): void {
    this.db.prepare(`UPDATE reports SET campaign_ids = ? WHERE id = ?`).run(JSON.stringify(campaignIds), id);
  }

  complete(
    id: string,
    v: { summary: string; filePath: string; completedAt: string; expiresAt: string },
  ): void {
    this.db
      .prepare(
        `UPDATE reports SET status = 'completed', summary = ?, file_path = ?, completed_at = ?, expires_at = ?, error = NULL
          WHERE id = ?`,
      )
      .run(v.summary, v.filePath, v.completedAt, v.expiresAt, id);
  }

  fail(id: string, error: string, at: string): void {
    this.db
      .prepare(`UPDATE reports SET status = 'failed', error = ?, completed_at = ? WHERE id = ?`)
      .run(error, at, id);
  }

  insertSchedule(row: ScheduleRow): void {
    this.db
      .prepare(
        `INSERT INTO report_schedules (id, workspace_id, account_id, cadence, request, next_run_at, created_at, cancelled_at)
         VALUES (@id, @workspace_id, @account_id, @cadence, @request, @next_run_at, @created_at, @cancelled_at)`,
      )
      .run(row);
  }

  schedule(id: string): ScheduleRow | undefined {
    return this.db.prepare(`SELECT * FROM report_schedules WHERE id = ?`).get(id) as ScheduleRow | undefined;
  }

  schedules(ctx: RequestContext): ScheduleRow[] {
    const scope = accountScope(ctx);
    return this.db
      .prepare(
        `SELECT s.* FROM report_schedules s JOIN ad_accounts a ON a.id = s.account_id
          WHERE s.workspace_id = ? AND ${scope.sql} ORDER BY s.created_at, s.id`,
      )
      .all(ctx.workspaceId, ...scope.params) as ScheduleRow[];
  }

  setNextRun(id: string, nextRunAt: string): void {
    this.db.prepare(`UPDATE report_schedules SET next_run_at = ? WHERE id = ?`).run(nextRunAt, id);
  }

  cancelSchedule(id: string, at: string): void {
    this.db.transaction(() => {
      this.db.prepare(`UPDATE report_schedules SET cancelled_at = ? WHERE id = ?`).run(at, id);
      this.db.prepare(`DELETE FROM reports WHERE schedule_id = ? AND status = 'pending'`).run(id);
    })();
  }
}

// ---- Client branding and deliveries (migration 0010) ----

export interface BrandingRow {
  workspace_id: string;
  account_id: string;
  company_name: string;
  logo: string | null;
  primary_color: string | null;
  footer_text: string | null;
  updated_at: string;
}

export interface DeliveryRow {
  id: string;
  report_id: string;
  channel: 'folder' | 'email';
  target: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  delivered_at: string | null;
  path: string | null;
  created_at: string;
}

export function workspacePlan(db: Db, workspaceId: string): string | undefined {
  return db.prepare(`SELECT plan FROM workspaces WHERE id = ?`).pluck().get(workspaceId) as
    string | undefined;
}

export function accountName(db: Db, accountId: string): string | undefined {
  return db.prepare(`SELECT name FROM ad_accounts WHERE id = ?`).pluck().get(accountId) as string | undefined;
}

export function clientBranding(db: Db, workspaceId: string, accountId: string): BrandingRow | undefined {
  return db
    .prepare(`SELECT * FROM client_branding WHERE workspace_id = ? AND account_id = ?`)
    .get(workspaceId, accountId) as BrandingRow | undefined;
}

export function saveClientBranding(db: Db, row: BrandingRow): void {
  db.prepare(
    `INSERT INTO client_branding (workspace_id, account_id, company_name, logo, primary_color, footer_text, updated_at)
     VALUES (@workspace_id, @account_id, @company_name, @logo, @primary_color, @footer_text, @updated_at)
     ON CONFLICT (workspace_id, account_id) DO UPDATE SET company_name = excluded.company_name,
       logo = excluded.logo, primary_color = excluded.primary_color, footer_text = excluded.footer_text,
       updated_at = excluded.updated_at`,
  ).run(row);
}

export function deleteClientBranding(db: Db, workspaceId: string, accountId: string): void {
  db.prepare(`DELETE FROM client_branding WHERE workspace_id = ? AND account_id = ?`).run(
    workspaceId,
    accountId,
  );
}

export function insertDeliveries(db: Db, rows: DeliveryRow[]): void {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO report_deliveries (id, report_id, channel, target, status, attempts, next_attempt_at,
       last_error, delivered_at, path, created_at)
     VALUES (@id, @report_id, @channel, @target, @status, @attempts, @next_attempt_at, @last_error, @delivered_at,
       @path, @created_at)`,
  );
  db.transaction(() => rows.forEach((row) => insert.run(row)))();
}

export function deliveriesOf(db: Db, reportIds: readonly string[]): DeliveryRow[] {
  if (reportIds.length === 0) return [];
  return db
    .prepare(
      `SELECT * FROM report_deliveries WHERE report_id IN (SELECT value FROM json_each(?))
        ORDER BY created_at, channel, target`,
    )
    .all(JSON.stringify(reportIds)) as DeliveryRow[];
}

export function dueDeliveries(db: Db, now: string): DeliveryRow[] {
  return db
    .prepare(
      `SELECT * FROM report_deliveries WHERE status = 'pending' AND next_attempt_at <= ?
        ORDER BY next_attempt_at, id`,
    )
    .all(now) as DeliveryRow[];
}

export function saveDeliveryOutcome(
  db: Db,
  id: string,
  v: Pick<DeliveryRow, 'status' | 'attempts' | 'next_attempt_at' | 'last_error' | 'delivered_at' | 'path'>,
): void {
  db.prepare(
    `UPDATE report_deliveries SET status = @status, attempts = @attempts, next_attempt_at = @next_attempt_at,
       last_error = @last_error, delivered_at = @delivered_at, path = @path WHERE id = @id`,
  ).run({ id, ...v });
}
