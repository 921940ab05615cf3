// Goals as the analyst sets them: a target CPA or ROAS (break-even = ROAS 1) for an account, and per
// campaign overriding it. Reading, setting and clearing are workspace-scoped like every use case.
import {
  ClearGoalSchema,
  SetGoalSchema,
  type AccountGoals,
  type CampaignGoal,
  type ClearGoal,
  type Goal,
  type GoalView,
  type SetGoal,
} from '../../shared/api/goals';
import type { z } from 'zod';
import type { AppServices } from '../app-services';
import { AppError } from '../errors';
import {
  resolveAccount,
  resolveCampaign,
  type RequestContext,
  type VisibleAccount,
} from '../identity/access';
import type { Sql } from '../store/sql';
import { deleteGoal, effectiveGoal, goalRows, goalsOf, saveGoal, type GoalRow } from './store';

function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    throw new AppError(
      'invalid_request',
      parsed.error.issues
        .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
        .join('; '),
    );
  }
  return parsed.data;
}

function view(row: GoalRow): GoalView {
  return {
    accountId: row.account_id,
    campaignId: row.campaign_id,
    kind: row.kind,
    target: row.target,
    updatedAt: row.updated_at,
  };
}

/** The campaign's service ID, checked to be one of this account's campaigns. */
async function campaignOf(
  sql: Sql,
  ctx: RequestContext,
  account: VisibleAccount,
  campaignId: string,
): Promise<string> {
  const campaign = await resolveCampaign(sql, ctx, campaignId);
  if (campaign.accountId !== account.id) {
    throw new AppError(
      'invalid_request',
      `Campaign ${campaignId} is not a campaign of ad account ${account.id}.`,
    );
  }
  return campaign.id;
}

export function goalUseCases(services: AppServices) {
  const { sql, clock } = services.core;

  async function campaignGoal(ctx: RequestContext, campaignIdText: string): Promise<CampaignGoal> {
    const campaign = await resolveCampaign(sql, ctx, campaignIdText);
    const own = (await goalRows(sql, campaign.accountId)).find((g) => g.campaign_id === campaign.id);
    return {
      accountId: campaign.accountId,
      campaignId: campaign.id,
      own: own ? view(own) : null,
      effective: effectiveGoal(await goalsOf(sql, campaign.accountId), campaign.id),
    };
  }

  return {
    /** The account's goal and its campaigns' own goals. */
    async list(ctx: RequestContext, accountIdText: string): Promise<AccountGoals> {
      const account = await resolveAccount(sql, ctx, accountIdText);
      const rows = (await goalRows(sql, account.id)).map(view);
      return {
        accountId: account.id,
        account: rows.find((g) => g.campaignId === null) ?? null,
        campaigns: rows.filter((g) => g.campaignId !== null),
      };
    },

    /** Sets (or replaces) the account's goal, or a campaign's when `campaignId` is given. */
    async set(ctx: RequestContext, input: SetGoal): Promise<GoalView> {
      const data = parse(SetGoalSchema, input);
      const account = await resolveAccount(sql, ctx, data.accountId);
      const row: GoalRow = {
        account_id: account.id,
        campaign_id: data.campaignId ? await campaignOf(sql, ctx, account, data.campaignId) : null,
        kind: data.kind,
        target: data.target,
        updated_at: clock.now().toISOString(),
        updated_by: ctx.userId,
      };
      await saveGoal(sql, row);
      return view(row);
    },

    /** Clears the account's goal, or a campaign's (which then follows the account's goal again). */
    async clear(ctx: RequestContext, input: ClearGoal): Promise<void> {
      const data = parse(ClearGoalSchema, input);
      const account = await resolveAccount(sql, ctx, data.accountId);
      const campaignId = data.campaignId ? await campaignOf(sql, ctx, account, data.campaignId) : null;
      await deleteGoal(sql, account.id, campaignId);
    },

    /** A campaign's own goal and the one it is judged against. */
    campaign: campaignGoal,

    /** Sets a campaign's own goal (the campaign names its account). */
    async setForCampaign(ctx: RequestContext, campaignIdText: string, goal: Goal): Promise<GoalView> {
      const campaign = await resolveCampaign(sql, ctx, campaignIdText);
      return this.set(ctx, { accountId: campaign.accountId, campaignId: campaign.id, ...goal });
    },

    /** Clears a campaign's own goal; it follows the account's goal again. */
    async clearForCampaign(ctx: RequestContext, campaignIdText: string): Promise<CampaignGoal> {
      const campaign = await resolveCampaign(sql, ctx, campaignIdText);
      await this.clear(ctx, { accountId: campaign.accountId, campaignId: campaign.id });
      return campaignGoal(ctx, campaign.id);
    },
  };
}

export type GoalUseCases = ReturnType<typeof goalUseCases>;
