/** The time source of the core; tests and the demo platform pin it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function fixedClock(at: Date | string): Clock {
  const date = new Date(at);
  return { now: () => new Date(date) };
}

// One formatter per time zone: building an Intl.DateTimeFormat costs far more than formatting with
// it, and list endpoints ask for every account's "today" on every request. Each also remembers its
// last answer: a request asks the same instant again for each of an agency's 500 accounts, and
// formatting is the costliest step left (about 1 µs).
const formatters = new Map<string, { format: Intl.DateTimeFormat; at: number; date: string }>();

/** The calendar date (YYYY-MM-DD) of an instant in an IANA timezone. */
export function dateInZone(instant: Date, timeZone: string): string {
  let zone = formatters.get(timeZone);
  if (!zone) {
    const format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    zone = { format, at: Number.NaN, date: '' };
    formatters.set(timeZone, zone);
  }
  const at = instant.getTime();
  if (at !== zone.at) {
    zone.date = zone.format.format(instant);
    zone.at = at;
  }
  return zone.date;
}

// Calendar dates as day numbers (days since 1970-01-01) in integer arithmetic (H. Hinnant's
// days_from_civil): read models shift and count dates for each of an agency's 500 accounts on every
// request, and going through Date (parse, then format) cost more than the rest of a portfolio row.
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day number of a valid YYYY-MM-DD date, or null (then callers take Date's path). */
function dayNumber(date: string): number | null {
  const m = DATE.exec(date);
  if (!m) return null;
  const month = Number(m[2]);
  const day = Number(m[3]);
  let year = Number(m[1]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonthOf(year, month)) return null;
  year -= month <= 2 ? 1 : 0;
  const era = Math.floor(year / 400);
  const yearOfEra = year - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The YYYY-MM-DD date of a day number (civil_from_days); null outside years 0000-9999. */
function dateOfDayNumber(n: number): string | null {
  const z = n + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 0 || year > 9999) return null;
  return `${String(year).padStart(4, '0')}-${month < 10 ? '0' : ''}${month}-${day < 10 ? '0' : ''}${day}`;
}

/** Days in a month (1-12) of a year of the proleptic Gregorian calendar. */
export function daysInMonthOf(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Adds whole days to a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  const n = Number.isInteger(days) ? dayNumber(date) : null;
  const fast = n === null ? null : dateOfDayNumber(n + days);
  if (fast !== null) return fast;
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Inclusive day count from `from` to `to` (YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  const a = dayNumber(from);
  const b = dayNumber(to);
  if (a !== null && b !== null) return b - a + 1;
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** Every date from `from` to `to`, inclusive. */
export function dateRange(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}
