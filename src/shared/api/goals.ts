// Goals (an addition to the spec): a target cost per result (CPA) or ROAS for an ad account, and per
// campaign overriding it. "Break-even" is a ROAS goal of 1.0.
import { z } from 'zod';

export const GOAL_KINDS = ['CPA', 'ROAS'] as const;
/** CPA: cost per result, in the account's currency (major units); ROAS: revenue ÷ spend, a ratio. */
export type GoalKind = (typeof GOAL_KINDS)[number];

/** Break-even: revenue equal to spend. */
export const BREAK_EVEN_ROAS = 1;
/** Upper bounds that catch a slip of the keyboard (a CPA in minor units, a ROAS in percent). */
export const MAX_CPA_TARGET = 1_000_000;
export const MAX_ROAS_TARGET = 100;

export interface Goal {
  kind: GoalKind;
  target: number;
}

export interface GoalView {
  accountId: string;
  /** null: the account's goal (every campaign without its own). */
  campaignId: string | null;
  kind: GoalKind;
  target: number;
  updatedAt: string;
}

export interface AccountGoals {
  accountId: string;
  account: GoalView | null;
  campaigns: GoalView[];
}

const id = z.string().min(1, 'give an ID');

export const SetGoalSchema = z
  .object({
    /** The ad account (service or platform ID). */
    accountId: id,
    /** A campaign of that account (service ID); absent or null: the account's goal. */
    campaignId: id.nullable().optional(),
    kind: z.enum(GOAL_KINDS, { message: 'the goal kind is CPA or ROAS' }),
    target: z.number({ message: 'the target is a number' }).positive('the target is above zero'),
  })
  .strict()
  .superRefine((g, ctx) => {
    if (g.kind === 'CPA' && g.target > MAX_CPA_TARGET) {
      ctx.addIssue({
        code: 'custom',
        path: ['target'],
        message: `a CPA target is at most ${MAX_CPA_TARGET.toLocaleString('en-US')} (in the account's currency)`,
      });
    }
    if (g.kind === 'ROAS' && g.target > MAX_ROAS_TARGET) {
      ctx.addIssue({
        code: 'custom',
        path: ['target'],
        message: `a ROAS target is a ratio (3 = 300%), at most ${MAX_ROAS_TARGET}`,
      });
    }
  });
export type SetGoal = z.input<typeof SetGoalSchema>;

export const ClearGoalSchema = z
  .object({
    accountId: id,
    /** Absent or null: clears the account's goal (campaign goals stay). */
    campaignId: id.nullable().optional(),
  })
  .strict();
export type ClearGoal = z.input<typeof ClearGoalSchema>;

/** A campaign's goal: its own (null: none) and the one it is judged against (its own, else the account's). */
export interface CampaignGoal {
  accountId: string;
  campaignId: string;
  own: GoalView | null;
  effective: (Goal & { source: 'campaign' | 'account' }) | null;
}

/** The body of `PUT /v1/accounts/{id}/goals` and `PUT /v1/campaigns/{id}/goal`. */
export const GoalBodySchema = z
  .object({
    kind: z.enum(GOAL_KINDS, { message: 'the goal kind is CPA or ROAS' }),
    target: z.number({ message: 'the target is a number' }).positive('the target is above zero'),
  })
  .strict();

const kindSchema = z.enum(GOAL_KINDS);
export const GoalViewSchema = z.object({
  accountId: z.string(),
  campaignId: z.string().nullable(),
  kind: kindSchema,
  target: z.number(),
  updatedAt: z.string(),
});
export const AccountGoalsSchema = z.object({
  accountId: z.string(),
  account: GoalViewSchema.nullable(),
  campaigns: z.array(GoalViewSchema),
});
export const CampaignGoalSchema = z.object({
  accountId: z.string(),
  campaignId: z.string(),
  own: GoalViewSchema.nullable(),
  effective: z
    .object({ kind: kindSchema, target: z.number(), source: z.enum(['campaign', 'account']) })
    .nullable(),
});
