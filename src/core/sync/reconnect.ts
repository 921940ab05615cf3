// Disconnecting and reconnecting an account that is already connected. Disconnecting keeps every
// synced row (history stays browsable) and only stops syncing. Reconnecting checks the token against
// the platform through `connectAccount`, then keeps the account on its own connection with the token
// replaced, so every account sharing that connection comes back with it (they expired together).
import type { Core } from '../core';
import { AppError } from '../errors';
import { DEMO_TOKEN } from '../platform/demo';
import { getAdAccount, getConnection, toAdAccount, type AdAccount, type AdAccountRow } from './accounts';
import { DEMO_BASE_URL } from './embedded-demo';
import type { ConnectAccountInput } from './service';

export interface ConnectionSync {
  connectAccount(input: ConnectAccountInput): Promise<{ id: string }>;
  stopSync(accountId: string): Promise<void>;
}

async function accountOf(core: Core, workspaceId: string, accountId: string): Promise<AdAccount> {
  const account = await getAdAccount(core.sql, accountId);
  if (!account || account.workspaceId !== workspaceId) {
    throw new AppError('not_found', `Ad account ${accountId} was not found.`);
  }
  return account;
}

/** Marks the account `disconnected` (new syncs are refused), then stops a sync of it that is running. */
export async function disconnectAccount(
  core: Core,
  sync: ConnectionSync,
  workspaceId: string,
  accountId: string,
): Promise<AdAccount> {
  const account = await accountOf(core, workspaceId, accountId);
  if (account.connectionStatus !== 'disconnected') {
    await core.sql.run(`UPDATE ad_accounts SET connection_status = 'disconnected' WHERE id = ?`, [
      account.id,
    ]);
    core.events.emit('connection.changed', {
      workspaceId,
      accountId: account.id,
      connectionStatus: 'disconnected',
    });
  }
  await sync.stopSync(account.id);
  return await accountOf(core, workspaceId, account.id);
}

/**
 * Brings a `disconnected` or `token_expired` account (or an active one, to rotate its token) back to
 * `active`. A demo account may leave the token out (the demo platform's token is used); any other
 * account needs a new one. Returns every account whose status changed, the reconnected one first.
 */
export async function reconnectAccount(
  core: Core,
  sync: ConnectionSync,
  input: { workspaceId: string; accountId: string; token?: string; userId?: string },
): Promise<AdAccount[]> {
  const account = await accountOf(core, input.workspaceId, input.accountId);
  const connection = await getConnection(core.sql, account.connectionId);
  if (!connection) throw new AppError('not_found', `account ${account.id} has no platform connection`);
  const isDemo = connection.base_url === DEMO_BASE_URL;
  const token = input.token ?? (isDemo ? DEMO_TOKEN : undefined);
  if (!token) throw new AppError('invalid_request', 'Paste a new access token to reconnect this account.');
  // Checks the token can read the account (errors name the cause) and marks the account active.
  await sync.connectAccount({
    workspaceId: input.workspaceId,
    platformAccountId: account.platformAccountId,
    baseUrl: connection.base_url,
    apiVersion: connection.api_version,
    token,
    mode: account.mode,
    ...(input.userId ? { userId: input.userId } : {}),
  });
  const now = core.clock.now().toISOString();
  const revived = await core.sql.transaction(async (tx) => {
    const moved = await getAdAccount(tx, account.id);
    let connectionId = account.connectionId;
    if (moved && moved.connectionId !== account.connectionId) {
      const others = await tx.get<{ n: number }>(
        `SELECT COUNT(*) AS n FROM ad_accounts WHERE connection_id = ? AND id <> ?`,
        [moved.connectionId, account.id],
      );
      if (others?.n === 0) {
        // A connection made just for this token: fold its sealed token into the account's own one.
        await tx.run(
          `UPDATE platform_connections SET (token_encrypted, token_type, token_expires_at,
             token_data_access_expires_at, token_checked_at, token_expiring_notified_on) =
             (SELECT token_encrypted, token_type, token_expires_at, token_data_access_expires_at,
                token_checked_at, NULL FROM platform_connections WHERE id = ?) WHERE id = ?`,
          [moved.connectionId, account.connectionId],
        );
        await tx.run(`UPDATE ad_accounts SET connection_id = ? WHERE id = ?`, [
          account.connectionId,
          account.id,
        ]);
        await tx.run(`DELETE FROM platform_connections WHERE id = ?`, [moved.connectionId]);
      } else {
        connectionId = moved.connectionId; // that token already has a connection: the account joined it
      }
    }
    await tx.run(
      `UPDATE platform_connections SET status = 'active', status_reason = NULL, updated_at = ? WHERE id = ?`,
      [now, connectionId],
    );
    // Accounts that expired with this connection's old token come back; disconnected ones stay so.
    return tx.all<AdAccountRow>(
      `UPDATE ad_accounts SET connection_status = 'active'
       WHERE connection_id = ? AND connection_status = 'token_expired' RETURNING *`,
      [connectionId],
    );
  });
  for (const other of revived) {
    core.events.emit('connection.changed', {
      workspaceId: other.workspace_id,
      accountId: other.id,
      connectionStatus: 'active',
    });
  }
  const after = await accountOf(core, input.workspaceId, account.id);
  return [after, ...revived.map(toAdAccount).filter((a) => a.id !== account.id)];
}
