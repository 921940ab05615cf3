// How numbers read on screen: money in the account's currency, rates with sensible decimals, dates
// as analysts write them. Missing values (null ratios) show as an en dash, never as 0 or NaN.
const DASH = '–';
const moneyFormats = new Map<string, Intl.NumberFormat>();

/** Money with the currency's own minor units (JPY has none); `decimals` caps them (0 for axes). */
export function money(value: number | null | undefined, currency = 'USD', decimals?: number): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  const key = `${currency}:${decimals ?? 'default'}`;
  let format = moneyFormats.get(key);
  if (!format) {
    const natural =
      new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2;
    const digits = Math.min(natural, decimals ?? natural);
    format = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    moneyFormats.set(key, format);
  }
  return format.format(value);
}

const integerFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
export const integer = (value: number | null | undefined): string =>
  value === null || value === undefined ? DASH : integerFormat.format(value);

const compactFormat = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
export const compact = (value: number): string => compactFormat.format(value);

export const ratio = (value: number | null | undefined, decimals = 2): string =>
  value === null || value === undefined ? DASH : `${value.toFixed(decimals)}×`;

export const percent = (value: number | null | undefined, decimals = 2): string =>
  value === null || value === undefined ? DASH : `${value.toFixed(decimals)}%`;

// Formatters are built once: toLocale*String builds a new Intl.DateTimeFormat on every call, which
// costs far more than formatting (a table of 50 accounts or a 120-tick axis asks hundreds of times).
// Calendar dates (YYYY-MM-DD, already in the account's time zone) are formatted as UTC days.
const dayFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const shortDayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const dateTimeFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});

export function date(value: string | null | undefined): string {
  if (!value) return DASH;
  return dayFormat.format(new Date(value.length === 10 ? `${value}T00:00:00Z` : value));
}

export const shortDate = (value: string): string => shortDayFormat.format(new Date(`${value}T00:00:00Z`));

export function dateTime(value: string | null | undefined): string {
  if (!value) return DASH;
  return dateTimeFormat.format(new Date(value));
}

export function relative(value: string | null | undefined, now = Date.now()): string {
  if (!value) return 'never';
  const seconds = Math.round((now - Date.parse(value)) / 1000);
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86_400)} d ago`;
}

/** A time to come, relative to now ("in 25 min"); "not scheduled" when there is none. */
export function upcoming(value: string | null | undefined, now = Date.now()): string {
  if (!value) return 'not scheduled';
  const seconds = Math.round((Date.parse(value) - now) / 1000);
  if (seconds < 60) return 'due now';
  if (seconds < 3600) return `in ${Math.ceil(seconds / 60)} min`;
  if (seconds < 86_400) return `in ${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
  return `in ${Math.floor(seconds / 86_400)} d`;
}

export const titleCase = (value: string): string =>
  value
    .toLowerCase()
    .split('_')
    .map((w) => (w ? w[0]?.toUpperCase() + w.slice(1) : w))
    .join(' ');

/** Short money for chart axes: $1.2M, ¥350K. */
const compactMoneyFormats = new Map<string, Intl.NumberFormat>();
export function compactMoney(value: number, currency = 'USD'): string {
  let format = compactMoneyFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      notation: 'compact',
      maximumFractionDigits: 1,
    });
    compactMoneyFormats.set(currency, format);
  }
  return format.format(value);
}
