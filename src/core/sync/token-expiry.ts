// A connection's token expiry: read with debug_token when connecting and by a sync at most once a day,
// stored on the connection, and announced (`connection.expiring`) once a day while it is within
// TOKEN_WARNING_DAYS of lapsing. A failed read never blocks a connect or a sync: the expiry stays unknown.
import type { Core } from '../core';
import type { GraphClient } from '../platform/graph-client';
import type { PlatformTokenDebug } from '../platform/parse';
import type { Sql } from '../store/sql';

export const TOKEN_WARNING_DAYS = 7;
const RECHECK_MS = 24 * 3600 * 1000;
const DAY_MS = 24 * 3600 * 1000;

export interface TokenInfo {
  type: string | null;
  /** ISO; null = never expires. */
  expiresAt: string | null;
  dataAccessExpiresAt: string | null;
}

const isoOrNull = (seconds: number | undefined): string | null =>
  seconds && seconds > 0 ? new Date(seconds * 1000).toISOString() : null;

export function tokenInfoOf(debug: PlatformTokenDebug): TokenInfo {
  return {
    type: debug.type ?? null,
    expiresAt: isoOrNull(debug.expires_at),
    dataAccessExpiresAt: isoOrNull(debug.data_access_expires_at),
  };
}

/** debug_token on the client's own token; null when the platform would not say. */
export async function readTokenInfo(core: Core, client: GraphClient): Promise<TokenInfo | null> {
  try {
    return tokenInfoOf(await client.debugToken());
  } catch (error) {
    core.logger.warn(`could not read the token's expiry: ${(error as Error).message}`);
    return null;
  }
}

/** Stores what debug_token said (pass the `tx` of an open transaction). */
export async function recordTokenInfo(
  sql: Sql,
  connectionId: string,
  info: TokenInfo,
  now: Date,
): Promise<void> {
  await sql.run(
    `UPDATE platform_connections SET token_type = ?, token_expires_at = ?, token_data_access_expires_at = ?,
       token_checked_at = ? WHERE id = ?`,
    [info.type, info.expiresAt, info.dataAccessExpiresAt, now.toISOString(), connectionId],
  );
}

/** A sync's check: re-reads the expiry when the last read is a day old, then warns if it is near. */
export async function checkTokenExpiry(
  core: Core,
  connectionId: string,
  client: () => GraphClient,
): Promise<void> {
  const now = core.clock.now();
  const row = await core.sql.get<{ token_checked_at: string | null }>(
    `SELECT token_checked_at FROM platform_connections WHERE id = ?`,
    [connectionId],
  );
  if (!row) return;
  const checked = row.token_checked_at ? Date.parse(row.token_checked_at) : 0;
  if (now.getTime() - checked >= RECHECK_MS) {
    const info = await readTokenInfo(core, client());
    if (info) await recordTokenInfo(core.sql, connectionId, info, now);
  }
  await announceIfExpiring(core, connectionId, now);
}

/** Emits `connection.expiring` when the token lapses within the warning window, once per UTC day. */
export async function announceIfExpiring(core: Core, connectionId: string, now: Date): Promise<void> {
  const { sql } = core;
  const row = await sql.get<{
    workspace_id: string;
    status: string;
    token_expires_at: string | null;
    token_expiring_notified_on: string | null;
  }>(
    `SELECT workspace_id, status, token_expires_at, token_expiring_notified_on FROM platform_connections WHERE id = ?`,
    [connectionId],
  );
  if (!row || row.status !== 'active' || !row.token_expires_at) return;
  const left = Date.parse(row.token_expires_at) - now.getTime();
  if (left <= 0 || left > TOKEN_WARNING_DAYS * DAY_MS) return;
  const today = now.toISOString().slice(0, 10);
  // Claimed in one statement, so two syncs of the same connection announce it once.
  const claimed = await sql.run(
    `UPDATE platform_connections SET token_expiring_notified_on = ?
       WHERE id = ? AND (token_expiring_notified_on IS NULL OR token_expiring_notified_on < ?)`,
    [today, connectionId, today],
  );
  if (claimed.changes === 0) return;
  const accountIds = (
    await sql.all<{ id: string }>(
      `SELECT id FROM ad_accounts WHERE connection_id = ? AND connection_status = 'active' ORDER BY id`,
      [connectionId],
    )
  ).map((account) => account.id);
  const first = accountIds[0];
  if (!first) return;
  core.events.emit('connection.expiring', {
    workspaceId: row.workspace_id,
    connectionId,
    accountId: first,
    accountIds,
    expiresAt: row.token_expires_at,
    daysLeft: Math.ceil(left / DAY_MS),
  });
}

/** The warning an account view carries when its token lapses within the window (null otherwise). */
export function tokenWarning(expiresAt: string | null, now: Date): string | null {
  if (!expiresAt) return null;
  const left = Date.parse(expiresAt) - now.getTime();
  if (left > TOKEN_WARNING_DAYS * DAY_MS) return null;
  if (left <= 0) return `The access token expired on ${expiresAt.slice(0, 10)}: reconnect with a new token.`;
  const days = Math.ceil(left / DAY_MS);
  return `The access token expires in ${days} day${days === 1 ? '' : 's'} (${expiresAt.slice(0, 10)}): reconnect with a new token before then, or syncing stops.`;
}

/**
 * The first instant (ms) after `now` at which `tokenWarning(expiresAt, ·)` reads differently, or
 * Infinity: the warning appears TOKEN_WARNING_DAYS before expiry and names the days left, rounded up,
 * so it changes each time the time left falls to a whole number of days, the last time at expiry.
 */
export function tokenWarningChangesAt(expiresAt: string | null, now: Date): number {
  if (!expiresAt) return Infinity;
  const expiry = Date.parse(expiresAt);
  const left = expiry - now.getTime();
  if (!(left > 0)) return Infinity;
  const days = Math.min(Math.ceil(left / DAY_MS), TOKEN_WARNING_DAYS + 1);
  return expiry - (days - 1) * DAY_MS;
}
