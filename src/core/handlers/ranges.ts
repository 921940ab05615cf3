// Date ranges of the screens: explicit dates, or the last N days ending today in the account's zone.
import { addDays, dateInZone, daysBetween, type Clock } from '../clock';
import { AppError } from '../errors';

export interface RangeArg {
  days?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export const MAX_RANGE_DAYS = 90;

export function resolveRange(
  clock: Clock,
  range: RangeArg | undefined,
  timezone: string,
  defaultDays: number,
): { from: string; to: string } {
  if (range?.from && range.to) {
    if (daysBetween(range.from, range.to) > MAX_RANGE_DAYS) {
      throw new AppError('invalid_date_range', `A range may span at most ${MAX_RANGE_DAYS} days.`);
    }
    return { from: range.from, to: range.to };
  }
  const to = dateInZone(clock.now(), timezone);
  return { from: addDays(to, -((range?.days ?? defaultDays) - 1)), to };
}
