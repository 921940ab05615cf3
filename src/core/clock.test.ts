import { describe, expect, it } from 'vitest';
import { addDays, dateRange, daysBetween, daysInMonthOf } from './clock';

/** Date's answers, which the integer arithmetic must give. */
const viaDate = {
  addDays(date: string, days: number): string {
    const d = new Date(`${date}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + days);
    return d.toISOString().slice(0, 10);
  },
  daysBetween: (from: string, to: string) =>
    Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1,
};

describe('calendar dates', () => {
  it('agrees with Date on every day from 1899 to 2101 and on shifts across months, leap days and years', () => {
    const shifts = [-800, -366, -365, -59, -29, -1, 0, 1, 28, 29, 60, 365, 366, 1000];
    for (let t = Date.UTC(1899, 0, 1); t <= Date.UTC(2101, 11, 31); t += 86_400_000) {
      const date = new Date(t).toISOString().slice(0, 10);
      for (const n of shifts) expect(addDays(date, n)).toBe(viaDate.addDays(date, n));
      expect(daysBetween('2000-02-29', date)).toBe(viaDate.daysBetween('2000-02-29', date));
      const [y, m] = [Number(date.slice(0, 4)), Number(date.slice(5, 7))];
      expect(daysInMonthOf(y, m)).toBe(new Date(Date.UTC(y, m, 0)).getUTCDate());
    }
  });

  it('takes Date’s path for what is not a plain date, as before', () => {
    expect(addDays('2026-02-30', 1)).toBe(viaDate.addDays('2026-02-30', 1));
    expect(addDays('2026-01-31', 0.5)).toBe(viaDate.addDays('2026-01-31', 0.5));
    expect(addDays('9999-12-31', 1)).toBe(viaDate.addDays('9999-12-31', 1));
    expect(() => addDays('not a date', 1)).toThrow(RangeError);
    expect(daysBetween('2026-03-01', 'x')).toBeNaN();
  });

  it('ranges are inclusive', () => {
    expect(dateRange('2024-02-27', '2024-03-01')).toEqual([
      '2024-02-27',
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
    ]);
    expect(daysBetween('2024-02-27', '2024-03-01')).toBe(4);
  });
});
