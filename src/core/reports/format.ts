// Number and date formatting shared by the Markdown and PDF renderers, so both print the same text,
// in the report's locale (Intl); amounts in the account's currency.
import type { ReportLocale } from '../../shared/api/reports';
import { translator } from '../../shared/report-i18n';

export const NOT_AVAILABLE = '–';

/** BCP 47 tags per report locale: English keeps day-month-year dates (en-GB) with en-US numbers. */
const TAGS: Record<ReportLocale, { numbers: string; dates: string }> = {
  en: { numbers: 'en-US', dates: 'en-GB' },
  ja: { numbers: 'ja-JP', dates: 'ja-JP' },
};

export interface ReportFormatter {
  money(value: number | null, currency: string): string;
  int(value: number): string;
  /** ROAS as a multiple: 3.20x. */
  roas(value: number | null): string;
  /** A percentage value (CTR is already ×100 in the insights). */
  percent(value: number | null): string;
  /** A signed change against the previous period: +12.5%, -3.0%, or "no comparison". */
  change(value: number | null): string;
  /** 2026-03-01 → 1 Mar 2026 (en), 2026年3月1日 (ja). */
  date(date: string): string;
  dateRange(range: { from: string; to: string }): string;
  /** An ISO timestamp: "1 Mar 2026, 14:05 UTC". */
  timestamp(iso: string): string;
  /** A short axis label for a date: 1 Mar (en), 3月1日 (ja). */
  shortDate(date: string): string;
}

const formatters = new Map<ReportLocale, ReportFormatter>();

export function reportFormatter(locale: ReportLocale): ReportFormatter {
  const cached = formatters.get(locale);
  if (cached) return cached;
  const tags = TAGS[locale];
  const moneyFormats = new Map<string, Intl.NumberFormat>();
  const moneyFormat = (currency: string): Intl.NumberFormat => {
    let format = moneyFormats.get(currency);
    if (!format) {
      try {
        format = new Intl.NumberFormat(tags.numbers, {
          style: 'currency',
          currency,
          currencyDisplay: 'symbol',
        });
      } catch {
        // An unknown currency code still prints as an amount.
        format = new Intl.NumberFormat(tags.numbers, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
      }
      moneyFormats.set(currency, format);
    }
    return format;
  };
  const intFormat = new Intl.NumberFormat(tags.numbers, { maximumFractionDigits: 0 });
  const dateFormat = new Intl.DateTimeFormat(tags.dates, {
    day: 'numeric',
    month: locale === 'ja' ? 'long' : 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const shortFormat = new Intl.DateTimeFormat(tags.dates, {
    day: 'numeric',
    month: locale === 'ja' ? 'long' : 'short',
    timeZone: 'UTC',
  });
  const t = translator(locale);
  const asDate = (date: string) => new Date(`${date}T00:00:00Z`);
  const formatter: ReportFormatter = {
    money: (value, currency) => (value === null ? NOT_AVAILABLE : moneyFormat(currency).format(value)),
    int: (value) => intFormat.format(value),
    roas: (value) => (value === null ? NOT_AVAILABLE : `${value.toFixed(2)}x`),
    percent: (value) => (value === null ? NOT_AVAILABLE : `${value.toFixed(2)}%`),
    change: (value) => {
      if (value === null) return t('noComparison');
      const sign = value > 0 ? '+' : value < 0 ? '-' : '±';
      return `${sign}${Math.abs(value).toFixed(1)}%`;
    },
    date: (date) => dateFormat.format(asDate(date)),
    dateRange: (range) => `${formatter.date(range.from)} – ${formatter.date(range.to)}`,
    timestamp: (iso) => {
      const d = new Date(iso);
      return `${formatter.date(d.toISOString().slice(0, 10))}, ${d.toISOString().slice(11, 16)} UTC`;
    },
    shortDate: (date) => shortFormat.format(asDate(date)),
  };
  formatters.set(locale, formatter);
  return formatter;
}

// English, for callers outside a report's own text.
const english = reportFormatter('en');
export const formatMoney = english.money;
export const formatInt = english.int;
export const formatRoas = english.roas;
export const formatPercent = english.percent;
export const formatChange = english.change;
export const formatDate = english.date;
export const formatDateRange = english.dateRange;
export const formatTimestamp = english.timestamp;
export const formatShortDate = english.shortDate;

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

/** Issue types as words: CREATIVE_FATIGUE → Creative fatigue. */
export function humanize(identifier: string): string {
  const words = identifier.toLowerCase().replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
