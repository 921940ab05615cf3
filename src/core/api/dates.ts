// Date-range rules shared by the routes: start after end, or a window longer than 90 days, is
// invalid_date_range; defaults are computed in the account's timezone.
import { MAX_RANGE_DAYS } from '../../shared/api/common';
import { daysBetween } from '../clock';
import { AppError } from '../errors';

/** An analysis window: start ≤ end and at most 90 days, both inclusive. */
export function checkWindow(from: string, to: string): { from: string; to: string } {
  if (from > to) throw new AppError('invalid_date_range', `date_start ${from} is after date_end ${to}.`);
  const days = daysBetween(from, to);
  if (days > MAX_RANGE_DAYS) {
    throw new AppError(
      'invalid_date_range',
      `The range ${from} to ${to} covers ${days} days; the maximum is ${MAX_RANGE_DAYS}.`,
    );
  }
  return { from, to };
}

/** A list filter's period: only its order is checked (it selects records, it is not an analysis window). */
export function checkOrder(from: string | undefined, to: string | undefined, names: [string, string]): void {
  if (from !== undefined && to !== undefined && Date.parse(normalize(from)) > Date.parse(normalize(to))) {
    throw new AppError('invalid_date_range', `${names[0]} ${from} is after ${names[1]} ${to}.`);
  }
}

const normalize = (value: string) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
