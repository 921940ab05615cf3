// Date-range rules shared by the routes: start after end, or a range longer than 90 days, is
// invalid_date_range (spec: errors table and limits); defaults are computed in the account's timezone.
import { MAX_RANGE_DAYS } from '../../shared/api/common';
import { daysBetween } from '../clock';
import { AppError } from '../errors';
import { boundary } from '../reports/store';

const DAY_MS = 86_400_000;

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

/**
 * A list filter's period (diagnostics `date_start`/`date_end`, reports `from`/`to`): when both ends are
 * given, the same rule as any date range: start ≤ end and at most 90 days. Ends may be dates (a `to` date
 * covers its whole day, as the reports store reads it) or ISO 8601 timestamps.
 */
export function checkFilterRange(
  from: string | undefined,
  to: string | undefined,
  names: [string, string],
): void {
  if (from === undefined || to === undefined) return;
  const start = Date.parse(boundary(from, false));
  const end = Date.parse(boundary(to, true));
  if (start > end)
    throw new AppError('invalid_date_range', `${names[0]} ${from} is after ${names[1]} ${to}.`);
  if (end - start > MAX_RANGE_DAYS * DAY_MS) {
    throw new AppError(
      'invalid_date_range',
      `The range ${from} to ${to} is longer than ${MAX_RANGE_DAYS} days (the maximum).`,
    );
  }
}
