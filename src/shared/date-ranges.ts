// Ads Manager date ranges, one rule for the renderer and the core: a preset (or a custom range) and
// "today" in the account's time zone give the dates; a comparison mode gives the period to compare
// with. Pure calendar arithmetic on YYYY-MM-DD strings (UTC dates, so no daylight-saving surprises).

export const DATE_PRESETS = [
  'today',
  'yesterday',
  'last_7d',
  'last_14d',
  'last_28d',
  'last_30d',
  'this_week',
  'last_week',
  'this_month',
  'last_month',
  'maximum',
] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

export const COMPARE_MODES = ['previous_period', 'same_period_last_year', 'none'] as const;
export type CompareMode = (typeof COMPARE_MODES)[number];

export const PRESET_LABELS: Record<DatePreset | 'custom', string> = {
  today: 'Today',
  yesterday: 'Yesterday',
  last_7d: 'Last 7 days',
  last_14d: 'Last 14 days',
  last_28d: 'Last 28 days',
  last_30d: 'Last 30 days',
  this_week: 'This week',
  last_week: 'Last week',
  this_month: 'This month',
  last_month: 'Last month',
  maximum: 'Maximum',
  custom: 'Custom',
};

export const COMPARE_LABELS: Record<CompareMode, string> = {
  previous_period: 'Previous period',
  same_period_last_year: 'Same period last year',
  none: 'No comparison',
};

/** Meta keeps 37 months of insights: the longest range a screen may ask for. */
export const MAX_SCREEN_RANGE_DAYS = 1131;

/** What a screen asks for: a preset or custom dates, and what to compare with (validated by ./date-range-schema). */
export interface DateRangeSpec {
  preset: DatePreset | 'custom';
  from?: string | undefined;
  to?: string | undefined;
  compare: CompareMode;
}

export interface DateWindow {
  from: string;
  to: string;
}

export interface RangeOptions {
  /** 1 = Monday (ISO, default), 0 = Sunday (Ads Manager in the US). */
  weekStartsOn?: 0 | 1;
  /** The first day with data, for "Maximum" (default: today). */
  firstDate?: string | undefined;
}

const DAY_MS = 86_400_000;

function parse(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

function format(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function shiftDays(date: string, days: number): string {
  return format(new Date(parse(date).getTime() + days * DAY_MS));
}

/** Inclusive number of days from `from` to `to`. */
export function rangeLength(from: string, to: string): number {
  return Math.round((parse(to).getTime() - parse(from).getTime()) / DAY_MS) + 1;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

function monthStart(date: string): string {
  return `${date.slice(0, 8)}01`;
}

function monthEnd(date: string): string {
  const d = parse(date);
  return format(
    new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), daysInMonth(d.getUTCFullYear(), d.getUTCMonth()))),
  );
}

function isMonthEnd(date: string): boolean {
  return monthEnd(date) === date;
}

/**
 * The dates of a preset when "today" (in the account's time zone) is `today`. As in Ads Manager,
 * "Last N days" ends yesterday (today's numbers are still moving), "This week/month" include today.
 */
export function presetWindow(preset: DatePreset, today: string, options: RangeOptions = {}): DateWindow {
  const yesterday = shiftDays(today, -1);
  const lastDays = (n: number): DateWindow => ({ from: shiftDays(today, -n), to: yesterday });
  const weekStartsOn = options.weekStartsOn ?? 1;
  const weekStart = shiftDays(today, -((parse(today).getUTCDay() - weekStartsOn + 7) % 7));
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday':
      return { from: yesterday, to: yesterday };
    case 'last_7d':
      return lastDays(7);
    case 'last_14d':
      return lastDays(14);
    case 'last_28d':
      return lastDays(28);
    case 'last_30d':
      return lastDays(30);
    case 'this_week':
      return { from: weekStart, to: today };
    case 'last_week':
      return { from: shiftDays(weekStart, -7), to: shiftDays(weekStart, -1) };
    case 'this_month':
      return { from: monthStart(today), to: today };
    case 'last_month': {
      const end = shiftDays(monthStart(today), -1);
      return { from: monthStart(end), to: end };
    }
    case 'maximum': {
      const first = options.firstDate && options.firstDate < today ? options.firstDate : today;
      const earliest = shiftDays(today, -(MAX_SCREEN_RANGE_DAYS - 1));
      return { from: first < earliest ? earliest : first, to: today };
    }
  }
}

/** The same calendar day a year earlier; 29 February becomes 28 February. */
export function oneYearEarlier(date: string): string {
  const d = parse(date);
  const year = d.getUTCFullYear() - 1;
  const month = d.getUTCMonth();
  const day = Math.min(d.getUTCDate(), daysInMonth(year, month));
  return format(new Date(Date.UTC(year, month, day)));
}

/**
 * The period to compare with: the previous period of equal length ending the day before `from`, or
 * the same dates a year earlier (a range ending on a month's last day ends on that month's last day:
 * February 2025 compares with the whole of February 2024, 29th included).
 */
export function comparisonWindow(window: DateWindow, mode: CompareMode): DateWindow | null {
  if (mode === 'none') return null;
  if (mode === 'previous_period') {
    const length = rangeLength(window.from, window.to);
    return { from: shiftDays(window.from, -length), to: shiftDays(window.from, -1) };
  }
  const from = oneYearEarlier(window.from);
  const to = isMonthEnd(window.to) ? monthEnd(oneYearEarlier(window.to)) : oneYearEarlier(window.to);
  return { from, to };
}

/** A spec's dates and comparison dates, `today` being the account's own. */
export function resolveDateRange(
  spec: DateRangeSpec,
  today: string,
  options: RangeOptions = {},
): { window: DateWindow; comparison: DateWindow | null } {
  const window =
    spec.preset === 'custom'
      ? { from: spec.from as string, to: spec.to as string }
      : presetWindow(spec.preset, today, options);
  return { window, comparison: comparisonWindow(window, spec.compare) };
}
