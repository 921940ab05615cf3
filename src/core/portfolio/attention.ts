// The portfolio's rules, pure: the month's pace against the daily budgets, when a spend cap runs out,
// and the attention score that orders the accounts (docs/portfolio.md).
import { addDays, daysBetween, daysInMonthOf } from '../clock';
import type { Pace } from '../../shared/api/portfolio';

/** Within ±15% of the budgets of the days elapsed is on track (Meta evens daily spend out over a week). */
export const PACE_TOLERANCE = 0.15;

export interface Month {
  from: string;
  to: string;
  daysInMonth: number;
}

/** The calendar month of `today` up to today (dates are the account's own). */
export function monthOf(today: string): Month {
  const from = `${today.slice(0, 8)}01`;
  return {
    from,
    to: today,
    daysInMonth: daysInMonthOf(Number(today.slice(0, 4)), Number(today.slice(5, 7))),
  };
}

/**
 * Spend through yesterday against the daily budgets of the whole days elapsed. Today is left out: it
 * is not over, so its spend would always read "behind". Unknown on the 1st and without budgets.
 */
export function paceOf(
  spendThroughYesterdayMicros: number,
  dailyBudgetMicros: number,
  month: Month,
): { ratio: number | null; pace: Pace } {
  const elapsed = daysBetween(month.from, month.to) - 1;
  if (dailyBudgetMicros <= 0 || elapsed <= 0) return { ratio: null, pace: 'unknown' };
  const ratio = Math.round((spendThroughYesterdayMicros / (dailyBudgetMicros * elapsed)) * 1000) / 1000;
  const pace: Pace =
    ratio < 1 - PACE_TOLERANCE ? 'behind' : ratio > 1 + PACE_TOLERANCE ? 'ahead' : 'on_track';
  return { ratio, pace };
}

/** The day the cap's remainder is spent at the month's average daily spend, if before the month ends. */
export function capRunsOutOn(
  remainingMicros: number,
  spendThisMonthMicros: number,
  month: Month,
): string | null {
  const days = daysBetween(month.from, month.to);
  const perDay = spendThisMonthMicros / days;
  if (remainingMicros <= 0) return month.to;
  if (perDay <= 0) return null;
  const lastDay = addDays(month.from, month.daysInMonth - 1);
  const runsOut = addDays(month.to, Math.ceil(remainingMicros / perDay));
  return runsOut <= lastDay ? runsOut : null;
}

export interface AttentionFacts {
  blocked: string | null;
  critical: number;
  high: number;
  /** Money at risk as a share (0-1) of the account's last 7 days of spend. */
  riskShare: number;
  pace: Pace;
  capRunsOut: boolean;
  tokenWarning: boolean;
  syncFailed: boolean;
}

/**
 * The attention score, in tiers that never overtake the one above: blocked or expired (10,000), then
 * critical issues (1,000 each, up to 9), then the share of spend at risk (up to 900), then high issues
 * (20 each, up to 5), pace off plan or a cap running out this month (50, not for a blocked account),
 * and a token expiring or a failed sync (20 each).
 */
export function attentionOf(f: AttentionFacts): { score: number; reasons: string[] } {
  const reasons: string[] = [];
  let score = 0;
  if (f.blocked) {
    score += 10_000;
    reasons.push(f.blocked);
  }
  if (f.critical > 0) {
    score += 1000 * Math.min(f.critical, 9);
    reasons.push(`${f.critical} critical issue${f.critical === 1 ? '' : 's'}`);
  }
  if (f.riskShare > 0) {
    score += Math.round(Math.min(1, f.riskShare) * 900);
    reasons.push(`${Math.round(Math.min(1, f.riskShare) * 100)}% of last week's spend at risk`);
  }
  if (f.high > 0) {
    score += 20 * Math.min(f.high, 5);
    reasons.push(`${f.high} high issue${f.high === 1 ? '' : 's'}`);
  }
  // A blocked account's pace only repeats its blocker.
  if (!f.blocked && (f.pace === 'behind' || f.pace === 'ahead' || f.capRunsOut)) {
    score += 50;
    if (f.pace === 'behind') reasons.push('spending behind budget');
    if (f.pace === 'ahead') reasons.push('spending ahead of budget');
    if (f.capRunsOut) reasons.push('spend cap runs out this month');
  }
  if (f.tokenWarning) {
    score += 20;
    reasons.push('token expires soon');
  }
  if (f.syncFailed) {
    score += 20;
    reasons.push('last sync failed');
  }
  return { score, reasons };
}
