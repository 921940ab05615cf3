// Platform timestamps to ISO 8601 UTC: Meta's UTC form is written out as it is, and must read exactly as
// Date reads it, edge days and hours included (Date rolls "02-30" into March and "24:00" into the next day).
import { describe, expect, it } from 'vitest';
import { isoUtc } from './views';

/** What Date makes of a platform timestamp: the general path, and the reference. */
function throughDate(value: string): string {
  const time = Date.parse(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(time) ? value : new Date(time).toISOString();
}

describe('isoUtc', () => {
  it('reads every day and edge hour of three years as Date does', () => {
    const pad = (n: number) => String(n).padStart(2, '0');
    const values: string[] = [];
    for (const year of [1999, 2024, 2026])
      for (let month = 0; month <= 13; month++)
        for (let day = 0; day <= 32; day++)
          for (const time of ['00:00:00', '23:59:59', '24:00:00', '12:60:00', '12:00:60', '-1:00:00'])
            values.push(`${year}-${pad(month)}-${pad(day)}T${time}+0000`);
    const differing = values.filter((value) => isoUtc(value) !== throughDate(value));
    expect(differing).toEqual([]);
    expect(isoUtc('2024-02-29T23:59:59+0000')).toBe('2024-02-29T23:59:59.000Z');
    expect(isoUtc('2026-02-30T10:00:00+0000')).toBe('2026-03-02T10:00:00.000Z');
  });

  it('converts other offsets and leaves what is not a timestamp as it came', () => {
    expect(isoUtc('2026-01-05T10:00:00+0200')).toBe('2026-01-05T08:00:00.000Z');
    expect(isoUtc('2026-01-05T10:00:00.000Z')).toBe('2026-01-05T10:00:00.000Z');
    expect(isoUtc('not a time')).toBe('not a time');
  });
});
