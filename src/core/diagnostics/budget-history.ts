// The budget in force on each day, from the synced change history: a budget raised two days ago is
// judged against the old budget for the days before the change, not against today's.
import { minorToMicros } from '../money';
import type { ChangeRecord } from './types';

/** A budget value of the activity log (minor units, raw or `{amount}`) in micros; null when unreadable. */
export function budgetMicros(value: string | null, currency: string): number | null {
  if (value === null) return null;
  let parsed: unknown = value;
  try {
    parsed = JSON.parse(value);
  } catch {
    // A plain string amount.
  }
  const amount =
    parsed && typeof parsed === 'object' && 'amount' in parsed
      ? (parsed as { amount: unknown }).amount
      : parsed;
  if (typeof amount !== 'number' && typeof amount !== 'string') return null;
  try {
    const micros = minorToMicros(amount, currency);
    return micros > 0 ? micros : null;
  } catch {
    return null;
  }
}

/**
 * The daily budget in force on `date` for an entity whose budget is `current` today: the old value of
 * the first budget change made after that day, else the current budget. `adSetId` null = the campaign.
 */
export function budgetOn(
  changes: readonly ChangeRecord[] | undefined,
  adSetId: string | null,
  current: number,
  date: string,
  currency: string,
): number {
  for (const c of changes ?? []) {
    if (c.changeType !== 'BUDGET' || c.adSetId !== adSetId || c.adId !== null) continue;
    // The day of the change counts under the old budget: most of it ran before the edit.
    if (c.at.slice(0, 10) < date) continue;
    const old = budgetMicros(c.oldValue, currency);
    if (old !== null) return old;
  }
  return current;
}
