import { AppError } from '../errors';
import type { Db } from '../store/open';

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

export function getAdAccount(db: Db, id: string): AdAccount | undefined {
  const row = db.prepare(`SELECT * FROM ad_accounts WHERE id = ?`).get(id) as AdAccountRow | undefined;
  return row ? toAdAccount(row) : undefined;
}

export function listAdAccounts(db: Db, workspaceId: string): AdAccount[] {
  const rows = db
    .prepare(`SELECT * FROM ad_accounts WHERE workspace_id = ? ORDER BY connected_at, id`)
    .all(workspaceId) as AdAccountRow[];
  return rows.map(toAdAccount);
}

/**
 * An account of the workspace by service ID or platform ID (act_<digits>), as the CLI and API accept
 * either; not_found when it is not connected there.
 */
export function resolveAdAccount(db: Db, workspaceId: string, idOrPlatformId: string): AdAccount {
  const row = db
    .prepare(`SELECT * FROM ad_accounts WHERE workspace_id = ? AND (id = ? OR platform_account_id = ?)`)
    .get(workspaceId, idOrPlatformId, idOrPlatformId) as AdAccountRow | undefined;
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

export function getConnection(db: Db, id: string): ConnectionRow | undefined {
  return db.prepare(`SELECT * FROM platform_connections WHERE id = ?`).get(id) as ConnectionRow | undefined;
}

/** Marks a connection and every account on it token_expired; returns the accounts that changed. */
export function expireConnection(db: Db, connectionId: string, reason: string, now: string): AdAccount[] {
  return db.transaction(() => {
    db.prepare(
      `UPDATE platform_connections SET status = 'token_expired', status_reason = ?, updated_at = ? WHERE id = ?`,
    ).run(reason, now, connectionId);
    const changed = db
      .prepare(
        // An account the user disconnected stays disconnected: only active ones expire.
        `UPDATE ad_accounts SET connection_status = 'token_expired'
         WHERE connection_id = ? AND connection_status = 'active' RETURNING *`,
      )
      .all(connectionId) as AdAccountRow[];
    return changed.map(toAdAccount);
  })();
}
