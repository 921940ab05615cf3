import { z } from 'zod';
import { dataEnvelope, listEnvelope, PageQuery, Timestamp } from './common';

export const CONNECTION_STATUSES = ['active', 'disconnected', 'token_expired'] as const;

export const Account = z.object({
  id: z.string(),
  platformAccountId: z.string(),
  name: z.string(),
  currency: z.string(),
  timezone: z.string(),
  status: z.enum(['active', 'disabled', 'closed']),
  connectionStatus: z.enum(CONNECTION_STATUSES),
  businessName: z.string(),
  businessId: z.string(),
  permissions: z.array(z.string()),
  /** Null until the first sync finished. */
  lastSyncedAt: Timestamp.nullable(),
  campaignCount: z.number().int().min(0),
  activeCampaignCount: z.number().int().min(0),
  totalSpendLast30d: z.number(),
  connectedAt: Timestamp,
  /** Null when the connecting user is not known (accounts connected before users existed). */
  connectedBy: z.string().nullable(),
  /**
   * Additions to the spec (delivery blockers): why Meta disabled the account (its disable_reason name,
   * e.g. RISK_PAYMENT; null when none), the account's spend cap (null: none) and its lifetime amount
   * spent, in the account currency; null before the first sync that read them.
   */
  disableReason: z.string().nullable(),
  spendCap: z.number().nullable(),
  amountSpent: z.number().nullable(),
  /** Addition: when the connection's token expires (debug_token); null = never, or not known. */
  tokenExpiresAt: Timestamp.nullable(),
  /** Addition: set when the token lapses within 7 days (or has lapsed), saying what to do. */
  tokenWarning: z.string().nullable(),
});
export type Account = z.infer<typeof Account>;

/** The /v1 shape of an account read model that carries more (e.g. the app's AccountView). */
export function toApiAccount(view: Account): Account {
  return {
    id: view.id,
    platformAccountId: view.platformAccountId,
    name: view.name,
    currency: view.currency,
    timezone: view.timezone,
    status: view.status,
    connectionStatus: view.connectionStatus,
    businessName: view.businessName,
    businessId: view.businessId,
    permissions: view.permissions,
    lastSyncedAt: view.lastSyncedAt,
    campaignCount: view.campaignCount,
    activeCampaignCount: view.activeCampaignCount,
    totalSpendLast30d: view.totalSpendLast30d,
    connectedAt: view.connectedAt,
    connectedBy: view.connectedBy,
    disableReason: view.disableReason,
    spendCap: view.spendCap,
    amountSpent: view.amountSpent,
    tokenExpiresAt: view.tokenExpiresAt,
    tokenWarning: view.tokenWarning,
  };
}

export const AccountListQuery = z.strictObject({
  status: z.enum(CONNECTION_STATUSES).optional(),
  ...PageQuery,
});

export const AccountListResponse = listEnvelope(Account);
export const AccountResponse = dataEnvelope(Account);

export const SyncStarted = z.object({
  accountId: z.string(),
  status: z.literal('running'),
  startedAt: Timestamp,
});
export type SyncStarted = z.infer<typeof SyncStarted>;
export const SyncStartedResponse = dataEnvelope(SyncStarted);
