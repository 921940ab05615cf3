// Ad accounts and their platform connections as the sync reads and expires them.
import { AppError } from '../errors';
import type { Db } from '../store/open';
import type { Sql } from '../store/sql';

export type ConnectionStatus = 'active' | 'disconnected' | 'token_expired';

/** An ad account as stored (service ID, platform ID, connection state). */
export interface AdAccount {
  id: string;
  workspaceId: string;
  connectionId: string;
  platformAccountId: string;
  mode: 'test' | 'live';
  name: string;
  currency: string;
  timezone: string;
  status: 'active' | 'disabled' | 'closed';
  connectionStatus: ConnectionStatus;
  businessId: string;
  businessName: string;
  permissions: string[];
  connectedAt: string;
  connectedBy: string | null;
  lastSyncedAt: string | null;
}

export interface AdAccountRow {
  id: string;
  workspace_id: string;
  connection_id: string;
  platform_account_id: string;
  mode: 'test' | 'live';
  name: string;
  currency: string;
  timezone: string;
  status: 'active' | 'disabled' | 'closed';
  connection_status: ConnectionStatus;
  business_id: string;
  business_name: string;
  permissions: string;
  connected_at: string;
  connected_by: string | null;
  last_synced_at: string | null;
}

export function toAdAccount(row: AdAccountRow): AdAccount {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    connectionId: row.connection_id,
    platformAccountId: row.platform_account_id,
    mode: row.mode,
    name: row.name,
    currency: row.currency,
    timezone: row.timezone,
    status: row.status,
    connectionStatus: row.connection_status,
    businessId: row.business_id,
    businessName: row.business_name,
    permissions: JSON.parse(row.permissions) as string[],
    connectedAt: row.connected_at,
    connectedBy: row.connected_by,
    lastSyncedAt: row.last_synced_at,
  };
}

export async function getAdAccount(sql: Sql, id: string): Promise<AdAccount | undefined> {
  const row = await sql.get<AdAccountRow>(`SELECT * FROM ad_accounts WHERE id = ?`, [id]);
  return row ? toAdAccount(row) : undefined;
}

export async function listAdAccounts(sql: Sql, workspaceId: string): Promise<AdAccount[]> {
  const rows = await sql.all<AdAccountRow>(
    `SELECT * FROM ad_accounts WHERE workspace_id = ? ORDER BY connected_at, id`,
    [workspaceId],
  );
  return rows.map(toAdAccount);
}

/**
 * An account of the workspace by service ID or platform ID (act_<digits>), as the CLI and API accept
 * either; not_found when it is not connected there.
 */
export async function resolveAdAccount(
  sql: Sql,
  workspaceId: string,
  idOrPlatformId: string,
): Promise<AdAccount> {
  const row = await sql.get<AdAccountRow>(
    `SELECT * FROM ad_accounts WHERE workspace_id = ? AND (id = ? OR platform_account_id = ?)`,
    [workspaceId, idOrPlatformId, idOrPlatformId],
  );
  if (!row)
    throw new AppError(
      'not_found',
      `no ad account ${idOrPlatformId} is connected in workspace ${workspaceId}`,
    );
  return toAdAccount(row);
}

export interface ConnectionRow {
  id: string;
  workspace_id: string;
  base_url: string;
  api_version: string;
  mode: 'test' | 'live';
  token_encrypted: Buffer;
  status: ConnectionStatus;
  status_reason: string | null;
}

export function getConnection(sql: Sql, id: string): Promise<ConnectionRow | undefined> {
  return sql.get<ConnectionRow>(`SELECT * FROM platform_connections WHERE id = ?`, [id]);
}

const EXPIRE_CONNECTION = `UPDATE platform_connections SET status = 'token_expired', status_reason = ?, updated_at = ?
  WHERE id = ?`;
// An account the user disconnected stays disconnected: only active ones expire.
const EXPIRE_ACCOUNTS = `UPDATE ad_accounts SET connection_status = 'token_expired'
  WHERE connection_id = ? AND connection_status = 'active' RETURNING *`;

/**
 * Marks a connection and every account on it token_expired; returns the accounts that changed. Pass a
 * `tx` when the caller's transaction is open.
 */
export async function expireConnection(
  sql: Sql,
  connectionId: string,
  reason: string,
  now: string,
): Promise<AdAccount[]> {
  return sql.transaction(async (tx) => {
    await tx.run(EXPIRE_CONNECTION, [reason, now, connectionId]);
    return (await tx.all<AdAccountRow>(EXPIRE_ACCOUNTS, [connectionId])).map(toAdAccount);
  });
}

/**
 * The same, for `createCore`'s synchronous sealing check (SQLite opens synchronously; the caller's
 * transaction is open on `db`).
 */
export function expireConnectionAtOpen(db: Db, connectionId: string, reason: string, now: string): void {
  db.prepare(EXPIRE_CONNECTION).run(reason, now, connectionId);
  db.prepare(EXPIRE_ACCOUNTS).all(connectionId);
}
