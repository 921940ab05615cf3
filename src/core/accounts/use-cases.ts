// Accounts: the use cases every transport (the /v1 routes, the handler map behind IPC and the web
// bridge, the CLI) calls. Access, ID resolution, pagination defaults and the sync rules live here once.
import { DEFAULT_PAGE_SIZE } from '../../shared/api/common';
import type { SyncStarted } from '../../shared/api/accounts';
import type {
  AvailableAccounts,
  ConnectManyResult,
  ConnectOutcome,
} from '../../shared/api/available-accounts';
import type { AccountView, DemoCandidate } from '../../shared/ipc/types';
import { AppError, isAppError } from '../errors';
import { resolveAccount, type RequestContext } from '../identity/access';
import { requireWorkspace } from '../identity/workspaces';
import { DEFAULT_API_VERSION, GraphClient } from '../platform/graph-client';
import { canConnect } from '../platform/parse';
import { DEMO_BASE_URL } from '../sync/embedded-demo';
import { disconnectAccount, reconnectAccount } from '../sync/reconnect';
import type { SyncOutcome } from '../sync/service';
import { DEMO_TOKEN } from '../platform/demo';
import { GraphError } from '../platform/errors';
import { readTokenInfo } from '../sync/token-expiry';
import { discoverAccounts } from './available';
import { facebookLogin, type FacebookLoginInput } from './facebook-login';
import type { AppServices } from '../app-services';
import {
  accountIdByPlatformId,
  activePlatformAccountIds,
  connectedDemoAccountIds,
  countAccounts,
  readAccounts,
  runningSyncStartedAt,
} from './store';

export interface AccountListInput {
  connectionStatus?: AccountView['connectionStatus'] | undefined;
  page?: number | undefined;
  pageSize?: number | undefined;
}

export interface ConnectInput {
  platformAccountId: string;
  /** A Graph API base URL and token; both absent: the embedded demo platform. */
  platform?: { baseUrl: string; token: string; apiVersion?: string | undefined } | undefined;
  mode?: 'test' | 'live' | undefined;
}

/** Where a token lives: a Graph API base URL and the token; both absent = the embedded demo platform. */
export interface PlatformInput {
  platformUrl?: string | undefined;
  token?: string | undefined;
  apiVersion?: string | undefined;
}

export interface ConnectManyInput extends PlatformInput {
  platformAccountIds: string[];
  mode?: 'test' | 'live' | undefined;
}

function platformOf(input: PlatformInput): ConnectInput['platform'] {
  if ((input.platformUrl === undefined) !== (input.token === undefined)) {
    throw new AppError(
      'invalid_request',
      'A platform URL and a token go together (omit both for the embedded demo platform).',
    );
  }
  if (input.platformUrl === undefined || input.token === undefined) return undefined;
  return { baseUrl: input.platformUrl, token: input.token, apiVersion: input.apiVersion };
}

function listingError(error: unknown): AppError {
  if (isAppError(error)) return error;
  if (error instanceof GraphError) {
    if (error.kind === 'token_expired') {
      return error.info.subcode === 463
        ? new AppError(
            'token_expired',
            `The platform token has expired (${error.message}); get a fresh token.`,
          )
        : new AppError(
            'authentication_error',
            `The platform refused the token: revoked or invalid (${error.message}).`,
          );
    }
    return new AppError('platform_error', `Cannot list the token's ad accounts: ${error.message}`);
  }
  return new AppError('platform_error', String(error));
}

export function accountUseCases(services: AppServices) {
  const { core, sync } = services;
  const { sql } = core;
  const isSyncing = (id: string): boolean => sync.isSyncing(id);

  async function view(ctx: RequestContext, idText: string): Promise<AccountView> {
    const account = await resolveAccount(sql, ctx, idText);
    const {
      accounts: [found],
    } = await readAccounts(
      sql,
      ctx,
      { id: account.id, page: 1, pageSize: 1 },
      core.clock.now(),
      isSyncing,
      core.figures,
    );
    if (!found) throw new AppError('not_found', `Ad account ${idText} was not found.`);
    return found;
  }

  /** Starts a sync unless one runs; a running sync is returned instead (idempotent). */
  async function startSyncOf(accountId: string, kind?: 'full' | 'incremental'): Promise<SyncStarted> {
    const already = await runningSyncStartedAt(sql, accountId);
    if (already) return { accountId, status: 'running', startedAt: already };
    try {
      const started = await sync.startSync(accountId, kind ? { kind } : {});
      // The run's outcome is reported through events and the account's lastSyncedAt.
      started.done.catch(() => {});
      return { accountId, status: 'running', startedAt: started.startedAt };
    } catch (error) {
      if (isAppError(error) && error.type === 'sync_in_progress') {
        const now = await runningSyncStartedAt(sql, accountId);
        if (now) return { accountId, status: 'running', startedAt: now };
      }
      throw error;
    }
  }

  /** Reconnects an account (with it, those that expired on the same connection) and syncs what they missed. */
  async function reconnectAndSync(
    ctx: RequestContext,
    accountId: string,
    token?: string,
  ): Promise<AccountView> {
    const changed = await reconnectAccount(core, sync, {
      workspaceId: ctx.workspaceId,
      accountId,
      ...(ctx.userId ? { userId: ctx.userId } : {}),
      ...(token ? { token } : {}),
    });
    if (services.host.runsBackgroundWork) for (const account of changed) await startSyncOf(account.id);
    return view(ctx, accountId);
  }

  function demoPlatform(): { url: string; apiVersion: string } {
    const endpoint = services.host.demoPlatform();
    if (!endpoint) throw new AppError('not_found', 'No demo platform is running in this app.');
    return endpoint;
  }

  const api = {
    async list(
      ctx: RequestContext,
      input: AccountListInput = {},
    ): Promise<{ items: AccountView[]; total: number; page: number; pageSize: number }> {
      const page = input.page ?? 1;
      const pageSize = input.pageSize ?? DEFAULT_PAGE_SIZE;
      const filter = { connectionStatus: input.connectionStatus, page, pageSize };
      return {
        items: (await readAccounts(sql, ctx, filter, core.clock.now(), isSyncing, core.figures)).accounts,
        total: await countAccounts(sql, ctx, filter),
        page,
        pageSize,
      };
    },

    /** Every account the context sees, unpaginated (the desktop's accounts screen, `cli account list`). */
    async all(ctx: RequestContext): Promise<AccountView[]> {
      const { accounts } = await readAccounts(
        sql,
        ctx,
        { page: 1, pageSize: -1 },
        core.clock.now(),
        isSyncing,
        core.figures,
      );
      return accounts;
    },

    async get(ctx: RequestContext, idText: string): Promise<AccountView> {
      return view(ctx, idText);
    },

    /** Starts a sync of an active account; idempotent while one runs. */
    async sync(ctx: RequestContext, idText: string, kind?: 'full' | 'incremental'): Promise<SyncStarted> {
      const account = await resolveAccount(sql, ctx, idText);
      if (account.connectionStatus !== 'active') {
        const remedy =
          account.connectionStatus === 'token_expired'
            ? 'Re-authenticate it (a new access token) first.'
            : 'Connect it again first.';
        throw new AppError(
          'invalid_request',
          `Ad account ${account.id} cannot sync: its connection is ${account.connectionStatus}. ${remedy}`,
        );
      }
      return startSyncOf(account.id, kind);
    },

    /**
     * Syncs now and waits (a command-line sync): one account, or every active one of the workspace,
     * one after the other. Ends at a page boundary when `sync.stop()` is called meanwhile.
     */
    async syncAndWait(
      ctx: RequestContext,
      input: { accountId?: string | undefined; kind?: 'full' | 'incremental' | undefined },
    ): Promise<SyncOutcome[]> {
      const targets = input.accountId
        ? [await resolveAccount(sql, ctx, input.accountId)]
        : (
            await readAccounts(
              sql,
              ctx,
              { connectionStatus: 'active', page: 1, pageSize: -1 },
              core.clock.now(),
              isSyncing,
              core.figures,
            )
          ).accounts;
      const outcomes: SyncOutcome[] = [];
      for (const account of targets) {
        outcomes.push(await sync.syncAccount(account.id, input.kind ? { kind: input.kind } : {}));
      }
      return outcomes;
    },

    /** Accounts of the embedded demo platform that are not connected yet. */
    async demoCandidates(ctx: RequestContext): Promise<DemoCandidate[]> {
      const demo = demoPlatform();
      const client = new GraphClient({
        baseUrl: demo.url,
        apiVersion: demo.apiVersion,
        token: DEMO_TOKEN,
        maxRetries: 1,
      });
      const connected = await connectedDemoAccountIds(sql, ctx.workspaceId);
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

    /**
     * Connects a platform account and starts its first full sync. An account already in the workspace
     * is re-authenticated instead (its connection's token replaced), on its own platform.
     */
    async connect(ctx: RequestContext, input: ConnectInput): Promise<AccountView> {
      await requireWorkspace(sql, ctx.workspaceId);
      const existing = await accountIdByPlatformId(sql, ctx.workspaceId, input.platformAccountId);
      if (existing) return reconnectAndSync(ctx, existing, input.platform?.token);
      const account = await sync.connectAccount({
        workspaceId: ctx.workspaceId,
        platformAccountId: input.platformAccountId,
        baseUrl: input.platform ? input.platform.baseUrl.replace(/\/+$/, '') : DEMO_BASE_URL,
        apiVersion: input.platform?.apiVersion ?? DEFAULT_API_VERSION,
        token: input.platform?.token ?? DEMO_TOKEN,
        ...(input.mode ? { mode: input.mode } : {}),
        ...(ctx.userId ? { userId: ctx.userId } : {}),
      });
      if (services.host.runsBackgroundWork) await startSyncOf(account.id, 'full');
      return view(ctx, account.id);
    },

    /** Facebook Login in the system browser (desktop): the long-lived token to list accounts with. */
    async facebookLogin(ctx: RequestContext, input: FacebookLoginInput = {}) {
      await requireWorkspace(sql, ctx.workspaceId);
      return facebookLogin(services, input);
    },

    /**
     * Every ad account the token reaches (the demo platform's token when none is given), grouped by
     * business, each saying whether it can be connected and why not.
     */
    async available(ctx: RequestContext, input: PlatformInput = {}): Promise<AvailableAccounts> {
      await requireWorkspace(sql, ctx.workspaceId);
      const platform = platformOf(input);
      const endpoint = platform
        ? {
            url: platform.baseUrl.replace(/\/+$/, ''),
            apiVersion: platform.apiVersion ?? DEFAULT_API_VERSION,
          }
        : (services.host.demoPlatform() ?? (await sync.demoEndpoint()));
      const client = new GraphClient({
        baseUrl: endpoint.url,
        apiVersion: endpoint.apiVersion,
        token: platform?.token ?? DEMO_TOKEN,
        maxRetries: 2,
      });
      try {
        const found = await discoverAccounts(client, await activePlatformAccountIds(sql, ctx.workspaceId));
        const token = await readTokenInfo(core, client);
        return {
          platform: platform ? endpoint.url : 'demo',
          token: { type: token?.type ?? null, expiresAt: token?.expiresAt ?? null },
          ...found,
        };
      } catch (error) {
        throw listingError(error);
      }
    },

    /**
     * Connects several accounts with one token (one connection for them all), each on its own: an
     * account the token cannot read is refused with the reason, the others connect and start syncing.
     */
    async connectMany(ctx: RequestContext, input: ConnectManyInput): Promise<ConnectManyResult> {
      await requireWorkspace(sql, ctx.workspaceId);
      const ids = [...new Set(input.platformAccountIds)];
      if (ids.length === 0)
        throw new AppError('invalid_request', 'Choose at least one ad account to connect.');
      const platform = platformOf(input);
      const outcomes: ConnectOutcome[] = [];
      for (const platformAccountId of ids) {
        try {
          const account = await api.connect(ctx, { platformAccountId, platform, mode: input.mode });
          outcomes.push({ platformAccountId, status: 'connected', accountId: account.id, error: null });
        } catch (error) {
          // The token itself is refused: every other account would be too.
          if (isAppError(error) && (error.type === 'token_expired' || error.type === 'authentication_error'))
            throw error;
          const value = isAppError(error)
            ? { type: error.type, message: error.message }
            : { type: 'platform_error', message: String(error) };
          outcomes.push({ platformAccountId, status: 'refused', accountId: null, error: value });
        }
      }
      const connected = outcomes.filter((o) => o.status === 'connected').length;
      return { outcomes, connected, refused: outcomes.length - connected };
    },

    async disconnect(ctx: RequestContext, idText: string): Promise<AccountView> {
      const account = await resolveAccount(sql, ctx, idText);
      await disconnectAccount(core, sync, ctx.workspaceId, account.id);
      return view(ctx, account.id);
    },

    async reconnect(ctx: RequestContext, idText: string, token?: string): Promise<AccountView> {
      const account = await resolveAccount(sql, ctx, idText);
      return reconnectAndSync(ctx, account.id, token);
    },
  };
  return api;
}

export type AccountUseCases = ReturnType<typeof accountUseCases>;
