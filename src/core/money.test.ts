import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalToMicros, microsToAmount, microsToMinor, minorToMicros, ratio } from './money';

describe('money', () => {
  it('parses Graph decimal strings exactly', () => {
    expect(decimalToMicros('5339.5')).toBe(5_339_500_000);
    expect(decimalToMicros('0.000001')).toBe(1);
    expect(decimalToMicros('100')).toBe(100_000_000);
    expect(decimalToMicros('1.0000005')).toBe(1_000_001);
    expect(() => decimalToMicros('1e5')).toThrow(RangeError);
    expect(() => decimalToMicros('')).toThrow(RangeError);
  });

  it('round-trips any cent amount through a decimal string', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (cents) => {
        const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
        expect(decimalToMicros(text)).toBe(cents * 10_000);
        expect(microsToAmount(decimalToMicros(text))).toBe(cents / 100);
      }),
    );
  });

  it('sums of micros are exact where sums of floats are not', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 99_999_999 }), { maxLength: 200 }), (cents) => {
        const micros = cents.reduce((sum, c) => sum + decimalToMicros((c / 100).toFixed(2)), 0);
        expect(micros).toBe(cents.reduce((sum, c) => sum + c, 0) * 10_000);
      }),
    );
  });

  it('converts minor-unit budgets by currency (JPY has no minor unit)', () => {
    expect(minorToMicros('2000', 'USD')).toBe(20_000_000);
    expect(minorToMicros('2000', 'JPY')).toBe(2_000_000_000);
    expect(microsToMinor(20_000_000, 'EUR')).toBe(2000);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e9 }),
        fc.constantFrom('USD', 'EUR', 'JPY', 'KRW', 'GBP'),
        (minor, cur) => {
          expect(microsToMinor(minorToMicros(minor, cur), cur)).toBe(minor);
        },
      ),
    );
  });

  it('gives null for a zero denominator, never Infinity or NaN', () => {
    expect(ratio(5, 0)).toBeNull();
    expect(ratio(0, 0)).toBeNull();
    expect(ratio(1, 3)).toBe(0.3333);
    fc.assert(
      fc.property(fc.integer(), fc.integer(), (a, b) => {
        const r = ratio(a, b);
        expect(r === null || Number.isFinite(r)).toBe(true);
      }),
    );
  });
});
