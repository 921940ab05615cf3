// Small, allocation-light helpers over daily rows keyed by date.
import { addDays, dateRange } from '../clock';
import { MICROS_PER_UNIT } from '../money';
import type { Thresholds } from './thresholds';
import type { DayRow, Window } from './types';

export interface Totals {
  spend: number;
  impressions: number;
  clicks: number;
  linkClicks: number;
  conversions: number;
  revenue: number;
  reach: number;
  /** Days with any delivery. */
  days: number;
}

export function emptyTotals(): Totals {
  return {
    spend: 0,
    impressions: 0,
    clicks: 0,
    linkClicks: 0,
    conversions: 0,
    revenue: 0,
    reach: 0,
    days: 0,
  };
}

/** Sums rows whose date lies in [from, to]. Reach is summed as daily reach (a proxy, never shown as reach). */
export function sumRange(daily: Map<string, DayRow>, from: string, to: string): Totals {
  const t = emptyTotals();
  for (const row of daily.values()) {
    if (row.date < from || row.date > to) continue;
    t.spend += row.spend;
    t.impressions += row.impressions;
    t.clicks += row.clicks;
    t.linkClicks += row.linkClicks;
    t.conversions += row.conversions;
    t.revenue += row.revenue;
    t.reach += row.reach;
    if (row.impressions > 0 || row.spend > 0) t.days += 1;
  }
  return t;
}

export function addTotals(a: Totals, b: Totals): Totals {
  return {
    spend: a.spend + b.spend,
    impressions: a.impressions + b.impressions,
    clicks: a.clicks + b.clicks,
    linkClicks: a.linkClicks + b.linkClicks,
    conversions: a.conversions + b.conversions,
    revenue: a.revenue + b.revenue,
    reach: a.reach + b.reach,
    days: Math.max(a.days, b.days),
  };
}

export const ctrOf = (t: Totals): number | null => (t.impressions > 0 ? t.clicks / t.impressions : null);
export const cpmOf = (t: Totals): number | null =>
  t.impressions > 0 ? (t.spend / t.impressions) * 1000 : null;
export const cprOf = (t: Totals): number | null => (t.conversions > 0 ? t.spend / t.conversions : null);
/** Impression-weighted daily frequency = impressions / summed daily reach. */
export const frequencyOf = (t: Totals): number | null => (t.reach > 0 ? t.impressions / t.reach : null);

/**
 * The windows every detector compares. The recent window is the last days of the requested range;
 * the reference window is the baseline before the range, so a diagnostic answers "what changed in
 * this range compared with before it". Windows are clamped to the range.
 */
export interface Windows {
  range: { from: string; to: string };
  recent: { from: string; to: string };
  /** The last complete days (the range's last day may be today, which is partial): spend pacing. */
  complete: { from: string; to: string };
  reference: { from: string; to: string };
  /** Shifted back by the conversion lag: cost-per-result comparisons. */
  recentCpr: { from: string; to: string };
  referenceCpr: { from: string; to: string };
  rangeDays: string[];
}

const later = (a: string, b: string): string => (a > b ? a : b);

export function windowsFor(window: Window, th: Thresholds): Windows {
  const reference = { from: addDays(window.from, -th.baselineDays), to: addDays(window.from, -1) };
  const recentCprTo = addDays(window.to, -th.conversionLagDays);
  return {
    range: { from: window.from, to: window.to },
    recent: { from: later(window.from, addDays(window.to, -(th.recentDays - 1))), to: window.to },
    complete: { from: later(window.from, addDays(window.to, -th.recentDays)), to: addDays(window.to, -1) },
    reference,
    recentCpr: { from: later(window.from, addDays(recentCprTo, -(th.recentDays - 1))), to: recentCprTo },
    referenceCpr: reference,
    rangeDays: dateRange(window.from, window.to),
  };
}

/** The load window for a requested range: the baseline days before it. */
export function loadFromFor(from: string, _to: string, th: Thresholds): string {
  return addDays(from, -th.baselineDays);
}

/** Days in a window (0 when it is empty). */
export function windowDays(w: { from: string; to: string }): number {
  return w.to < w.from ? 0 : dateRange(w.from, w.to).length;
}

/**
 * One-sided Poisson z-score of seeing `observed` events where the reference rate predicts `expected`
 * (positive = fewer than expected). Used so that a rise in cost per result, or a CTR drop, on a small
 * count is not taken for a change: "beyond chance", as Variafy puts it.
 */
export function shortfallZ(observed: number, expected: number): number {
  return expected > 0 ? (expected - observed) / Math.sqrt(expected) : 0;
}

/** A per-day series over the range (null where the metric has no denominator that day). */
export function dailySeries(
  daily: Map<string, DayRow>,
  days: readonly string[],
  metric: (row: DayRow) => number | null,
): (number | null)[] {
  return days.map((date) => {
    const row = daily.get(date);
    return row ? metric(row) : null;
  });
}

/** Evidence arrays are plain numbers: days without delivery are dropped, values rounded. */
export function evidenceTrend(values: readonly (number | null)[], decimals: number): number[] {
  const scale = 10 ** decimals;
  const out: number[] = [];
  for (const value of values)
    if (value !== null && Number.isFinite(value)) out.push(Math.round(value * scale) / scale);
  return out;
}

export const toAmount = (micros: number): number => Math.round(micros / 10_000) / 100;
export const unitsToMicros = (units: number): number => units * MICROS_PER_UNIT;
export const round = (value: number, decimals = 4): number =>
  Math.round(value * 10 ** decimals) / 10 ** decimals;
export const pct = (share: number): string => `${Math.round(share * 100)}%`;

/** Merges daily maps (ad set rows into a campaign view when campaign rows are absent, etc.). */
export function mergeDaily(maps: Iterable<Map<string, DayRow>>): Map<string, DayRow> {
  const out = new Map<string, DayRow>();
  for (const map of maps) {
    for (const row of map.values()) {
      const acc = out.get(row.date);
      if (!acc) out.set(row.date, { ...row });
      else {
        acc.spend += row.spend;
        acc.impressions += row.impressions;
        acc.clicks += row.clicks;
        acc.linkClicks += row.linkClicks;
        acc.conversions += row.conversions;
        acc.revenue += row.revenue;
        acc.reach += row.reach;
        acc.frequency = acc.reach > 0 ? acc.impressions / acc.reach : 0;
      }
    }
  }
  return out;
}

/** Threshold comparisons tolerate float noise: 1.15 / 1 - 1 is 0.1499…, which meets a 0.15 bar. */
export const EPSILON = 1e-9;
export const atLeast = (value: number, threshold: number): boolean => value >= threshold - EPSILON;
export const atMost = (value: number, threshold: number): boolean => value <= threshold + EPSILON;
