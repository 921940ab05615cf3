// Date windows of the application layer, one rule for every transport: start after end, or a range
// longer than 90 days, is invalid_date_range (spec: errors table and limits); default windows end
// today in the account's own time zone.
import { MAX_RANGE_DAYS, type InsightsDateRange } from '../shared/api/common';
import {
  MAX_SCREEN_RANGE_DAYS,
  resolveDateRange,
  type DateRangeSpec,
  type DateWindow,
} from '../shared/date-ranges';
import { addDays, dateInZone, daysBetween } from './clock';
import { AppError } from './errors';
import { boundary } from './reports/store';

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

/** A screen's range: explicit dates, or the last `days` days ending today in `timezone`. */
export interface RangeInput {
  days?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** The dates of a screen's range (default: the last `defaultDays` days ending today in `timezone`). */
export function resolveRange(
  now: Date,
  range: RangeInput | undefined,
  timezone: string,
  defaultDays: number,
): { from: string; to: string } {
  if (range?.from && range.to) return checkWindow(range.from, range.to);
  const to = dateInZone(now, timezone);
  return checkWindow(addDays(to, -((range?.days ?? defaultDays) - 1)), to);
}

/** The calendar window of an insightsDateRange value in a timezone; lifetime starts at `firstDate`. */
export function windowOf(
  range: InsightsDateRange,
  now: Date,
  timezone: string,
  firstDate?: string,
): { from: string; to: string } {
  const today = dateInZone(now, timezone);
  switch (range) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday':
      return { from: addDays(today, -1), to: addDays(today, -1) };
    case 'last_7d':
      return { from: addDays(today, -6), to: today };
    case 'last_14d':
      return { from: addDays(today, -13), to: today };
    case 'last_30d':
      return { from: addDays(today, -29), to: today };
    case 'lifetime':
      return { from: firstDate && firstDate < today ? firstDate : today, to: today };
  }
}

/** Days before today where a diagnostic's window starts by default (spec: "7 days ago"). */
export const DEFAULT_DIAGNOSTIC_DAYS_BACK = 7;

/**
 * A diagnostic's window: the dates given, else from 7 days before today (or before the end, if it is
 * earlier) to today, `today` being the account's own. The one default for people and the watcher.
 */
export function diagnosticWindow(
  today: string,
  dateStart?: string | undefined,
  dateEnd?: string | undefined,
): { from: string; to: string } {
  const to = dateEnd ?? today;
  const from = dateStart ?? addDays(to > today ? today : to, -DEFAULT_DIAGNOSTIC_DAYS_BACK);
  return checkWindow(from, to);
}

/**
 * An Ads Manager range (preset or custom, with a comparison) in an account's time zone: its own
 * "today", and for "Maximum" its first day with data. Longer than Meta's 37 months of insights is
 * invalid_date_range.
 */
export function accountDateRange(
  now: Date,
  spec: DateRangeSpec,
  timezone: string,
  firstDate?: string,
): { window: DateWindow; comparison: DateWindow | null } {
  const resolved = resolveDateRange(spec, dateInZone(now, timezone), { firstDate });
  const { from, to } = resolved.window;
  if (from > to) throw new AppError('invalid_date_range', `date_start ${from} is after date_end ${to}.`);
  const days = daysBetween(from, to);
  if (days > MAX_SCREEN_RANGE_DAYS) {
    throw new AppError(
      'invalid_date_range',
      `The range ${from} to ${to} covers ${days} days; the maximum is ${MAX_SCREEN_RANGE_DAYS} (37 months).`,
    );
  }
  return resolved;
}
