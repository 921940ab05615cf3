// When an account syncs on its own: incremental syncs on a fixed grid of the interval, each account
// offset by a stable share of it (so twenty accounts do not start together), and a full
// reconciliation once a night at a fixed local hour in the account's own time zone (DST-safe).
import { createHash } from 'node:crypto';
import { addDays, dateInZone } from '../clock';

export const DEFAULT_INTERVAL_MINUTES = 60;
/** Local hour of the nightly full reconciliation. */
export const NIGHTLY_HOUR = 3;
/** Backoff after failed syncs: 15 min, doubling, at most 6 hours. */
const BACKOFF_BASE_MS = 15 * 60_000;
const BACKOFF_MAX_MS = 6 * 60 * 60_000;

/** A stable offset in [0, intervalMs) for an account: its place on the interval's grid. */
export function offsetOf(accountId: string, intervalMs: number): number {
  const hash = createHash('sha256').update(accountId).digest();
  return hash.readUInt32BE(0) % intervalMs;
}

/** The account's next incremental slot strictly after `now` (a missed slot is never repeated). */
export function nextIncremental(accountId: string, intervalMinutes: number, now: Date): Date {
  const intervalMs = intervalMinutes * 60_000;
  const offset = offsetOf(accountId, intervalMs);
  const slots = Math.floor((now.getTime() - offset) / intervalMs) + 1;
  return new Date(slots * intervalMs + offset);
}

/** The UTC instant of a local wall-clock time in a time zone (the later one in a DST fold). */
export function zonedTime(date: string, hour: number, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d, hour);
  // Two passes: the zone's offset at the guess, then at the corrected instant (DST edges).
  let instant = wall - offsetMs(new Date(wall), timeZone);
  instant = wall - offsetMs(new Date(instant), timeZone);
  return new Date(instant);
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at an instant, in milliseconds. */
function offsetMs(instant: Date, timeZone: string): number {
  let format = offsetFormatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    offsetFormatters.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, p.value]));
  const asUtc = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The next nightly reconciliation strictly after `now`: NIGHTLY_HOUR local time in the account's zone. */
export function nextNightly(timeZone: string, now: Date): Date {
  const today = dateInZone(now, timeZone);
  const tonight = zonedTime(today, NIGHTLY_HOUR, timeZone);
  return tonight.getTime() > now.getTime() ? tonight : zonedTime(addDays(today, 1), NIGHTLY_HOUR, timeZone);
}

/** How long to wait after `failures` failed syncs in a row. */
export function backoffMs(failures: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, failures - 1));
}

/** When an account syncs next on its own: the earlier of its two slots, not before a backoff ends. */
export function nextScheduledSync(slots: {
  next_incremental_at: string;
  next_full_at: string;
  backoff_until: string | null;
}): string {
  const next =
    slots.next_incremental_at < slots.next_full_at ? slots.next_incremental_at : slots.next_full_at;
  return slots.backoff_until && slots.backoff_until > next ? slots.backoff_until : next;
}
