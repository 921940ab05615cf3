// Recurring reports. A weekly report is due on Monday at 06:00 UTC and covers the previous Monday to
// Sunday; a monthly one is due on the 1st at 06:00 UTC and covers the previous calendar month.
import type { ReportCadence } from '../../shared/api/reports';
import { addDays } from '../clock';

export const DUE_HOUR_UTC = 6;

export interface ScheduledRun {
  dueAt: string;
  dateFrom: string;
  dateTo: string;
}

function dueInstant(date: string): string {
  return `${date}T${String(DUE_HOUR_UTC).padStart(2, '0')}:00:00.000Z`;
}

/** The run due on `dueDate` (YYYY-MM-DD): its due instant and the window it covers. */
export function runOn(cadence: ReportCadence, dueDate: string): ScheduledRun {
  if (cadence === 'weekly') {
    return { dueAt: dueInstant(dueDate), dateFrom: addDays(dueDate, -7), dateTo: addDays(dueDate, -1) };
  }
  const to = addDays(dueDate, -1);
  return { dueAt: dueInstant(dueDate), dateFrom: `${to.slice(0, 8)}01`, dateTo: to };
}

/** The first run strictly after `now`. */
export function nextRun(cadence: ReportCadence, now: Date): ScheduledRun {
  const today = now.toISOString().slice(0, 10);
  let dueDate: string;
  if (cadence === 'weekly') {
    const weekday = new Date(`${today}T00:00:00Z`).getUTCDay(); // 0 = Sunday, 1 = Monday
    dueDate = addDays(today, (8 - weekday) % 7 || 7);
    // Monday before 06:00 UTC: today's run is still ahead.
    if (weekday === 1 && now.toISOString() < dueInstant(today)) dueDate = today;
  } else {
    const [year, month] = today.split('-').map(Number) as [number, number];
    dueDate =
      today.endsWith('-01') && now.toISOString() < dueInstant(today)
        ? today
        : new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 10);
  }
  return runOn(cadence, dueDate);
}
