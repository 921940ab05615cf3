// Identity: who acts (a user's or an administrator's request context), workspaces, API keys and
// invitations. The plan rule for keys and the key's workspace scope are decided here once, for the
// Settings screen, the web dashboard and the CLI alike.
import type { AppServices } from '../app-services';
import { AppError } from '../errors';
import { API_PLANS, type Plan, type RequestContext } from './access';
import {
  createApiKey,
  getApiKey,
  listApiKeys,
  revokeApiKey,
  setApiKeyLimits,
  type ApiKeyInfo,
  type LimitOverrides,
} from './api-keys';
import { createInvitation, listInvitations, type Invitation } from './invitations';
import { getUser, getWorkspaceOwner } from './users';
import {
  createWorkspace,
  getWorkspace,
  listWorkspaces,
  requireWorkspace,
  type Workspace,
} from './workspaces';

/** A person's context: the desktop's local owner or a signed-in dashboard user, seeing every mode. */
export interface UserContext extends RequestContext {
  userId: string;
  keyId: null;
  mode: 'all';
}

export interface CreateKeyInput {
  mode: 'live' | 'test';
  name?: string | undefined;
  expiresInDays?: number | undefined;
  /** The user the key acts for (Andromeda preferences); default: the caller, else the owner. */
  userId?: string | undefined;
}

export function identityUseCases(services: AppServices) {
  const { db, clock } = services.core;

  function ownKey(ctx: RequestContext, id: string): ApiKeyInfo {
    const key = getApiKey(db, id);
    if (!key || key.workspaceId !== ctx.workspaceId)
      throw new AppError('not_found', `API key ${id} was not found.`);
    return key;
  }

  return {
    /** The context of a user of the store; a user removed meanwhile gets authentication_error. */
    contextForUser(userId: string): UserContext {
      const user = getUser(db, userId);
      const workspace = user ? getWorkspace(db, user.workspaceId) : undefined;
      if (!user || !workspace) throw new AppError('authentication_error', 'This user no longer exists.');
      return { workspaceId: workspace.id, userId: user.id, plan: workspace.plan, keyId: null, mode: 'all' };
    },

    /**
     * The context of the machine's administrator acting on a workspace (the CLI): the workspace's
     * owner when it has one, every mode.
     */
    contextForWorkspace(workspaceId: string): RequestContext {
      const workspace = requireWorkspace(db, workspaceId);
      const owner = getWorkspaceOwner(db, workspace.id);
      return {
        workspaceId: workspace.id,
        userId: owner?.id ?? null,
        plan: workspace.plan,
        keyId: null,
        mode: 'all',
      };
    },

    async createWorkspace(input: { name: string; plan: Plan }): Promise<Workspace> {
      return createWorkspace(db, input, clock.now());
    },

    async listWorkspaces(): Promise<Workspace[]> {
      return listWorkspaces(db);
    },

    /** The workspace's keys, newest first (hints only, never the secret). */
    async listKeys(ctx: RequestContext): Promise<ApiKeyInfo[]> {
      return listApiKeys(db, ctx.workspaceId).reverse();
    },

    async createKey(
      ctx: RequestContext,
      input: CreateKeyInput,
    ): Promise<{ key: string; apiKey: ApiKeyInfo }> {
      if (!API_PLANS.includes(ctx.plan)) {
        throw new AppError(
          'plan_insufficient',
          `API keys need the Agency plan (this workspace is on ${ctx.plan}).`,
        );
      }
      const expiresAt = input.expiresInDays
        ? new Date(clock.now().getTime() + input.expiresInDays * 86_400_000).toISOString()
        : null;
      return createApiKey(db, clock, {
        workspaceId: ctx.workspaceId,
        mode: input.mode,
        name: input.name ?? '',
        userId: input.userId ?? ctx.userId,
        expiresAt,
      });
    },

    async revokeKey(ctx: RequestContext, id: string): Promise<ApiKeyInfo> {
      ownKey(ctx, id);
      return revokeApiKey(db, clock, id);
    },

    /** Higher limits granted on request; null restores the defaults. */
    async setKeyLimits(
      ctx: RequestContext,
      id: string,
      change: Partial<LimitOverrides> | null,
    ): Promise<ApiKeyInfo> {
      const current = ownKey(ctx, id);
      return setApiKeyLimits(
        db,
        id,
        change === null ? null : { ...(current.limitOverrides ?? {}), ...change },
      );
    },

    async invite(
      ctx: RequestContext,
      input: { email: string; baseUrl?: string | undefined },
    ): Promise<{ invitation: Invitation; url: string }> {
      const { invitation, url } = createInvitation(db, clock, {
        workspaceId: ctx.workspaceId,
        email: input.email,
        createdBy: ctx.userId,
        baseUrl: input.baseUrl ?? services.host.apiBaseUrl() ?? undefined,
      });
      return { invitation, url };
    },

    async listInvitations(ctx: RequestContext): Promise<Invitation[]> {
      return listInvitations(db, ctx.workspaceId);
    },
  };
}

export type IdentityUseCases = ReturnType<typeof identityUseCases>;
