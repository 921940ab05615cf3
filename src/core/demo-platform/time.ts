// Calendar and wall-clock helpers in an ad account's timezone. Days are handled as integers
// (days since 1970-01-01) because the delivery model is evaluated millions of times.

const MS_PER_DAY = 86_400_000;

export function dayNumber(date: string): number {
  return Math.round(Date.parse(`${date}T00:00:00Z`) / MS_PER_DAY);
}

const dateCache = new Map<number, string>();

/** YYYY-MM-DD of a day number (memoized: rows format the same few hundred dates millions of times). */
export function dateOfDay(day: number): string {
  let date = dateCache.get(day);
  if (date === undefined) {
    date = new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
    if (dateCache.size < 100_000) dateCache.set(day, date);
  }
  return date;
}

/** 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
export function weekday(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** Minutes east of UTC for an IANA timezone at an instant (e.g. -480 for PST). */
export function zoneOffsetMinutes(epochMs: number, timeZone: string): number {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormats.set(timeZone, format);
  }
  const name = format.formatToParts(new Date(epochMs)).find((p) => p.type === 'timeZoneName')?.value ?? '';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/** Unix seconds of a local wall-clock time (day + seconds after midnight) in a timezone. */
export function zonedEpochSeconds(day: number, secondsOfDay: number, timeZone: string): number {
  const guess = day * MS_PER_DAY + secondsOfDay * 1000;
  let offset = zoneOffsetMinutes(guess, timeZone);
  const second = zoneOffsetMinutes(guess - offset * 60_000, timeZone);
  if (second !== offset) offset = second;
  return Math.round((guess - offset * 60_000) / 1000);
}

function pad(n: number, width = 2): string {
  return String(Math.abs(n)).padStart(width, '0');
}

/** Graph datetime: `2026-01-04T17:12:03-0800` (local time, offset without a colon). */
export function graphTime(epochSeconds: number, timeZone: string): string {
  const ms = epochSeconds * 1000;
  const offset = zoneOffsetMinutes(ms, timeZone);
  const local = new Date(ms + offset * 60_000);
  const date = local.toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  return `${date}${sign}${pad(Math.trunc(Math.abs(offset) / 60))}${pad(Math.abs(offset) % 60)}`;
}

/** The calendar date of an instant in a timezone, as a day number. */
export function localDay(epochMs: number, timeZone: string): number {
  return Math.floor((epochMs + zoneOffsetMinutes(epochMs, timeZone) * 60_000) / MS_PER_DAY);
}
