// Connecting an ad account: the token is checked against the platform, the account's role allows
// reading, and one connection per (workspace, base URL, token) holds the sealed token, so accounts
// sharing a token expire together.
import { z } from 'zod';
import type { Core } from '../core';
import { AppError } from '../errors';
import { isPlatformAccountId, newId } from '../ids';
import { getWorkspaceOwner } from '../identity/users';
import { getWorkspace } from '../identity/workspaces';
import { GraphError } from '../platform/errors';
import { DEFAULT_API_VERSION, type GraphClient, type GraphClientOptions } from '../platform/graph-client';
import { accountStatus, connectRefusal, type PlatformAdAccount } from '../platform/parse';
import { toAdAccount, type AdAccount, type AdAccountRow } from './accounts';
import type { Sql } from '../store/sql';
import { DEMO_BASE_URL, type DemoPlatformSource } from './embedded-demo';
import { announceIfExpiring, readTokenInfo, recordTokenInfo } from './token-expiry';

export interface ConnectDeps {
  core: Core;
  demoPlatform: DemoPlatformSource;
  client(
    baseUrl: string,
    apiVersion: string,
    token: string,
    extra?: Partial<GraphClientOptions>,
  ): GraphClient;
}

export interface ConnectAccountInput {
  workspaceId: string;
  platformAccountId: string;
  /** A Graph API base URL, or `demo:` for the embedded demo platform. */
  baseUrl: string;
  apiVersion?: string;
  token: string;
  mode?: 'test' | 'live';
  userId?: string;
}

const connectInput = z.object({
  workspaceId: z.string().min(1),
  platformAccountId: z.string().refine(isPlatformAccountId, 'platform account IDs look like act_<digits>'),
  baseUrl: z.union([z.literal(DEMO_BASE_URL), z.url({ protocol: /^https?$/ })]),
  apiVersion: z
    .string()
    .regex(/^v\d+\.\d+$/, 'API versions look like v25.0')
    .default(DEFAULT_API_VERSION),
  token: z.string().min(1, 'a platform access token is required'),
  mode: z.enum(['test', 'live']).optional(),
  userId: z.string().optional(),
});

export async function connectAccount(deps: ConnectDeps, input: ConnectAccountInput): Promise<AdAccount> {
  const { core } = deps;
  const parsed = connectInput.safeParse(input);
  if (!parsed.success) {
    throw new AppError('invalid_request', parsed.error.issues.map((issue) => issue.message).join('; '));
  }
  const data = parsed.data;
  if (!(await getWorkspace(core.sql, data.workspaceId))) {
    throw new AppError('not_found', `no workspace ${data.workspaceId}`);
  }
  const isDemo = data.baseUrl === DEMO_BASE_URL;
  const endpoint = isDemo ? await deps.demoPlatform() : { url: data.baseUrl, apiVersion: data.apiVersion };
  const client = deps.client(endpoint.url, isDemo ? endpoint.apiVersion : data.apiVersion, data.token, {
    maxRetries: 2,
  });
  let platformAccount: PlatformAdAccount;
  try {
    platformAccount = await client.getAdAccount(data.platformAccountId);
  } catch (error) {
    throw connectError(error, data.platformAccountId);
  }
  const refusal = connectRefusal(platformAccount);
  if (refusal) throw new AppError('permission_error', `cannot connect ${data.platformAccountId}: ${refusal}`);
  const tokenInfo = await readTokenInfo(core, client);
  const mode = isDemo ? 'test' : (data.mode ?? 'live');
  const clockNow = core.clock.now();
  const now = clockNow.toISOString();
  const connectedBy = data.userId ?? (await getWorkspaceOwner(core.sql, data.workspaceId))?.id ?? null;
  const connected = await core.sql.transaction(async (tx) => {
    const connectionId = await findOrCreateConnection(
      core,
      tx,
      data.workspaceId,
      data.baseUrl,
      isDemo ? endpoint.apiVersion : data.apiVersion,
      mode,
      data.token,
      connectedBy,
      now,
    );
    if (tokenInfo) await recordTokenInfo(tx, connectionId, tokenInfo, clockNow);
    const row = await tx.get<AdAccountRow>(UPSERT_ACCOUNT, [
      newId('act'),
      data.workspaceId,
      connectionId,
      platformAccount.id,
      mode,
      platformAccount.name,
      platformAccount.currency.toUpperCase(),
      platformAccount.timezone_name,
      accountStatus(platformAccount.account_status),
      platformAccount.business?.id ?? '',
      platformAccount.business?.name ?? '',
      // The connection is read-only whatever the user's role on the account.
      JSON.stringify(['read_insights', 'read_campaigns', 'read_ads']),
      now,
      connectedBy,
    ]);
    if (!row) throw new Error(`the account ${platformAccount.id} was not stored`);
    return toAdAccount(row);
  });
  // Announced once committed: a listener reading the store sees the account.
  core.events.emit('connection.changed', {
    workspaceId: connected.workspaceId,
    accountId: connected.id,
    connectionStatus: 'active',
  });
  await announceIfExpiring(core, connected.connectionId, clockNow);
  return connected;
}

const UPSERT_ACCOUNT = `INSERT INTO ad_accounts (id, workspace_id, connection_id, platform_account_id, mode, name,
    currency, timezone, status, connection_status, business_id, business_name, permissions, connected_at, connected_by)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?, ?)
  ON CONFLICT (workspace_id, platform_account_id) DO UPDATE SET
    connection_id = excluded.connection_id, mode = excluded.mode, name = excluded.name,
    status = excluded.status, connection_status = 'active', business_id = excluded.business_id,
    business_name = excluded.business_name
  RETURNING *`;

function sealedTokenIs(core: Core, sealed: Buffer, token: string): boolean {
  try {
    return core.tokenCipher.decrypt(sealed) === token;
  } catch {
    return false; // sealed with another key: not reusable
  }
}

/** One connection per (workspace, base URL, token): accounts sharing a token expire together. */
async function findOrCreateConnection(
  core: Core,
  tx: Sql,
  workspaceId: string,
  baseUrl: string,
  apiVersion: string,
  mode: 'test' | 'live',
  token: string,
  connectedBy: string | null,
  now: string,
): Promise<string> {
  const candidates = await tx.all<{ id: string; token_encrypted: Buffer }>(
    `SELECT id, token_encrypted FROM platform_connections WHERE workspace_id = ? AND base_url = ? ORDER BY id`,
    [workspaceId, baseUrl],
  );
  for (const candidate of candidates) {
    if (sealedTokenIs(core, candidate.token_encrypted, token)) {
      await tx.run(
        `UPDATE platform_connections SET status = 'active', status_reason = NULL, api_version = ?, mode = ?, updated_at = ?
         WHERE id = ?`,
        [apiVersion, mode, now, candidate.id],
      );
      return candidate.id;
    }
  }
  const id = newId('conn');
  await tx.run(
    `INSERT INTO platform_connections (id, workspace_id, base_url, api_version, mode, token_encrypted, status,
       connected_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'active', ?, ?, ?)`,
    [id, workspaceId, baseUrl, apiVersion, mode, core.tokenCipher.encrypt(token), connectedBy, now, now],
  );
  return id;
}

function connectError(error: unknown, platformAccountId: string): AppError {
  if (!(error instanceof GraphError))
    return error instanceof AppError ? error : new AppError('platform_error', String(error));
  switch (error.kind) {
    case 'token_expired':
      return error.info.subcode === 463
        ? new AppError(
            'token_expired',
            `the platform token has expired (${error.message}); get a fresh token`,
          )
        : new AppError(
            'authentication_error',
            `the platform refused the token: revoked or invalid (${error.message})`,
          );
    case 'not_found':
    case 'invalid_request':
      return new AppError(
        'not_found',
        `ad account ${platformAccountId} was not found on the platform, or this token cannot see it`,
      );
    case 'permission':
      return new AppError(
        'permission_error',
        `this token has no access to ${platformAccountId} (${error.message})`,
      );
    default:
      return new AppError(
        'platform_error',
        `cannot read ${platformAccountId} from the platform: ${error.message}`,
      );
  }
}
