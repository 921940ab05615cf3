// Accounts screen: connection and account status, sync progress, sync now, connect a demo account or
// a pasted token, disconnect, and reconnect / re-authenticate (the connection's token is replaced).
import { addDays, dateInZone } from '../clock';
import { AppError } from '../errors';
import { resolveAccount } from '../identity/access';
import { microsToAmount } from '../money';
import { GraphClient } from '../platform/graph-client';
import { canConnect } from '../platform/parse';
import { disconnectAccount, reconnectAccount } from '../sync/reconnect';
import type { AccountView, DemoCandidate, SyncState } from '../../shared/ipc/types';
import type { HandlerImpls } from './dispatch';
import type { HandlerContext, HandlerEnv } from './context';

export const DEMO_TOKEN = 'demo-token';
/** How connections to the embedded demo platform are stored (H2's sync resolves it to the running one). */
export const DEMO_BASE_URL = 'demo:';
const GRAPH_URL = 'https://graph.facebook.com';

interface AccountRow {
  id: string;
  platform_account_id: string;
  name: string;
  currency: string;
  timezone: string;
  status: string;
  connection_status: AccountView['connectionStatus'];
  status_reason: string | null;
  mode: 'test' | 'live';
  business_id: string;
  business_name: string;
  permissions: string;
  connected_at: string;
  connected_by: string | null;
  last_synced_at: string | null;
  campaign_count: number;
  active_campaign_count: number;
  spend_30d_micros: number;
  run_status: string | null;
  run_phase: string | null;
  run_percent: number | null;
  run_error: string | null;
}

function syncState(env: HandlerEnv, row: AccountRow): SyncState {
  // The run row is finished before sync.completed is announced, so it is the truth when the
  // renderer refetches on that event; the in-memory flag only covers a run not yet recorded.
  const running = row.run_status === 'running' || (row.run_status === null && env.app.sync.isSyncing(row.id));
  let lastError: SyncState['lastError'] = null;
  if (row.run_status === 'failed' && row.run_error) {
    try {
      const parsed = JSON.parse(row.run_error) as { type?: string; message?: string };
      lastError = { type: parsed.type ?? 'platform_error', message: parsed.message ?? row.run_error };
    } catch {
      lastError = { type: 'platform_error', message: row.run_error };
    }
  }
  return {
    running,
    percent: running ? (row.run_percent ?? 0) : 100,
    phase: running ? (row.run_phase ?? 'starting') : 'idle',
    lastError,
  };
}

export function listAccountViews(env: HandlerEnv, ctx: HandlerContext, onlyId?: string): AccountView[] {
  const { db, clock } = env.app.core;
  const since = addDays(dateInZone(clock.now(), 'UTC'), -29);
  const rows = db
    .prepare(
      `SELECT a.*, c.status_reason,
         (SELECT COUNT(*) FROM campaigns WHERE account_id = a.id) AS campaign_count,
         (SELECT COUNT(*) FROM campaigns WHERE account_id = a.id AND effective_status = 'ACTIVE') AS active_campaign_count,
         (SELECT COALESCE(SUM(spend_micros), 0) FROM insights_campaign_daily
            WHERE account_id = a.id AND date >= ?) AS spend_30d_micros,
         r.status AS run_status, r.phase AS run_phase, r.percent AS run_percent, r.error AS run_error
       FROM ad_accounts a
       JOIN platform_connections c ON c.id = a.connection_id
       LEFT JOIN sync_runs r ON r.id = (SELECT id FROM sync_runs WHERE account_id = a.id
                                        ORDER BY started_at DESC, rowid DESC LIMIT 1)
       WHERE a.workspace_id = ? ${onlyId ? 'AND a.id = ?' : ''}
       ORDER BY a.name, a.id`,
    )
    .all(...[since, ctx.workspaceId, ...(onlyId ? [onlyId] : [])]) as AccountRow[];
  return rows.map((row) => ({
    id: row.id,
    platformAccountId: row.platform_account_id,
    name: row.name,
    currency: row.currency,
    timezone: row.timezone,
    status: row.status,
    connectionStatus: row.connection_status,
    statusReason: row.connection_status === 'active' ? null : row.status_reason,
    mode: row.mode,
    businessName: row.business_name,
    businessId: row.business_id,
    permissions: JSON.parse(row.permissions) as string[],
    lastSyncedAt: row.last_synced_at,
    campaignCount: row.campaign_count,
    activeCampaignCount: row.active_campaign_count,
    totalSpendLast30d: microsToAmount(row.spend_30d_micros),
    connectedAt: row.connected_at,
    connectedBy: row.connected_by,
    sync: syncState(env, row),
  }));
}

function demoPlatformOf(env: HandlerEnv, ctx: HandlerContext): { url: string; apiVersion: string } {
  const fromHost = env.host.demoPlatform();
  if (fromHost) return fromHost;
  void ctx;
  throw new AppError('not_found', 'No demo platform is running in this app.');
}

/** Connects, then starts the first full sync so the analyst sees progress straight away. */
async function connectAndSync(
  env: HandlerEnv,
  ctx: HandlerContext,
  input: { platformAccountId: string; baseUrl: string; apiVersion?: string; token: string },
): Promise<AccountView> {
  const account = await env.app.sync.connectAccount({
    ...input,
    workspaceId: ctx.workspaceId,
    userId: ctx.userId,
  });
  if (!env.app.sync.isSyncing(account.id)) {
    try {
      env.app.sync.startSync(account.id, { kind: 'full' });
    } catch (error) {
      if (!(error instanceof AppError && error.type === 'sync_in_progress')) throw error;
    }
  }
  return viewOf(env, ctx, account.id);
}

function viewOf(env: HandlerEnv, ctx: HandlerContext, accountId: string): AccountView {
  const view = listAccountViews(env, ctx, accountId)[0];
  if (!view) throw new AppError('not_found', `account ${accountId} is not in this workspace`);
  return view;
}

/**
 * Reconnects an account already in the workspace (with it, the accounts that expired on the same
 * connection), then syncs each of them for what it missed meanwhile.
 */
async function reconnectAndSync(
  env: HandlerEnv,
  ctx: HandlerContext,
  accountId: string,
  token?: string,
): Promise<AccountView> {
  const changed = await reconnectAccount(env.app.core, env.app.sync, {
    workspaceId: ctx.workspaceId,
    accountId,
    userId: ctx.userId,
    ...(token ? { token } : {}),
  });
  for (const account of changed) {
    if (env.app.sync.isSyncing(account.id)) continue;
    try {
      env.app.sync.startSync(account.id);
    } catch (error) {
      if (!(error instanceof AppError && error.type === 'sync_in_progress')) throw error;
    }
  }
  return viewOf(env, ctx, accountId);
}

function existingAccountId(env: HandlerEnv, ctx: HandlerContext, platformAccountId: string): string | null {
  const row = env.app.core.db
    .prepare(`SELECT id FROM ad_accounts WHERE workspace_id = ? AND platform_account_id = ?`)
    .get(ctx.workspaceId, platformAccountId) as { id: string } | undefined;
  return row?.id ?? null;
}

export function accountHandlers(
  env: HandlerEnv,
): Pick<
  HandlerImpls,
  | 'accounts.list'
  | 'accounts.sync'
  | 'accounts.demoCandidates'
  | 'accounts.connectDemo'
  | 'accounts.connectToken'
  | 'accounts.disconnect'
  | 'accounts.reconnect'
> {
  return {
    'accounts.list': (ctx) => listAccountViews(env, ctx),
    'accounts.sync': (ctx, args) => {
      const account = resolveAccount(env.app.core.db, ctx, args.accountId);
      if (account.connectionStatus !== 'active') {
        throw new AppError(
          account.connectionStatus === 'token_expired' ? 'token_expired' : 'conflict',
          account.connectionStatus === 'token_expired'
            ? 'The access token has expired: re-authenticate this account before syncing.'
            : 'This account is disconnected: connect it again before syncing.',
        );
      }
      const run = env.app.sync.startSync(account.id, { kind: 'incremental' });
      return { accountId: account.id, status: 'syncing' as const, startedAt: run.startedAt };
    },
    'accounts.demoCandidates': async (ctx): Promise<DemoCandidate[]> => {
      const demo = demoPlatformOf(env, ctx);
      const client = new GraphClient({
        baseUrl: demo.url,
        apiVersion: demo.apiVersion,
        token: DEMO_TOKEN,
        maxRetries: 1,
      });
      const connected = new Set(
        (
          env.app.core.db
            .prepare(
              `SELECT platform_account_id AS id FROM ad_accounts WHERE workspace_id = ? AND mode = 'test'`,
            )
            .all(ctx.workspaceId) as Array<{ id: string }>
        ).map((r) => r.id),
      );
      const out: DemoCandidate[] = [];
      for await (const page of client.listAdAccounts()) {
        for (const account of page) {
          if (connected.has(account.id)) continue;
          out.push({
            platformAccountId: account.id,
            name: account.name,
            currency: account.currency,
            businessName: account.business?.name ?? '',
            canConnect: canConnect(account),
          });
        }
      }
      return out;
    },
    'accounts.connectDemo': (ctx, args) => {
      const demo = demoPlatformOf(env, ctx);
      void demo;
      const existing = existingAccountId(env, ctx, args.platformAccountId);
      if (existing) return reconnectAndSync(env, ctx, existing);
      return connectAndSync(env, ctx, {
        platformAccountId: args.platformAccountId,
        baseUrl: DEMO_BASE_URL,
        token: DEMO_TOKEN,
      });
    },
    'accounts.connectToken': (ctx, args) => {
      // A token pasted for an account already connected re-authenticates it on its own platform
      // (the embedded demo platform included); anything else connects through Meta's Graph API.
      const existing = existingAccountId(env, ctx, args.platformAccountId);
      if (existing) return reconnectAndSync(env, ctx, existing, args.token);
      return connectAndSync(env, ctx, {
        platformAccountId: args.platformAccountId,
        baseUrl: args.baseUrl ?? GRAPH_URL,
        token: args.token,
      });
    },
    'accounts.disconnect': async (ctx, args) => {
      const account = resolveAccount(env.app.core.db, ctx, args.accountId);
      await disconnectAccount(env.app.core, env.app.sync, ctx.workspaceId, account.id);
      return viewOf(env, ctx, account.id);
    },
    'accounts.reconnect': (ctx, args) => {
      const account = resolveAccount(env.app.core.db, ctx, args.accountId);
      return reconnectAndSync(env, ctx, account.id, args.token);
    },
  };
}
