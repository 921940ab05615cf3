import { z } from 'zod';
import { dataEnvelope, Timestamp } from './common';

/** Meta's activity event types, normalized into the product's vocabulary of edits. */
export const CHANGE_TYPES = [
  'BUDGET',
  'BID',
  'SCHEDULE',
  'STATUS',
  'TARGETING',
  'ATTRIBUTION',
  'CREATIVE',
  'OTHER',
] as const;
export const ChangeTypeSchema = z.enum(CHANGE_TYPES);
export type ChangeType = z.infer<typeof ChangeTypeSchema>;

const Touched = z.object({ id: z.string(), name: z.string() }).nullable();

/** One synced entry of the account's activity log (Ads Manager's "Account history"). */
export const ChangeEventSchema = z.object({
  changeType: ChangeTypeSchema,
  /** Meta's event type as sent (e.g. update_ad_set_budget) and its translation. */
  eventType: z.string(),
  description: z.string(),
  at: Timestamp,
  actor: z.object({ id: z.string().nullable(), name: z.string().nullable() }),
  /** The object edited: campaign, ad set, ad or the account itself. */
  objectType: z.enum(['campaign', 'adSet', 'ad', 'account', 'other']),
  objectName: z.string(),
  campaign: Touched,
  adSet: Touched,
  ad: Touched,
  /** Old and new values where the log has them (amounts in the account currency, major units). */
  oldValue: z.string().nullable(),
  newValue: z.string().nullable(),
});
export type ChangeEvent = z.infer<typeof ChangeEventSchema>;

export const CampaignChangesQuery = z.strictObject({});
export const CampaignChangesResponse = dataEnvelope(z.array(ChangeEventSchema));
export type CampaignChanges = z.infer<typeof CampaignChangesResponse>;
