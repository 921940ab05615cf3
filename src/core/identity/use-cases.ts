// Identity: who acts (a user's or an administrator's request context), workspaces, API keys and
// invitations. The plan rule for keys and the key's workspace scope are decided here once, for the
// Settings screen, the web dashboard and the CLI alike.
import type { AppServices } from '../app-services';
import { AppError } from '../errors';
import { API_PLANS, workspaceOfDiagnostic, type Plan, type RequestContext } from './access';
import {
  createApiKey,
  getApiKey,
  listApiKeys,
  revokeApiKey,
  revokeKeysOfUser,
  setApiKeyLimits,
  type ApiKeyInfo,
  type LimitOverrides,
} from './api-keys';
import { createInvitation, listInvitations, type Invitation } from './invitations';
import {
  endSessionsOf,
  getUser,
  getWorkspaceOwner,
  listUsers,
  markUserRemoved,
  setUserDisabled,
  type User,
} from './users';
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
  const { sql, clock, events } = services.core;

  /** People management is the owner's: an admin or member may not disable, remove or list access. */
  async function requireOwner(ctx: RequestContext): Promise<void> {
    const caller = ctx.userId ? await getUser(sql, ctx.userId) : undefined;
    if (
      !caller ||
      caller.workspaceId !== ctx.workspaceId ||
      caller.role !== 'owner' ||
      caller.status !== 'active'
    ) {
      throw new AppError('permission_error', 'Only the workspace owner can manage who has access.');
    }
  }

  async function memberOf(ctx: RequestContext, userId: string): Promise<User> {
    const user = await getUser(sql, userId);
    if (!user || user.workspaceId !== ctx.workspaceId || user.status === 'removed') {
      throw new AppError('not_found', `User ${userId} was not found.`);
    }
    return user;
  }

  /** Ends what a user's access opened: sessions, keys and (through the event) their live streams. */
  async function cutAccess(user: User): Promise<void> {
    await endSessionsOf(sql, user.id);
    const keyIds = await revokeKeysOfUser(sql, clock, user.id);
    events.emit('access.revoked', { workspaceId: user.workspaceId, userId: user.id, keyIds });
  }

  async function guardTarget(ctx: RequestContext, user: User): Promise<void> {
    if (user.id === ctx.userId)
      throw new AppError('invalid_request', 'You cannot disable or remove yourself.');
    if (user.role === 'owner') {
      const owners = (await listUsers(sql, ctx.workspaceId)).filter(
        (u) => u.role === 'owner' && u.status === 'active',
      );
      if (owners.length <= 1) throw new AppError('invalid_request', 'A workspace keeps at least one owner.');
    }
  }

  async function ownKey(ctx: RequestContext, id: string): Promise<ApiKeyInfo> {
    const key = await getApiKey(sql, id);
    if (!key || key.workspaceId !== ctx.workspaceId)
      throw new AppError('not_found', `API key ${id} was not found.`);
    return key;
  }

  return {
    /** The context of a user of the store; a user removed meanwhile gets authentication_error. */
    async contextForUser(userId: string): Promise<UserContext> {
      const user = await getUser(sql, userId);
      const workspace = user ? await getWorkspace(sql, user.workspaceId) : undefined;
      if (!user || !workspace || user.status === 'removed') {
        throw new AppError('authentication_error', 'This user no longer exists.');
      }
      if (user.status === 'disabled') {
        throw new AppError('authentication_error', 'This user has been disabled by the workspace owner.');
      }
      return { workspaceId: workspace.id, userId: user.id, plan: workspace.plan, keyId: null, mode: 'all' };
    },

    /**
     * The context of the machine's administrator acting on a workspace (the CLI): the workspace's
     * owner when it has one, every mode.
     */
    async contextForWorkspace(workspaceId: string): Promise<RequestContext> {
      const workspace = await requireWorkspace(sql, workspaceId);
      const owner = await getWorkspaceOwner(sql, workspace.id);
      return {
        workspaceId: workspace.id,
        userId: owner?.id ?? null,
        plan: workspace.plan,
        keyId: null,
        mode: 'all',
      };
    },

    /** The administrator's context of the workspace a key, user or diagnostic belongs to (`key revoke KEY_ID`). */
    async contextForWorkspaceOf(
      ref: { keyId: string } | { userId: string } | { diagnosticId: string },
    ): Promise<RequestContext> {
      const workspaceId =
        'keyId' in ref
          ? (await getApiKey(sql, ref.keyId))?.workspaceId
          : 'userId' in ref
            ? (await getUser(sql, ref.userId))?.workspaceId
            : await workspaceOfDiagnostic(sql, ref.diagnosticId);
      if (!workspaceId) {
        const [kind, id] = Object.entries(ref)[0] as [string, string];
        throw new AppError(
          'not_found',
          `${kind === 'keyId' ? 'API key' : kind === 'userId' ? 'User' : 'Diagnostic'} ${id} was not found.`,
        );
      }
      return this.contextForWorkspace(workspaceId);
    },

    /** The administrator acting as one member of a workspace (`--user`), or as its owner. */
    async contextForMember(workspaceId: string, userId?: string): Promise<RequestContext> {
      const base = await this.contextForWorkspace(workspaceId);
      if (!userId) return base;
      const user = await getUser(sql, userId);
      if (!user || user.workspaceId !== workspaceId || user.status === 'removed') {
        throw new AppError('not_found', `User ${userId} is not in workspace ${workspaceId}.`);
      }
      return { ...base, userId: user.id };
    },

    /**
     * Whether a context still has access (a live stream re-checks this): its key is neither revoked
     * nor expired, and its user is neither disabled nor removed.
     */
    async accessStillValid(ctx: RequestContext): Promise<boolean> {
      if (ctx.keyId) {
        const key = await getApiKey(sql, ctx.keyId);
        if (!key || key.revokedAt) return false;
        if (key.expiresAt && Date.parse(key.expiresAt) <= clock.now().getTime()) return false;
      }
      if (ctx.userId && ctx.keyId === null) {
        const user = await getUser(sql, ctx.userId);
        if (!user || user.status !== 'active') return false;
      }
      return true;
    },

    async createWorkspace(input: { name: string; plan: Plan }): Promise<Workspace> {
      return await createWorkspace(sql, input, clock.now());
    },

    async listWorkspaces(): Promise<Workspace[]> {
      return await listWorkspaces(sql);
    },

    /** The workspace's keys, newest first (hints only, never the secret). */
    async listKeys(ctx: RequestContext): Promise<ApiKeyInfo[]> {
      return (await listApiKeys(sql, ctx.workspaceId)).reverse();
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
      return await createApiKey(sql, clock, {
        workspaceId: ctx.workspaceId,
        mode: input.mode,
        name: input.name ?? '',
        userId: input.userId ?? ctx.userId,
        expiresAt,
      });
    },

    async revokeKey(ctx: RequestContext, id: string): Promise<ApiKeyInfo> {
      await ownKey(ctx, id);
      const revoked = await revokeApiKey(sql, clock, id);
      events.emit('access.revoked', { workspaceId: ctx.workspaceId, userId: null, keyIds: [id] });
      return revoked;
    },

    /** Higher limits granted on request; null restores the defaults. */
    async setKeyLimits(
      ctx: RequestContext,
      id: string,
      change: Partial<LimitOverrides> | null,
    ): Promise<ApiKeyInfo> {
      const current = await ownKey(ctx, id);
      return await setApiKeyLimits(
        sql,
        id,
        change === null ? null : { ...(current.limitOverrides ?? {}), ...change },
      );
    },

    async invite(
      ctx: RequestContext,
      input: { email: string; baseUrl?: string | undefined },
    ): Promise<{ invitation: Invitation; url: string }> {
      const { invitation, url } = await createInvitation(sql, clock, {
        workspaceId: ctx.workspaceId,
        email: input.email,
        createdBy: ctx.userId,
        baseUrl: input.baseUrl ?? services.host.apiBaseUrl() ?? undefined,
      });
      return { invitation, url };
    },

    /** Who has access to the workspace (removed people are left out), owner only. */
    async listUsers(ctx: RequestContext): Promise<User[]> {
      await requireOwner(ctx);
      return (await listUsers(sql, ctx.workspaceId)).filter((u) => u.status !== 'removed');
    },

    /** Disables a user: sign-in refused, sessions and streams ended, keys revoked; history stays. */
    async disableUser(ctx: RequestContext, userId: string): Promise<User> {
      await requireOwner(ctx);
      const user = await memberOf(ctx, userId);
      await guardTarget(ctx, user);
      if (user.status === 'active') {
        await setUserDisabled(sql, user.id, clock.now().toISOString());
        await cutAccess(user);
      }
      return await memberOf(ctx, userId);
    },

    /** Lets a disabled user sign in again (their revoked keys stay revoked). */
    async enableUser(ctx: RequestContext, userId: string): Promise<User> {
      await requireOwner(ctx);
      const user = await memberOf(ctx, userId);
      await setUserDisabled(sql, user.id, null);
      return await memberOf(ctx, userId);
    },

    /** Removes a user from the workspace: as disabling, and the e-mail can be invited again. */
    async removeUser(ctx: RequestContext, userId: string): Promise<User> {
      await requireOwner(ctx);
      const user = await memberOf(ctx, userId);
      await guardTarget(ctx, user);
      await markUserRemoved(sql, user.id, clock.now().toISOString());
      await cutAccess(user);
      return (await getUser(sql, user.id)) as User;
    },

    async listInvitations(ctx: RequestContext): Promise<Invitation[]> {
      return await listInvitations(sql, ctx.workspaceId);
    },
  };
}

export type IdentityUseCases = ReturnType<typeof identityUseCases>;
