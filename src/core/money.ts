// Money is stored as integer micro-units (× 1,000,000). The Graph API sends insight amounts as
// major-unit decimal strings and budgets as minor-unit integer strings; both convert exactly here.

export const MICROS_PER_UNIT = 1_000_000;

/** Currencies without minor units (Meta's offset 1): their minor unit is the major unit. */
const ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'COP',
  'CRC',
  'HUF',
  'ISK',
  'IDR',
  'JPY',
  'KRW',
  'PYG',
  'TWD',
  'VND',
  'UGX',
  'XAF',
  'XOF',
]);

export function minorUnitsPerMajor(currency: string): number {
  return ZERO_DECIMAL.has(currency.toUpperCase()) ? 1 : 100;
}

/** "5339.5" → 5339500000. Exact for up to 6 decimals; more are rounded half away from zero. */
export function decimalToMicros(value: string | number): number {
  const text = typeof value === 'number' ? value.toString() : value.trim();
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new RangeError(`not a decimal amount: ${JSON.stringify(value)}`);
  const [, sign, whole = '0', fraction = ''] = match;
  const padded = (fraction + '0000000').slice(0, 7);
  let micros = Number(whole) * MICROS_PER_UNIT + Math.floor(Number(padded) / 10);
  if (Number(padded[6]) >= 5) micros += 1;
  return sign === '-' ? -micros : micros;
}

/** A budget in the currency's minor unit ("2000" USD = 20.00) → micro-units. */
export function minorToMicros(value: string | number, currency: string): number {
  const minor = typeof value === 'number' ? value : Number.parseInt(value, 10);
  if (!Number.isFinite(minor)) throw new RangeError(`not a minor-unit amount: ${JSON.stringify(value)}`);
  return (minor * MICROS_PER_UNIT) / minorUnitsPerMajor(currency);
}

/** Micro-units → minor units as the Graph API writes budgets. */
export function microsToMinor(micros: number, currency: string): number {
  return Math.round((micros * minorUnitsPerMajor(currency)) / MICROS_PER_UNIT);
}

/** Micro-units → a major-unit amount rounded to 2 decimals, as the API shows money. */
export function microsToAmount(micros: number): number {
  return Math.round(micros / 10_000) / 100;
}

/** Rounds a ratio for the API (4 decimals); a zero or missing denominator gives null, never Infinity. */
export function ratio(numerator: number, denominator: number, scale = 1): number | null {
  if (!denominator) return null;
  return Math.round((numerator / denominator) * scale * 10_000) / 10_000;
}
