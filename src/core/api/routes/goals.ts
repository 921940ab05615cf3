// Goals (an addition to the spec, docs/api.md): an account's target CPA or ROAS and each campaign's
// own, read, set (PUT) and cleared (DELETE) in the spec's envelopes. Writes use the writes counter.
import { z } from 'zod';
import { AccountIdParam, CampaignIdParam, dataEnvelope } from '../../../shared/api/common';
import {
  AccountGoalsSchema,
  CampaignGoalSchema,
  GoalBodySchema,
  GoalViewSchema,
} from '../../../shared/api/goals';
import { defineRoute, json } from '../route';

const accountPath = { id: AccountIdParam };
const campaignPath = { id: CampaignIdParam };
const noBody = z.strictObject({}).optional();

export const goalRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/accounts/{id}/goals',
    operationId: 'getAccountGoals',
    summary: "The account's goal (target CPA or ROAS) and its campaigns' own goals",
    tag: 'Goals',
    counters: ['reads'],
    cacheable: true,
    pathParams: accountPath,
    response: { status: 200, name: 'AccountGoalsResponse', schema: dataEnvelope(AccountGoalsSchema) },
    errors: ['invalid_request', 'permission_error', 'not_found'],
    async handle({ app, ctx, params }) {
      return json(await app.use.goals.list(ctx, params.id as string));
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/v1/accounts/{id}/goals',
    operationId: 'setAccountGoal',
    summary: "Set the account's goal: {kind: CPA|ROAS, target} (break-even is ROAS 1)",
    description:
      "CPA: cost per result in the account's currency (major units), per result of each campaign's result type; ROAS: revenue ÷ spend as a ratio (3 = 300%). Campaigns without their own goal are judged against it.",
    tag: 'Goals',
    counters: ['writes'],
    pathParams: accountPath,
    body: GoalBodySchema,
    response: { status: 200, name: 'GoalResponse', schema: dataEnvelope(GoalViewSchema) },
    errors: ['invalid_request', 'permission_error', 'not_found'],
    async handle({ app, ctx, params, body }) {
      return json(await app.use.goals.set(ctx, { accountId: params.id as string, ...body }));
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/accounts/{id}/goals',
    operationId: 'clearAccountGoal',
    summary: "Clear the account's goal (campaign goals stay); answers the goals left",
    tag: 'Goals',
    counters: ['writes'],
    pathParams: accountPath,
    body: noBody,
    response: { status: 200, name: 'AccountGoalsCleared', schema: dataEnvelope(AccountGoalsSchema) },
    errors: ['invalid_request', 'permission_error', 'not_found'],
    async handle({ app, ctx, params }) {
      await app.use.goals.clear(ctx, { accountId: params.id as string });
      return json(await app.use.goals.list(ctx, params.id as string));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/campaigns/{id}/goal',
    operationId: 'getCampaignGoal',
    summary: "A campaign's own goal and the goal it is judged against (its own, else the account's)",
    tag: 'Goals',
    counters: ['reads'],
    cacheable: true,
    pathParams: campaignPath,
    response: { status: 200, name: 'CampaignGoalResponse', schema: dataEnvelope(CampaignGoalSchema) },
    errors: ['invalid_request', 'not_found'],
    async handle({ app, ctx, params }) {
      return json(await app.use.goals.campaign(ctx, params.id as string));
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/v1/campaigns/{id}/goal',
    operationId: 'setCampaignGoal',
    summary: "Set a campaign's own goal: {kind: CPA|ROAS, target} (it overrides the account's)",
    tag: 'Goals',
    counters: ['writes'],
    pathParams: campaignPath,
    body: GoalBodySchema,
    response: { status: 200, name: 'CampaignGoalSet', schema: dataEnvelope(GoalViewSchema) },
    errors: ['invalid_request', 'not_found'],
    async handle({ app, ctx, params, body }) {
      return json(await app.use.goals.setForCampaign(ctx, params.id as string, body));
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/campaigns/{id}/goal',
    operationId: 'clearCampaignGoal',
    summary: "Clear a campaign's own goal; it follows the account's goal again",
    tag: 'Goals',
    counters: ['writes'],
    pathParams: campaignPath,
    body: noBody,
    response: { status: 200, name: 'CampaignGoalCleared', schema: dataEnvelope(CampaignGoalSchema) },
    errors: ['invalid_request', 'not_found'],
    async handle({ app, ctx, params }) {
      return json(await app.use.goals.clearForCampaign(ctx, params.id as string));
    },
  }),
];
