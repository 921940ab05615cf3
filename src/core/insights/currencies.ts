// Money across currencies: never added as it is, only after conversion at the agency's own rates.
// Conversion is exact integer arithmetic on micros (BigInt), rounded half away from zero once.
import type { ReportingCurrency } from '../../shared/api/reporting-currency';
import type { RawTotals } from './metrics';

/** Converts micros of one currency into micros of the reporting currency. */
export type MicrosConverter = (micros: number) => number;

export function converterOf(rate: string): MicrosConverter {
  const [whole = '0', fraction = ''] = rate.split('.');
  const numerator = BigInt(`${whole}${fraction}`);
  const scale = 10n ** BigInt(fraction.length);
  return (micros) => {
    const magnitude = BigInt(Math.abs(micros)) * numerator;
    const rounded = (magnitude * 2n + scale) / (2n * scale);
    return Number(micros < 0 ? -rounded : rounded);
  };
}

/**
 * The converter of each currency into the reporting one (the reporting currency itself: identity),
 * or null when no reporting currency is set or one of `currencies` has no rate.
 */
export function convertersFor(
  reporting: ReportingCurrency | null,
  currencies: readonly string[],
): Map<string, MicrosConverter> | null {
  if (!reporting) return null;
  const out = new Map<string, MicrosConverter>();
  for (const currency of currencies) {
    if (currency === reporting.currency) out.set(currency, (micros) => micros);
    else {
      const rate = reporting.rates[currency];
      if (rate === undefined) return null;
      out.set(currency, converterOf(rate));
    }
  }
  return out;
}

export function convertTotals<T extends RawTotals>(row: T, convert: MicrosConverter): T {
  return { ...row, spendMicros: convert(row.spendMicros), revenueMicros: convert(row.revenueMicros) };
}
