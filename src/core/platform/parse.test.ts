import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { budgetMicros, graphTimeToIso, insightMetrics, insightRowSchema, pickAction } from './parse';
import type { ResultType } from './results';

const result = (type: ResultType) => ({ type, detail: null });

const row = (extra: Record<string, unknown>) =>
  insightRowSchema.parse({ date_start: '2026-02-01', date_stop: '2026-02-01', ...extra });

describe('money and action parsing', () => {
  it('reads insight spend as a major-unit decimal and budgets as minor units per currency', () => {
    expect(insightMetrics(row({ spend: '100.50' }), null).spendMicros).toBe(100_500_000);
    expect(insightMetrics(row({ spend: '5339.5' }), null).spendMicros).toBe(5_339_500_000);
    expect(budgetMicros('2000', 'USD')).toBe(20_000_000);
    // JPY has no minor unit: "5000" is ¥5,000, not ¥50.
    expect(budgetMicros('5000', 'JPY')).toBe(5_000_000_000);
    expect(budgetMicros('0', 'USD')).toBeNull();
    expect(budgetMicros(undefined, 'USD')).toBeNull();
  });

  it('counts one purchase alias, never their sum, preferring omni_purchase', () => {
    const metrics = insightMetrics(
      row({
        actions: [
          { action_type: 'link_click', value: '180' },
          { action_type: 'offsite_conversion.fb_pixel_purchase', value: '19' },
          { action_type: 'purchase', value: '20' },
          { action_type: 'omni_purchase', value: '21' },
        ],
        action_values: [
          { action_type: 'purchase', value: '1500.00' },
          { action_type: 'omni_purchase', value: '1510.25' },
        ],
      }),
      result('PURCHASE'),
    );
    expect(metrics.conversions).toBe(21);
    expect(metrics.revenueMicros).toBe(1_510_250_000);
  });

  it('falls back to the aggregated, then the channel-specific alias', () => {
    expect(
      pickAction([{ action_type: 'offsite_conversion.fb_pixel_purchase', value: '7' }], result('PURCHASE')),
    ).toBe('7');
    expect(
      pickAction(
        [
          { action_type: 'offsite_conversion.fb_pixel_purchase', value: '7' },
          { action_type: 'purchase', value: '8' },
        ],
        result('PURCHASE'),
      ),
    ).toBe('8');
    expect(pickAction([{ action_type: 'lead', value: '4' }], result('LEAD'))).toBe('4');
    // An unknown result counts nothing, rather than guessing purchases or leads.
    expect(pickAction([{ action_type: 'lead', value: '4' }], null)).toBeUndefined();
    expect(pickAction([{ action_type: 'link_click', value: '4' }], result('PURCHASE'))).toBeUndefined();
  });

  it('treats omitted metrics as zero and numbers sent as strings or numbers alike', () => {
    const metrics = insightMetrics(
      row({ impressions: 1000, clicks: '25', reach: '800', frequency: '1.25' }),
      null,
    );
    expect(metrics).toMatchObject({
      spendMicros: 0,
      impressions: 1000,
      clicks: 25,
      reach: 800,
      frequency: 1.25,
    });
    expect(metrics.conversions).toBe(0);
  });

  it('never sums aliases, whatever their values (property)', () => {
    const aliases = ['omni_purchase', 'purchase', 'offsite_conversion.fb_pixel_purchase'];
    fc.assert(
      fc.property(
        fc.subarray(aliases, { minLength: 1 }),
        fc.array(fc.nat(10_000), { minLength: 3, maxLength: 3 }),
        (present, values) => {
          const stats = present.map((type) => ({
            action_type: type,
            value: String(values[aliases.indexOf(type)]),
          }));
          const chosen = Number(pickAction(stats, result('PURCHASE')));
          const best = aliases.find((a) => present.includes(a))!;
          expect(chosen).toBe(values[aliases.indexOf(best)]);
        },
      ),
    );
  });

  it('reads Graph datetimes with colon-less offsets', () => {
    expect(graphTimeToIso('2026-01-05T09:00:00-0800')).toBe('2026-01-05T17:00:00.000Z');
    expect(graphTimeToIso(undefined)).toBeNull();
  });
});
