// SQL for reports, report schedules, client branding and report deliveries, behind the store boundary
// (either engine). Every lookup made for a request is scoped by workspace and mode.
import type { ReportStatus } from '../../shared/api/reports';
import { AppError } from '../errors';
import { accountScope, type RequestContext } from '../identity/access';
import { isPlatformAccountId } from '../ids';
import { jsonValues, jsonValuesOf } from '../store/dialect';
import type { Sql, SqlValue } from '../store/sql';
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

const REPORT_COLUMNS = `id, workspace_id, account_id, schedule_id, title, campaign_ids, format, status, date_from,
  date_to, white_label, summary, file_path, error, due_at, created_at, completed_at, expires_at`;

const reportValues = (row: ReportRow): SqlValue[] => [
  row.id,
  row.workspace_id,
  row.account_id,
  row.schedule_id,
  row.title,
  row.campaign_ids,
  row.format,
  row.status,
  row.date_from,
  row.date_to,
  row.white_label,
  row.summary,
  row.file_path,
  row.error,
  row.due_at,
  row.created_at,
  row.completed_at,
  row.expires_at,
];

export class ReportStore {
  constructor(private readonly sql: Sql) {}

  /** The same store on a transaction's `tx`. */
  on(tx: Sql): ReportStore {
    return new ReportStore(tx);
  }

  /** The account (service or platform ID) inside the context's workspace and mode, or 404. */
  async account(ctx: RequestContext, idText: string): Promise<{ id: string; currency: string }> {
    const scope = accountScope(ctx);
    const column = isPlatformAccountId(idText) ? 'platform_account_id' : 'id';
    const row = await this.sql.get<{ id: string; currency: string }>(
      `SELECT a.id, a.currency FROM ad_accounts a WHERE a.${column} = ? AND ${scope.sql}`,
      [idText, ...scope.params],
    );
    if (!row) throw new AppError('not_found', `Ad account ${idText} was not found.`);
    return row;
  }

  /** Service or platform campaign IDs → service IDs of this account, de-duplicated; any other → 404. */
  async resolveCampaigns(accountId: string, ids: readonly string[]): Promise<string[]> {
    const rows = await this.sql.all<{ id: string; platform_campaign_id: string }>(
      `SELECT id, platform_campaign_id FROM campaigns WHERE account_id = ?
         AND (id IN ${jsonValues(this.sql)} OR platform_campaign_id IN ${jsonValues(this.sql)})`,
      [accountId, JSON.stringify(ids), JSON.stringify(ids)],
    );
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
  async defaultCampaigns(accountId: string, from: string, to: string, limit: number): Promise<string[]> {
    const spending = await this.sql.all<{ campaign_id: string }>(
      `SELECT campaign_id FROM insights_campaign_daily
        WHERE account_id = ? AND date BETWEEN ? AND ?
        GROUP BY campaign_id HAVING sum(spend_micros) > 0
        ORDER BY sum(spend_micros) DESC, campaign_id LIMIT ?`,
      [accountId, from, to, limit],
    );
    if (spending.length > 0) return spending.map((r) => r.campaign_id);
    const all = await this.sql.all<{ id: string }>(
      `SELECT id FROM campaigns WHERE account_id = ? ORDER BY name, id LIMIT ?`,
      [accountId, limit],
    );
    return all.map((r) => r.id);
  }

  async insert(row: ReportRow): Promise<void> {
    await this.sql.run(
      `INSERT INTO reports (${REPORT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      reportValues(row),
    );
  }

  byId(id: string): Promise<ReportRow | undefined> {
    return this.sql.get<ReportRow>(`SELECT ${REPORT_COLUMNS} FROM reports WHERE id = ?`, [id]);
  }

  /** The report if the context may see it (its workspace, and its account's mode). */
  visible(ctx: RequestContext, id: string): Promise<ReportRow | undefined> {
    const scope = accountScope(ctx);
    return this.sql.get<ReportRow>(
      `SELECT r.* FROM reports r JOIN ad_accounts a ON a.id = r.account_id
        WHERE r.id = ? AND r.workspace_id = ? AND ${scope.sql}`,
      [id, ctx.workspaceId, ...scope.params],
    );
  }

  async list(ctx: RequestContext, f: ListFilter): Promise<{ rows: ReportRow[]; total: number }> {
    const scope = accountScope(ctx);
    const where = [`r.workspace_id = ?`, scope.sql, `r.account_id IN ${jsonValues(this.sql)}`];
    const params: SqlValue[] = [ctx.workspaceId, ...scope.params, JSON.stringify(f.accountIds)];
    if (f.accountId) {
      where.push(`r.account_id = ?`);
      params.push(f.accountId);
    }
    if (f.campaignId) {
      where.push(`CAST(? AS TEXT) IN ${jsonValuesOf(this.sql, 'r.campaign_ids')}`);
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
    const counted = await this.sql.get<{ n: number }>(`SELECT count(*) AS n ${from}`, params);
    const rows = await this.sql.all<ReportRow>(
      `SELECT r.* ${from} ORDER BY r.created_at DESC, r.id DESC LIMIT ? OFFSET ?`,
      [...params, f.pageSize, (f.page - 1) * f.pageSize],
    );
    return { rows, total: counted?.n ?? 0 };
  }

  async idsWithStatus(status: ReportStatus): Promise<string[]> {
    const rows = await this.sql.all<{ id: string }>(
      `SELECT id FROM reports WHERE status = ? ORDER BY created_at, id`,
      [status],
    );
    return rows.map((r) => r.id);
  }

  duePending(now: string): Promise<ReportRow[]> {
    return this.sql.all<ReportRow>(
      `SELECT ${REPORT_COLUMNS} FROM reports WHERE status = 'pending' AND due_at <= ? ORDER BY due_at, id`,
      [now],
    );
  }

  /** Moves a due `pending` report to `generating`; false when another caller already did. */
  async claimPending(id: string): Promise<boolean> {
    const { changes } = await this.sql.run(
      `UPDATE reports SET status = 'generating' WHERE id = ? AND status = 'pending'`,
      [id],
    );
    return changes === 1;
  }

  async setCampaigns(id: string, campaignIds: string[]): Promise<void> {
    await this.sql.run(`UPDATE reports SET campaign_ids = ? WHERE id = ?`, [JSON.stringify(campaignIds), id]);
  }

  async complete(
    id: string,
    v: { summary: string; filePath: string; completedAt: string; expiresAt: string },
  ): Promise<void> {
    await this.sql.run(
      `UPDATE reports SET status = 'completed', summary = ?, file_path = ?, completed_at = ?, expires_at = ?, error = NULL
        WHERE id = ?`,
      [v.summary, v.filePath, v.completedAt, v.expiresAt, id],
    );
  }

  async fail(id: string, error: string, at: string): Promise<void> {
    await this.sql.run(`UPDATE reports SET status = 'failed', error = ?, completed_at = ? WHERE id = ?`, [
      error,
      at,
      id,
    ]);
  }

  async insertSchedule(row: ScheduleRow): Promise<void> {
    await this.sql.run(
      `INSERT INTO report_schedules (id, workspace_id, account_id, cadence, request, next_run_at, created_at, cancelled_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        row.id,
        row.workspace_id,
        row.account_id,
        row.cadence,
        row.request,
        row.next_run_at,
        row.created_at,
        row.cancelled_at,
      ],
    );
  }

  schedule(id: string): Promise<ScheduleRow | undefined> {
    return this.sql.get<ScheduleRow>(`SELECT * FROM report_schedules WHERE id = ?`, [id]);
  }

  schedules(ctx: RequestContext): Promise<ScheduleRow[]> {
    const scope = accountScope(ctx);
    return this.sql.all<ScheduleRow>(
      `SELECT s.* FROM report_schedules s JOIN ad_accounts a ON a.id = s.account_id
        WHERE s.workspace_id = ? AND ${scope.sql} ORDER BY s.created_at, s.id`,
      [ctx.workspaceId, ...scope.params],
    );
  }

  async setNextRun(id: string, nextRunAt: string): Promise<void> {
    await this.sql.run(`UPDATE report_schedules SET next_run_at = ? WHERE id = ?`, [nextRunAt, id]);
  }

  /** Cancels a schedule and removes its pending (not yet due) report, together. */
  async cancelSchedule(id: string, at: string): Promise<void> {
    await this.sql.transaction(async (tx) => {
      await tx.run(`UPDATE report_schedules SET cancelled_at = ? WHERE id = ?`, [at, id]);
      await tx.run(`DELETE FROM reports WHERE schedule_id = ? AND status = 'pending'`, [id]);
    });
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

export async function workspacePlan(sql: Sql, workspaceId: string): Promise<string | undefined> {
  return (await sql.get<{ plan: string }>(`SELECT plan FROM workspaces WHERE id = ?`, [workspaceId]))?.plan;
}

export async function accountName(sql: Sql, accountId: string): Promise<string | undefined> {
  return (await sql.get<{ name: string }>(`SELECT name FROM ad_accounts WHERE id = ?`, [accountId]))?.name;
}

export function clientBranding(
  sql: Sql,
  workspaceId: string,
  accountId: string,
): Promise<BrandingRow | undefined> {
  return sql.get<BrandingRow>(`SELECT * FROM client_branding WHERE workspace_id = ? AND account_id = ?`, [
    workspaceId,
    accountId,
  ]);
}

export async function saveClientBranding(sql: Sql, row: BrandingRow): Promise<void> {
  await sql.run(
    `INSERT INTO client_branding (workspace_id, account_id, company_name, logo, primary_color, footer_text, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (workspace_id, account_id) DO UPDATE SET company_name = excluded.company_name,
       logo = excluded.logo, primary_color = excluded.primary_color, footer_text = excluded.footer_text,
       updated_at = excluded.updated_at`,
    [
      row.workspace_id,
      row.account_id,
      row.company_name,
      row.logo,
      row.primary_color,
      row.footer_text,
      row.updated_at,
    ],
  );
}

export async function deleteClientBranding(sql: Sql, workspaceId: string, accountId: string): Promise<void> {
  await sql.run(`DELETE FROM client_branding WHERE workspace_id = ? AND account_id = ?`, [
    workspaceId,
    accountId,
  ]);
}

const DELIVERY_COLUMNS = `id, report_id, channel, target, status, attempts, next_attempt_at, last_error,
  delivered_at, path, created_at`;

/** Queues a report's deliveries; a target it already has is kept as it is. */
export async function insertDeliveries(sql: Sql, rows: DeliveryRow[]): Promise<void> {
  await sql.transaction(async (tx) => {
    for (const row of rows) {
      await tx.run(
        `INSERT INTO report_deliveries (${DELIVERY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT DO NOTHING`,
        [
          row.id,
          row.report_id,
          row.channel,
          row.target,
          row.status,
          row.attempts,
          row.next_attempt_at,
          row.last_error,
          row.delivered_at,
          row.path,
          row.created_at,
        ],
      );
    }
  });
}

export async function deliveriesOf(sql: Sql, reportIds: readonly string[]): Promise<DeliveryRow[]> {
  if (reportIds.length === 0) return [];
  return sql.all<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM report_deliveries WHERE report_id IN ${jsonValues(sql)}
      ORDER BY created_at, channel, target`,
    [JSON.stringify(reportIds)],
  );
}

export function dueDeliveries(sql: Sql, now: string): Promise<DeliveryRow[]> {
  return sql.all<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM report_deliveries WHERE status = 'pending' AND next_attempt_at <= ?
      ORDER BY next_attempt_at, id`,
    [now],
  );
}

/**
 * Takes a due delivery for one attempt (a lease until `leaseUntil`), so two passes or two processes of
 * a team server never send it together; a process that dies mid-attempt leaves it due again then.
 */
export async function claimDelivery(sql: Sql, row: DeliveryRow, leaseUntil: string): Promise<boolean> {
  const { changes } = await sql.run(
    `UPDATE report_deliveries SET next_attempt_at = ? WHERE id = ? AND status = 'pending' AND next_attempt_at = ?`,
    [leaseUntil, row.id, row.next_attempt_at],
  );
  return changes === 1;
}

export async function saveDeliveryOutcome(
  sql: Sql,
  id: string,
  v: Pick<DeliveryRow, 'status' | 'attempts' | 'next_attempt_at' | 'last_error' | 'delivered_at' | 'path'>,
): Promise<void> {
  await sql.run(
    `UPDATE report_deliveries SET status = ?, attempts = ?, next_attempt_at = ?, last_error = ?, delivered_at = ?,
       path = ? WHERE id = ?`,
    [v.status, v.attempts, v.next_attempt_at, v.last_error, v.delivered_at, v.path, id],
  );
}
