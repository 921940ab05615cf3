import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  comparisonWindow,
  DATE_PRESETS,
  oneYearEarlier,
  presetWindow,
  rangeLength,
  resolveDateRange,
} from './date-ranges';
import { DateRangeSpecSchema } from './date-range-schema';

describe('presetWindow', () => {
  // 2026-03-04 is a Wednesday.
  const today = '2026-03-04';

  it('ends "Last N days" yesterday, as Ads Manager does', () => {
    expect(presetWindow('today', today)).toEqual({ from: today, to: today });
    expect(presetWindow('yesterday', today)).toEqual({ from: '2026-03-03', to: '2026-03-03' });
    expect(presetWindow('last_7d', today)).toEqual({ from: '2026-02-25', to: '2026-03-03' });
    expect(presetWindow('last_14d', today)).toEqual({ from: '2026-02-18', to: '2026-03-03' });
    expect(presetWindow('last_28d', today)).toEqual({ from: '2026-02-04', to: '2026-03-03' });
    expect(presetWindow('last_30d', today)).toEqual({ from: '2026-02-02', to: '2026-03-03' });
  });

  it('starts weeks on Monday by default, on Sunday when asked', () => {
    expect(presetWindow('this_week', today)).toEqual({ from: '2026-03-02', to: today });
    expect(presetWindow('last_week', today)).toEqual({ from: '2026-02-23', to: '2026-03-01' });
    expect(presetWindow('this_week', today, { weekStartsOn: 0 })).toEqual({ from: '2026-03-01', to: today });
    expect(presetWindow('last_week', today, { weekStartsOn: 0 })).toEqual({
      from: '2026-02-22',
      to: '2026-02-28',
    });
    // On the week's first day, "this week" is today alone.
    expect(presetWindow('this_week', '2026-03-02')).toEqual({ from: '2026-03-02', to: '2026-03-02' });
    expect(presetWindow('this_week', '2026-03-01')).toEqual({ from: '2026-02-23', to: '2026-03-01' });
  });

  it('knows month ends, leap years included', () => {
    expect(presetWindow('this_month', today)).toEqual({ from: '2026-03-01', to: today });
    expect(presetWindow('last_month', today)).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(presetWindow('last_month', '2024-03-15')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(presetWindow('last_month', '2026-01-01')).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    expect(presetWindow('last_month', '2026-05-31')).toEqual({ from: '2026-04-01', to: '2026-04-30' });
  });

  it('runs "Maximum" from the first day with data, never past 37 months', () => {
    expect(presetWindow('maximum', today, { firstDate: '2025-11-01' })).toEqual({
      from: '2025-11-01',
      to: today,
    });
    expect(presetWindow('maximum', today)).toEqual({ from: today, to: today });
    expect(rangeLength(presetWindow('maximum', today, { firstDate: '2010-01-01' }).from, today)).toBe(1131);
  });

  it('always gives from ≤ to, ending no later than today (property)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }),
        fc.constantFrom(...DATE_PRESETS),
        fc.constantFrom<0 | 1>(0, 1),
        (day, preset, weekStartsOn) => {
          const t = day.toISOString().slice(0, 10);
          const w = presetWindow(preset, t, { weekStartsOn });
          expect(w.from <= w.to).toBe(true);
          expect(w.to <= t).toBe(true);
        },
      ),
    );
  });
});

describe('comparisonWindow', () => {
  it('takes the previous period of equal length, ending the day before', () => {
    expect(comparisonWindow({ from: '2026-03-01', to: '2026-03-07' }, 'previous_period')).toEqual({
      from: '2026-02-22',
      to: '2026-02-28',
    });
    expect(comparisonWindow({ from: '2026-03-01', to: '2026-03-01' }, 'previous_period')).toEqual({
      from: '2026-02-28',
      to: '2026-02-28',
    });
    expect(comparisonWindow({ from: '2026-03-01', to: '2026-03-07' }, 'none')).toBeNull();
  });

  it('maps the same period last year across leap years', () => {
    expect(oneYearEarlier('2024-02-29')).toBe('2023-02-28');
    expect(oneYearEarlier('2025-03-01')).toBe('2024-03-01');
    // A whole February compares with the whole February before it.
    expect(comparisonWindow({ from: '2025-02-01', to: '2025-02-28' }, 'same_period_last_year')).toEqual({
      from: '2024-02-01',
      to: '2024-02-29',
    });
    expect(comparisonWindow({ from: '2024-02-01', to: '2024-02-29' }, 'same_period_last_year')).toEqual({
      from: '2023-02-01',
      to: '2023-02-28',
    });
    expect(comparisonWindow({ from: '2026-03-02', to: '2026-03-08' }, 'same_period_last_year')).toEqual({
      from: '2025-03-02',
      to: '2025-03-08',
    });
  });

  it('previous period never overlaps and has the same length (property)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2001-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }),
        fc.integer({ min: 1, max: 400 }),
        (day, length) => {
          const to = day.toISOString().slice(0, 10);
          const from = new Date(day.getTime() - (length - 1) * 86_400_000).toISOString().slice(0, 10);
          const prev = comparisonWindow({ from, to }, 'previous_period');
          expect(prev).not.toBeNull();
          expect(rangeLength(prev!.from, prev!.to)).toBe(length);
          expect(prev!.to < from).toBe(true);
          expect(rangeLength(prev!.to, from)).toBe(2);
        },
      ),
    );
  });
});

describe('resolveDateRange', () => {
  it('resolves a custom range and refuses an incomplete or inverted one', () => {
    const spec = DateRangeSpecSchema.parse({
      preset: 'custom',
      from: '2026-02-10',
      to: '2026-02-16',
      compare: 'previous_period',
    });
    expect(resolveDateRange(spec, '2026-03-04')).toEqual({
      window: { from: '2026-02-10', to: '2026-02-16' },
      comparison: { from: '2026-02-03', to: '2026-02-09' },
    });
    expect(DateRangeSpecSchema.safeParse({ preset: 'custom', from: '2026-02-10' }).success).toBe(false);
    expect(
      DateRangeSpecSchema.safeParse({ preset: 'custom', from: '2026-02-10', to: '2026-02-01' }).success,
    ).toBe(false);
    expect(DateRangeSpecSchema.parse({ preset: 'last_7d' }).compare).toBe('none');
  });
});
