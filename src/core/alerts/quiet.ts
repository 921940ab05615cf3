// Quiet hours in the analyst's time zone: a delivery raised inside them is held until they end.
import { addDays, dateInZone } from '../clock';
import { zonedTime } from '../watch/slots';

const hourFormats = new Map<string, Intl.DateTimeFormat>();

export function hourInZone(instant: Date, timeZone: string): number {
  let format = hourFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', hour: '2-digit' });
    hourFormats.set(timeZone, format);
  }
  return Number(format.format(instant)) % 24;
}

/** When the quiet hours around `now` end, or null when `now` is outside them (or none are set). */
export function quietUntil(
  now: Date,
  quiet: { from: number | null; to: number | null; timezone: string },
): Date | null {
  const { from, to, timezone } = quiet;
  if (from === null || to === null || from === to) return null;
  const hour = hourInZone(now, timezone);
  const inside = from < to ? hour >= from && hour < to : hour >= from || hour < to;
  if (!inside) return null;
  const today = dateInZone(now, timezone);
  // Overnight hours (22 → 7) seen before midnight end tomorrow; any other case ends today.
  return zonedTime(hour >= to ? addDays(today, 1) : today, to, timezone);
}
