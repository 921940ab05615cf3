// The alert tables (destinations, the deliveries outbox, digests) and the few reads alerts need from
// the rest of the store. The only SQL of alerts, behind the store boundary (either engine).
import { jsonValues } from '../store/dialect';
import type { Sql } from '../store/sql';

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

const DESTINATION_COLUMNS = `id, workspace_id, account_id, kind, target, format, min_risk, types, secret_sealed, created_at`;
const DELIVERY_COLUMNS = `id, destination_id, dedupe_key, type, payload, status, attempts, created_at, next_attempt_at,
  expires_at, last_status, last_error, delivered_at`;

export async function insertDestination(sql: Sql, row: DestinationRow): Promise<void> {
  await sql.run(
    `INSERT INTO alert_destinations (${DESTINATION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      row.id,
      row.workspace_id,
      row.account_id,
      row.kind,
      row.target,
      row.format,
      row.min_risk,
      row.types,
      row.secret_sealed,
      row.created_at,
    ],
  );
}

export function destinationsOf(sql: Sql, workspaceId: string): Promise<DestinationRow[]> {
  return sql.all<DestinationRow>(
    `SELECT ${DESTINATION_COLUMNS} FROM alert_destinations WHERE workspace_id = ? ORDER BY created_at, id`,
    [workspaceId],
  );
}

export function destinationRow(sql: Sql, id: string): Promise<DestinationRow | undefined> {
  return sql.get<DestinationRow>(`SELECT ${DESTINATION_COLUMNS} FROM alert_destinations WHERE id = ?`, [id]);
}

export async function deleteDestination(sql: Sql, id: string): Promise<void> {
  await sql.run(`DELETE FROM alert_destinations WHERE id = ?`, [id]);
}

/** Queues a delivery; false when this destination already has one for this key (never twice). */
export async function enqueueDelivery(sql: Sql, row: DeliveryRow): Promise<boolean> {
  const { changes } = await sql.run(
    `INSERT INTO alert_deliveries (${DELIVERY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (destination_id, dedupe_key) DO NOTHING`,
    [
      row.id,
      row.destination_id,
      row.dedupe_key,
      row.type,
      row.payload,
      row.status,
      row.attempts,
      row.created_at,
      row.next_attempt_at,
      row.expires_at,
      row.last_status,
      row.last_error,
      row.delivered_at,
    ],
  );
  return changes === 1;
}

export function dueDeliveries(sql: Sql, nowIso: string): Promise<DeliveryRow[]> {
  return sql.all<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM alert_deliveries WHERE status = 'pending' AND next_attempt_at <= ?
     ORDER BY next_attempt_at, id LIMIT 100`,
    [nowIso],
  );
}

/** Takes a due delivery for one attempt (a lease), so two processes never send it together. */
export async function claimDelivery(sql: Sql, row: DeliveryRow, leaseUntil: string): Promise<boolean> {
  const { changes } = await sql.run(
    `UPDATE alert_deliveries SET next_attempt_at = ? WHERE id = ? AND status = 'pending' AND next_attempt_at = ?`,
    [leaseUntil, row.id, row.next_attempt_at],
  );
  return changes === 1;
}

export async function saveDeliveryOutcome(
  sql: Sql,
  row: Pick<
    DeliveryRow,
    'id' | 'status' | 'attempts' | 'next_attempt_at' | 'last_status' | 'last_error' | 'delivered_at'
  >,
): Promise<void> {
  await sql.run(
    `UPDATE alert_deliveries SET status = ?, attempts = ?, next_attempt_at = ?, last_status = ?, last_error = ?,
       delivered_at = ? WHERE id = ?`,
    [
      row.status,
      row.attempts,
      row.next_attempt_at,
      row.last_status,
      row.last_error,
      row.delivered_at,
      row.id,
    ],
  );
}

/** The destination's latest delivery (the latest queued; by ID among those queued at the same instant). */
export function lastDeliveryOf(sql: Sql, destinationId: string): Promise<DeliveryRow | undefined> {
  return sql.get<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM alert_deliveries WHERE destination_id = ?
     ORDER BY created_at DESC, id DESC LIMIT 1`,
    [destinationId],
  );
}

/** The destination's deliveries in the order they were queued (by ID among those of the same instant). */
export function deliveriesOf(sql: Sql, destinationId: string): Promise<DeliveryRow[]> {
  return sql.all<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM alert_deliveries WHERE destination_id = ? ORDER BY created_at, id`,
    [destinationId],
  );
}

export async function saveDigest(sql: Sql, row: DigestRow): Promise<void> {
  await sql.run(
    `INSERT INTO alert_digests (user_id, workspace_id, hour, timezone, last_day, last_sent_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_id) DO UPDATE SET hour = excluded.hour, timezone = excluded.timezone,
       last_day = excluded.last_day, last_sent_at = excluded.last_sent_at`,
    [row.user_id, row.workspace_id, row.hour, row.timezone, row.last_day, row.last_sent_at],
  );
}

export async function deleteDigest(sql: Sql, userId: string): Promise<void> {
  await sql.run(`DELETE FROM alert_digests WHERE user_id = ?`, [userId]);
}

const DIGEST_COLUMNS = `user_id, workspace_id, hour, timezone, last_day, last_sent_at`;

export function allDigests(sql: Sql): Promise<DigestRow[]> {
  return sql.all<DigestRow>(`SELECT ${DIGEST_COLUMNS} FROM alert_digests ORDER BY user_id`);
}

export function digestOf(sql: Sql, userId: string): Promise<DigestRow | undefined> {
  return sql.get<DigestRow>(`SELECT ${DIGEST_COLUMNS} FROM alert_digests WHERE user_id = ?`, [userId]);
}

interface AccountFacts {
  id: string;
  name: string;
  workspace_id: string;
  status: string;
  timezone: string;
}

export function accountName(sql: Sql, accountId: string): Promise<AccountFacts | undefined> {
  return sql.get<AccountFacts>(
    `SELECT id, name, workspace_id, status, timezone FROM ad_accounts WHERE id = ?`,
    [accountId],
  );
}

export async function userEmail(sql: Sql, userId: string): Promise<string | undefined> {
  return (await sql.get<{ email: string }>(`SELECT email FROM users WHERE id = ?`, [userId]))?.email;
}

/** The account's latest whole day (before `today`) with spend, and its conversions that day. */
export function lastSpendDay(
  sql: Sql,
  accountId: string,
  today: string,
): Promise<{ date: string; spend_micros: number; conversions: number } | undefined> {
  return sql.get<{ date: string; spend_micros: number; conversions: number }>(
    `SELECT date, spend_micros, conversions FROM insights_account_daily
     WHERE account_id = ? AND spend_micros > 0 AND date < ? ORDER BY date DESC LIMIT 1`,
    [accountId, today],
  );
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
export function issuesChangedSince(sql: Sql, accountIds: string[], since: string): Promise<ChangeRow[]> {
  return sql.all<ChangeRow>(
    `SELECT i.id AS issue_id, i.account_id, a.name AS account_name, c.name AS campaign_name, i.title, i.severity,
       i.history
     FROM issues i JOIN ad_accounts a ON a.id = i.account_id LEFT JOIN campaigns c ON c.id = i.campaign_id
     WHERE i.account_id IN ${jsonValues(sql)} AND i.updated_at > ? ORDER BY i.updated_at, i.id`,
    [JSON.stringify(accountIds), since],
  );
}

export function syncsFailedSince(
  sql: Sql,
  accountIds: string[],
  since: string,
): Promise<{ account_name: string; finished_at: string; error: string | null }[]> {
  // Runs started within a day before `since` at the earliest (a sync takes minutes): a keyed range of
  // each account's (account_id, started_at), not the month of hourly runs it keeps.
  const startedAfter = new Date(Date.parse(since) - 86_400_000).toISOString();
  return sql.all<{ account_name: string; finished_at: string; error: string | null }>(
    `SELECT a.name AS account_name, r.finished_at, r.error FROM sync_runs r JOIN ad_accounts a ON a.id = r.account_id
     WHERE r.account_id IN ${jsonValues(sql)} AND r.started_at > ? AND r.status = 'failed' AND r.finished_at > ?
     ORDER BY r.finished_at, r.id`,
    [JSON.stringify(accountIds), startedAfter, since],
  );
}

/** The account's spending limit and lifetime amount spent (micros); undefined without a cap. */
export async function spendCapOf(
  sql: Sql,
  accountId: string,
): Promise<{ spend_cap_micros: number; amount_spent_micros: number } | undefined> {
  const row = await sql.get<{ spend_cap_micros: number | null; amount_spent_micros: number | null }>(
    `SELECT spend_cap_micros, amount_spent_micros FROM ad_accounts WHERE id = ?`,
    [accountId],
  );
  if (!row || row.spend_cap_micros === null || row.amount_spent_micros === null) return undefined;
  return { spend_cap_micros: row.spend_cap_micros, amount_spent_micros: row.amount_spent_micros };
}

/**
 * The account's daily budgets in force (micros): active campaigns' own daily budgets (CBO), plus the
 * daily budgets of active ad sets under active campaigns that have none.
 */
export async function dailyBudgetMicros(sql: Sql, accountId: string): Promise<number> {
  const row = await sql.get<{ micros: number }>(
    `SELECT
       (SELECT coalesce(sum(daily_budget_micros), 0) FROM campaigns
          WHERE account_id = ? AND effective_status = 'ACTIVE' AND daily_budget_micros IS NOT NULL)
     + (SELECT coalesce(sum(s.daily_budget_micros), 0) FROM ad_sets s JOIN campaigns c ON c.id = s.campaign_id
          WHERE s.account_id = ? AND s.effective_status = 'ACTIVE' AND s.daily_budget_micros IS NOT NULL
            AND c.effective_status = 'ACTIVE' AND c.daily_budget_micros IS NULL) AS micros`,
    [accountId, accountId],
  );
  return row?.micros ?? 0;
}
