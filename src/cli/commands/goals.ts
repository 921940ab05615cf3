// `goals show|set|clear`: an account's target CPA or ROAS (break-even = ROAS 1) and each campaign's own.
// Translation only: the rules are in the goals use cases.
import { z } from 'zod';
import { BREAK_EVEN_ROAS, type AccountGoals, type Goal, type GoalView } from '../../shared/api/goals';
import { cli, command, type CommandModule } from '../framework';

const workspace = z.string({ error: '--workspace WS is required' }).min(1);
const target = (flag: string) => z.coerce.number({ error: `${flag} is a number` }).optional();

const goalText = (g: Goal): string =>
  g.kind === 'ROAS'
    ? g.target === BREAK_EVEN_ROAS
      ? 'ROAS 1 (break-even)'
      : `ROAS ${g.target}`
    : `CPA ${g.target}`;
const goalLine = (g: GoalView): string =>
  `${g.campaignId ?? '(account)'}\t${goalText(g)}\tupdated ${g.updatedAt}`;
const goalsText = (goals: AccountGoals): string =>
  [
    `account ${goals.accountId}: ${goals.account ? goalText(goals.account) : 'no goal'}`,
    ...goals.campaigns.map(goalLine),
  ].join('\n');

const scope = {
  workspace,
  account: z.string().min(1).optional(),
  campaign: z.string().min(1).optional(),
  positionals: cli.noPositionals,
};
const needsOne = (i: { account?: string; campaign?: string }) =>
  i.account !== undefined || i.campaign !== undefined;
const scopeMessage = 'give --account ACCOUNT (its goal) or --campaign CAMPAIGN (its own goal)';

export const goalCommands: CommandModule = [
  command({
    path: ['show'],
    summary: "shows an account's goal and its campaigns' own (--account), or one campaign's (--campaign)",
    options: { workspace: { type: 'string' }, account: { type: 'string' }, campaign: { type: 'string' } },
    input: z.object(scope).refine(needsOne, { message: scopeMessage }),
    async run(ctx, input) {
      const { identity, goals } = ctx.app().use;
      const rc = await identity.contextForWorkspace(input.workspace);
      if (input.campaign) {
        const goal = await goals.campaign(rc, input.campaign);
        const text = `campaign ${goal.campaignId}: ${goal.effective ? `${goalText(goal.effective)} (${goal.effective.source}'s goal)` : 'no goal'}`;
        return { json: { goal }, text };
      }
      const list = await goals.list(rc, input.account as string);
      return { json: { goals: list }, text: goalsText(list) };
    },
  }),
  command({
    path: ['set'],
    summary: 'sets the goal of an --account or a --campaign: --cpa AMOUNT, --roas RATIO or --break-even',
    options: {
      workspace: { type: 'string' },
      account: { type: 'string' },
      campaign: { type: 'string' },
      cpa: { type: 'string' },
      roas: { type: 'string' },
      'break-even': { type: 'boolean' },
    },
    input: z
      .object({
        ...scope,
        cpa: target('--cpa'),
        roas: target('--roas'),
        'break-even': z.boolean().optional(),
      })
      .refine(needsOne, { message: scopeMessage })
      .refine(
        (i) =>
          [i.cpa !== undefined, i.roas !== undefined, i['break-even'] === true].filter(Boolean).length === 1,
        { message: 'give one of --cpa AMOUNT, --roas RATIO or --break-even' },
      ),
    async run(ctx, input) {
      const { identity, goals } = ctx.app().use;
      const rc = await identity.contextForWorkspace(input.workspace);
      const goal: Goal =
        input.cpa !== undefined
          ? { kind: 'CPA', target: input.cpa }
          : { kind: 'ROAS', target: input.roas ?? BREAK_EVEN_ROAS };
      const set =
        input.campaign && !input.account
          ? await goals.setForCampaign(rc, input.campaign, goal)
          : await goals.set(rc, {
              accountId: input.account as string,
              campaignId: input.campaign ?? null,
              ...goal,
            });
      return { json: { goal: set }, text: goalLine(set) };
    },
  }),
  command({
    path: ['clear'],
    summary:
      "clears the goal of an --account (campaign goals stay) or a --campaign (it follows the account's)",
    options: { workspace: { type: 'string' }, account: { type: 'string' }, campaign: { type: 'string' } },
    input: z.object(scope).refine(needsOne, { message: scopeMessage }),
    async run(ctx, input) {
      const { identity, goals } = ctx.app().use;
      const rc = await identity.contextForWorkspace(input.workspace);
      if (input.campaign && !input.account) {
        const goal = await goals.clearForCampaign(rc, input.campaign);
        return { json: { goal }, text: `campaign ${goal.campaignId}: own goal cleared` };
      }
      await goals.clear(rc, { accountId: input.account as string, campaignId: input.campaign ?? null });
      const list = await goals.list(rc, input.account as string);
      return { json: { goals: list }, text: goalsText(list) };
    },
  }),
];

export default goalCommands;
