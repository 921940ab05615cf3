// The alert tables (destinations, the deliveries outbox, digests) and the few reads alerts need from
// the rest of the store. The only SQL of alerts.
import { stmt } from '../store/statements';
import type { Db } from '../store/open';

export interface DestinationRow {
  id: string;
  workspace_id: string;
  account_id: string | null;
  kind: 'webhook' | 'email';
  target: string;
  format: 'json' | 'slack';
  min_risk: 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL';
  types: string;
  secret_sealed: Buffer | null;
  created_at: string;
}

export interface DeliveryRow {
  id: string;
  destination_id: string;
  dedupe_key: string;
  type: string;
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  created_at: string;
  next_attempt_at: string;
  expires_at: string;
  last_status: number | null;
  last_error: string | null;
  delivered_at: string | null;
}

export interface DigestRow {
  user_id: string;
  workspace_id: string;
  hour: number;
  timezone: string;
  last_day: string | null;
  last_sent_at: string | null;
}

export function insertDestination(db: Db, row: DestinationRow): void {
  stmt(
    db,
    `INSERT INTO alert_destinations (id, workspace_id, account_id, kind, target, format, min_risk, types, secret_sealed, created_at)
     VALUES (@id, @workspace_id, @account_id, @kind, @target, @format, @min_risk, @types, @secret_sealed, @created_at)`,
  ).run(row);
}

export function destinationsOf(db: Db, workspaceId: string): DestinationRow[] {
  return stmt(db, `SELECT * FROM alert_destinations WHERE workspace_id = ? ORDER BY created_at, id`).all(
    workspaceId,
  ) as DestinationRow[];
}

export function destinationRow(db: Db, id: string): DestinationRow | undefined {
  return stmt(db, `SELECT * FROM alert_destinations WHERE id = ?`).get(id) as DestinationRow | undefined;
}

export function deleteDestination(db: Db, id: string): void {
  stmt(db, `DELETE FROM alert_destinations WHERE id = ?`).run(id);
}

/** Queues a delivery; false when this destination already has one for this key (never twice). */
export function enqueueDelivery(db: Db, row: DeliveryRow): boolean {
  return (
    stmt(
      db,
      `INSERT OR IGNORE INTO alert_deliveries (id, destination_id, dedupe_key, type, payload, status, attempts,
         created_at, next_attempt_at, expires_at, last_status, last_error, delivered_at)
       VALUES (@id, @destination_id, @dedupe_key, @type, @payload, @status, @attempts, @created_at,
         @next_attempt_at, @expires_at, @last_status, @last_error, @delivered_at)`,
    ).run(row).changes === 1
  );
}

export function dueDeliveries(db: Db, nowIso: string): DeliveryRow[] {
  return stmt(
    db,
    `SELECT * FROM alert_deliveries WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT 100`,
  ).all(nowIso) as DeliveryRow[];
}

/** Takes a due delivery for one attempt (a lease), so two processes never send it together. */
export function claimDelivery(db: Db, row: DeliveryRow, leaseUntil: string): boolean {
  return (
    stmt(
      db,
      `UPDATE alert_deliveries SET next_attempt_at = ? WHERE id = ? AND status = 'pending' AND next_attempt_at = ?`,
    ).run(leaseUntil, row.id, row.next_attempt_at).changes === 1
  );
}

export function saveDeliveryOutcome(
  db: Db,
  row: Pick<
    DeliveryRow,
    'id' | 'status' | 'attempts' | 'next_attempt_at' | 'last_status' | 'last_error' | 'delivered_at'
  >,
): void {
  stmt(
    db,
    `UPDATE alert_deliveries SET status = @status, attempts = @attempts, next_attempt_at = @next_attempt_at,
       last_status = @last_status, last_error = @last_error, delivered_at = @delivered_at WHERE id = @id`,
  ).run(row);
}

export function lastDeliveryOf(db: Db, destinationId: string): DeliveryRow | undefined {
  return stmt(
    db,
    `SELECT * FROM alert_deliveries WHERE destination_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`,
  ).get(destinationId) as DeliveryRow | undefined;
}

export function deliveriesOf(db: Db, destinationId: string): DeliveryRow[] {
  return stmt(db, `SELECT * FROM alert_deliveries WHERE destination_id = ? ORDER BY rowid`).all(
    destinationId,
  ) as DeliveryRow[];
}

export function saveDigest(db: Db, row: DigestRow): void {
  stmt(
    db,
    `INSERT INTO alert_digests (user_id, workspace_id, hour, timezone, last_day, last_sent_at)
     VALUES (@user_id, @workspace_id, @hour, @timezone, @last_day, @last_sent_at)
     ON CONFLICT (user_id) DO UPDATE SET hour = excluded.hour, timezone = excluded.timezone,
       last_day = excluded.last_day, last_sent_at = excluded.last_sent_at`,
  ).run(row);
}

export function deleteDigest(db: Db, userId: string): void {
  stmt(db, `DELETE FROM alert_digests WHERE user_id = ?`).run(userId);
}

export function allDigests(db: Db): DigestRow[] {
  return stmt(db, `SELECT * FROM alert_digests`).all() as DigestRow[];
}

export function digestOf(db: Db, userId: string): DigestRow | undefined {
  return stmt(db, `SELECT * FROM alert_digests WHERE user_id = ?`).get(userId) as DigestRow | undefined;
}

interface AccountFacts {
  id: string;
  name: string;
  workspace_id: string;
  status: string;
  timezone: string;
}

export function accountName(db: Db, accountId: string): AccountFacts | undefined {
  return stmt(db, `SELECT id, name, workspace_id, status, timezone FROM ad_accounts WHERE id = ?`).get(
    accountId,
  ) as AccountFacts | undefined;
}

export function userEmail(db: Db, userId: string): string | undefined {
  return (stmt(db, `SELECT email FROM users WHERE id = ?`).get(userId) as { email: string } | undefined)
    ?.email;
}

/** The account's latest whole day (before `today`) with spend, and its conversions that day. */
export function lastSpendDay(
  db: Db,
  accountId: string,
  today: string,
): { date: string; spend_micros: number; conversions: number } | undefined {
  return stmt(
    db,
    `SELECT date, spend_micros, conversions FROM insights_account_daily
     WHERE account_id = ? AND spend_micros > 0 AND date < ? ORDER BY date DESC LIMIT 1`,
  ).get(accountId, today) as { date: string; spend_micros: number; conversions: number } | undefined;
}

export interface ChangeRow {
  issue_id: string;
  account_id: string;
  account_name: string;
  campaign_name: string | null;
  title: string;
  severity: string;
  history: string;
}

/** Issues of these accounts updated since `since` (their history says what changed when). */
export function issuesChangedSince(db: Db, accountIds: string[], since: string): ChangeRow[] {
  return stmt(
    db,
    `SELECT i.id AS issue_id, i.account_id, a.name AS account_name, c.name AS campaign_name, i.title, i.severity,
       i.history
     FROM issues i JOIN ad_accounts a ON a.id = i.account_id LEFT JOIN campaigns c ON c.id = i.campaign_id
     WHERE i.account_id IN (SELECT value FROM json_each(?)) AND i.updated_at > ? ORDER BY i.updated_at`,
  ).all(JSON.stringify(accountIds), since) as ChangeRow[];
}

export function syncsFailedSince(
  db: Db,
  accountIds: string[],
  since: string,
): { account_name: string; finished_at: string; error: string | null }[] {
  return stmt(
    db,
    `SELECT a.name AS account_name, r.finished_at, r.error FROM sync_runs r JOIN ad_accounts a ON a.id = r.account_id
     WHERE r.account_id IN (SELECT value FROM json_each(?)) AND r.status = 'failed' AND r.finished_at > ?
     ORDER BY r.finished_at`,
  ).all(JSON.stringify(accountIds), since) as {
    account_name: string;
    finished_at: string;
    error: string | null;
  }[];
}

/** The account's spending limit and lifetime amount spent (micros); undefined without a cap. */
export function spendCapOf(
  db: Db,
  accountId: string,
): { spend_cap_micros: number; amount_spent_micros: number } | undefined {
  const row = stmt(db, `SELECT spend_cap_micros, amount_spent_micros FROM ad_accounts WHERE id = ?`).get(
    accountId,
  ) as { spend_cap_micros: number | null; amount_spent_micros: number | null } | undefined;
  if (!row || row.spend_cap_micros === null || row.amount_spent_micros === null) return undefined;
  return { spend_cap_micros: row.spend_cap_micros, amount_spent_micros: row.amount_spent_micros };
}

/**
 * The account's daily budgets in force (micros): active campaigns' own daily budgets (CBO), plus the
 * daily budgets of active ad sets under active campaigns that have none.
 */
export function dailyBudgetMicros(db: Db, accountId: string): number {
  const row = stmt(
    db,
    `SELECT
       (SELECT coalesce(sum(daily_budget_micros), 0) FROM campaigns
          WHERE account_id = @id AND effective_status = 'ACTIVE' AND daily_budget_micros IS NOT NULL)
     + (SELECT coalesce(sum(s.daily_budget_micros), 0) FROM ad_sets s JOIN campaigns c ON c.id = s.campaign_id
          WHERE s.account_id = @id AND s.effective_status = 'ACTIVE' AND s.daily_budget_micros IS NOT NULL
            AND c.effective_status = 'ACTIVE' AND c.daily_budget_micros IS NULL) AS micros`,
  ).get({ id: accountId }) as { micros: number };
  return row.micros;
}
