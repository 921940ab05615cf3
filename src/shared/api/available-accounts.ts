// Agency access: every ad account a token can reach (its user's own, and each business's owned and
// client accounts), grouped by the business it is reached through, and the outcome of connecting many.
import { z } from 'zod';
import { Timestamp } from './common';

export const ACCOUNT_RELATIONS = ['OWNED', 'CLIENT', 'PERSONAL'] as const;

export const AvailableAccount = z.object({
  platformAccountId: z.string(),
  name: z.string(),
  currency: z.string(),
  timezone: z.string(),
  status: z.enum(['active', 'disabled', 'closed']),
  /** OWNED by the business it is listed under, a CLIENT account shared with it, or the user's own (PERSONAL). */
  relation: z.enum(ACCOUNT_RELATIONS),
  /** The business that owns the account (a client's business for CLIENT accounts); null when none. */
  business: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** The token's tasks on the account (`user_tasks`: MANAGE, ADVERTISE, ANALYZE, DRAFT…). */
  tasks: z.array(z.string()),
  canConnect: z.boolean(),
  /** Why it cannot be connected (null when it can). */
  reason: z.string().nullable(),
  /** Already connected in this workspace (connecting it again re-authenticates it). */
  connected: z.boolean(),
});
export type AvailableAccount = z.infer<typeof AvailableAccount>;

export const AvailableAccountGroup = z.object({
  /** The business the accounts are reached through; null for the user's own accounts outside any business. */
  business: z.object({ id: z.string(), name: z.string() }).nullable(),
  accounts: z.array(AvailableAccount),
});
export type AvailableAccountGroup = z.infer<typeof AvailableAccountGroup>;

export const AvailableAccounts = z.object({
  /** `demo` for the embedded demo platform, or the Graph API base URL. */
  platform: z.string(),
  token: z.object({
    /** USER, SYSTEM_USER, PAGE… as debug_token says; null when it would not say. */
    type: z.string().nullable(),
    expiresAt: Timestamp.nullable(),
  }),
  groups: z.array(AvailableAccountGroup),
  total: z.number().int().min(0),
  /** What could not be listed (e.g. businesses without business_management): the rest still is. */
  warnings: z.array(z.string()),
});
export type AvailableAccounts = z.infer<typeof AvailableAccounts>;

export const ConnectOutcome = z.object({
  platformAccountId: z.string(),
  status: z.enum(['connected', 'refused']),
  /** The connected account's service ID (null when refused). */
  accountId: z.string().nullable(),
  error: z.object({ type: z.string(), message: z.string() }).nullable(),
});
export type ConnectOutcome = z.infer<typeof ConnectOutcome>;

export const ConnectManyResult = z.object({
  outcomes: z.array(ConnectOutcome),
  connected: z.number().int().min(0),
  refused: z.number().int().min(0),
});
export type ConnectManyResult = z.infer<typeof ConnectManyResult>;
