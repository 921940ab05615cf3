// Wording helpers for titles, descriptions, summaries and recommendations: amounts with their
// currency, percentages, and dates as an analyst reads them.
const moneyFormats = new Map<string, Intl.NumberFormat>();

export function money(micros: number, currency: string): string {
  let format = moneyFormats.get(currency);
  if (!format) {
    try {
      // The currency's own minor digits: two for USD, none for JPY.
      format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    } catch {
      format = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
    }
    moneyFormats.set(currency, format);
  }
  return format.format(micros / 1_000_000);
}

/** 0.234 → "23%"; keeps one decimal under 10%. */
export function percent(share: number): string {
  const value = Math.abs(share * 100);
  return `${value < 10 ? value.toFixed(1).replace(/\.0$/, '') : Math.round(value)}%`;
}

export function fixed(value: number, decimals = 2): string {
  return value.toFixed(decimals);
}

export function integer(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "2026-03-05" → "Mar 5". */
export function day(date: string): string {
  const month = MONTHS[Number(date.slice(5, 7)) - 1] ?? date.slice(5, 7);
  return `${month} ${Number(date.slice(8, 10))}`;
}

export function dayRange(from: string, to: string): string {
  return from === to ? day(from) : `${day(from)}–${day(to)}`;
}

export function quote(name: string): string {
  return `“${name}”`;
}
