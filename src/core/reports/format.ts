// Number and date formatting shared by the Markdown and PDF renderers, so both print the same text.
// English (en-US) formatting throughout; amounts in the account's currency.

const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat(currency: string): Intl.NumberFormat {
  let format = moneyFormats.get(currency);
  if (!format) {
    try {
      format = new Intl.NumberFormat('en-US', { style: 'currency', currency, currencyDisplay: 'symbol' });
    } catch {
      // An unknown currency code still prints as an amount with the code in front.
      format = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
    moneyFormats.set(currency, format);
  }
  return format;
}

export const NOT_AVAILABLE = '–';

export function formatMoney(value: number | null, currency: string): string {
  if (value === null) return NOT_AVAILABLE;
  return moneyFormat(currency).format(value);
}

const intFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatInt(value: number): string {
  return intFormat.format(value);
}

/** ROAS as a multiple: 3.2x. */
export function formatRoas(value: number | null): string {
  return value === null ? NOT_AVAILABLE : `${value.toFixed(2)}x`;
}

/** A percentage value (CTR is already ×100 in the insights). */
export function formatPercent(value: number | null): string {
  return value === null ? NOT_AVAILABLE : `${value.toFixed(2)}%`;
}

/** A signed change against the previous period: +12.5%, -3.0%, or "no comparison". */
export function formatChange(value: number | null): string {
  if (value === null) return 'no comparison';
  const sign = value > 0 ? '+' : value < 0 ? '-' : '±';
  return `${sign}${Math.abs(value).toFixed(1)}%`;
}

export type ChangeTone = 'good' | 'bad' | 'neutral';

/** Whether a change is good news: CPA up is bad, ROAS and conversions up are good, spend is neutral. */
export function changeTone(
  metric: 'spend' | 'conversions' | 'cpa' | 'roas',
  value: number | null,
): ChangeTone {
  if (value === null || value === 0 || metric === 'spend') return 'neutral';
  const up = value > 0;
  if (metric === 'cpa') return up ? 'bad' : 'good';
  return up ? 'good' : 'bad';
}

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** 2026-03-01 → 1 Mar 2026. */
export function formatDate(date: string): string {
  return dateFormat.format(new Date(`${date}T00:00:00Z`));
}

export function formatDateRange(range: { from: string; to: string }): string {
  return `${formatDate(range.from)} – ${formatDate(range.to)}`;
}

/** An ISO timestamp as "1 Mar 2026, 14:05 UTC". */
export function formatTimestamp(iso: string): string {
  const d = new Date(iso);
  const time = d.toISOString().slice(11, 16);
  return `${formatDate(d.toISOString().slice(0, 10))}, ${time} UTC`;
}

/** A short axis label for a date: 1 Mar. */
export function formatShortDate(date: string): string {
  return formatDate(date).replace(/ \d{4}$/, '');
}

/** Issue types as words: CREATIVE_FATIGUE → Creative fatigue. */
export function humanize(identifier: string): string {
  const words = identifier.toLowerCase().replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
