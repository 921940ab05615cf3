// The ad account's activity log (Graph `/act_{id}/activities`): parsing, and the normalization of
// Meta's event types and extra_data into the product's change vocabulary.
import { z } from 'zod';
import type { ChangeType } from '../../shared/api/changes';

export const ACTIVITY_FIELDS =
  'event_type,event_time,actor_id,actor_name,object_id,object_name,object_type,extra_data,translated_event_type';

export const activitySchema = z.object({
  event_type: z.string(),
  event_time: z.string(),
  actor_id: z.union([z.string(), z.number()]).transform(String).optional().nullable(),
  actor_name: z.string().optional().nullable(),
  object_id: z.union([z.string(), z.number()]).transform(String).optional().nullable(),
  object_name: z.string().optional().nullable(),
  object_type: z.string().optional().nullable(),
  extra_data: z.string().optional().nullable(),
  translated_event_type: z.string().optional().nullable(),
});
export type PlatformActivity = z.infer<typeof activitySchema>;

// First match wins: "update_ad_set_bid_strategy" is a bid edit, not a status one.
const RULES: ReadonlyArray<[RegExp, ChangeType]> = [
  [/attribution/, 'ATTRIBUTION'],
  [/budget|spend_cap|spending_limit/, 'BUDGET'],
  [/bid/, 'BID'],
  [/duration|schedule|start_time|end_time|stop_time/, 'SCHEDULE'],
  [/target|audience|placement/, 'TARGETING'],
  [/creative|ad_review_declined_creative/, 'CREATIVE'],
  [/run_status|_status$|review|pause|archive|delete/, 'STATUS'],
];

/** Meta's event_type → the product's change type. */
export function changeTypeOf(eventType: string): ChangeType {
  const type = eventType.toLowerCase();
  for (const [pattern, change] of RULES) if (pattern.test(type)) return change;
  return 'OTHER';
}

/** Meta's object_type → which of our objects it is (CAMPAIGN_GROUP is a campaign, CAMPAIGN an ad set). */
export function objectKindOf(
  objectType: string | null | undefined,
): 'campaign' | 'adSet' | 'ad' | 'account' | 'other' {
  switch ((objectType ?? '').toUpperCase()) {
    case 'CAMPAIGN_GROUP':
      return 'campaign';
    case 'CAMPAIGN':
    case 'AD_SET':
      return 'adSet';
    case 'ADGROUP':
    case 'AD':
      return 'ad';
    case 'ACCOUNT':
    case 'AD_ACCOUNT':
      return 'account';
    default:
      return 'other';
  }
}

/**
 * Old and new values from extra_data (a JSON string): `{old_value, new_value}` at the top or one level
 * down. Money values `{amount, currency}` are minor units; they stay raw here and are shown by the
 * read model, which knows the currency. Anything else is kept as compact JSON.
 */
export function changeValues(extraData: string | null | undefined): {
  oldValue: string | null;
  newValue: string | null;
} {
  const none = { oldValue: null, newValue: null };
  if (!extraData) return none;
  let parsed: unknown;
  try {
    parsed = JSON.parse(extraData);
  } catch {
    return none;
  }
  const pick = (o: unknown): { oldValue: string | null; newValue: string | null } | null => {
    if (!o || typeof o !== 'object' || Array.isArray(o)) return null;
    const r = o as Record<string, unknown>;
    if (!('old_value' in r) && !('new_value' in r)) return null;
    return { oldValue: stringify(r.old_value), newValue: stringify(r.new_value) };
  };
  const top = pick(parsed);
  if (top) return top;
  if (parsed && typeof parsed === 'object') {
    for (const value of Object.values(parsed as Record<string, unknown>)) {
      const inner = pick(value);
      if (inner) return inner;
    }
  }
  return none;
}

function stringify(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}
