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

/** Adds whole days to a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Inclusive day count from `from` to `to` (YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** Every date from `from` to `to`, inclusive. */
export function dateRange(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}
