// PACING_ISSUE: average daily spend over the recent week far from the daily budget. Meta may spend up
// to 75% over on one day but at most 7× the daily budget in a week, so a weekly average well above
// 1× is abnormal, and one far below it means the budget is not being delivered.
import { daysBetween } from '../../clock';
import { dateRange } from '../../clock';
import { budgetOn } from '../budget-history';
import { atLeast, atMost, dailySeries, evidenceTrend, sumRange, windowDays } from '../series';
import { day, money, percent, quote } from '../format';
import type { DayRow, Finding } from '../types';
import { campaignEntity, dayOf, isActive, type DetectorContext } from './context';

interface Budgeted {
  entity: Finding['affectedEntity'];
  /** Ad set whose budget it is (null: the campaign's), to read its budget changes. */
  adSetId: string | null;
  /** Budget changes apply to daily budgets only (a lifetime budget's change is not a daily amount). */
  hasDailyBudget: boolean;
  dailyBudget: number;
  daily: Map<string, DayRow>;
  since: string | null;
}

/** Daily equivalent of a lifetime budget spread over its schedule (null when the schedule is unknown). */
function lifetimeDaily(lifetime: number | null, start: string | null, stop: string | null): number | null {
  if (lifetime === null || !start || !stop) return null;
  const days = daysBetween(start.slice(0, 10), stop.slice(0, 10));
  return days > 0 ? lifetime / days : null;
}

export function detectPacingIssue(ctx: DetectorContext): Finding[] {
  const { data, windows, th } = ctx;
  if (!isActive(data)) return [];
  const budgeted: Budgeted[] = [];
  const campaignBudget =
    data.dailyBudget ?? lifetimeDaily(data.lifetimeBudget, data.startTime, data.stopTime);
  if (campaignBudget !== null) {
    // Campaign budget (CBO): Meta moves money between ad sets, so only the campaign total is judged.
    budgeted.push({
      entity: campaignEntity(data),
      adSetId: null,
      hasDailyBudget: data.dailyBudget !== null,
      dailyBudget: campaignBudget,
      daily: data.daily,
      since: dayOf(data.startTime),
    });
  } else {
    for (const s of data.adSets) {
      if (!isActive(s) || s.dailyBudget === null) continue;
      budgeted.push({
        entity: { type: 'adSet', id: s.id, name: s.name },
        adSetId: s.id,
        hasDailyBudget: true,
        dailyBudget: s.dailyBudget,
        daily: s.daily,
        since: dayOf(s.lastSignificantEditAt) ?? dayOf(s.createdTime),
      });
    }
  }
  const findings: Finding[] = [];
  for (const b of budgeted) {
    // A budget that started (or was edited) inside the window has no week of its own to judge yet.
    const days = windowDays(windows.complete);
    if (days < 3) continue;
    if (b.since !== null && b.since > windows.complete.from) continue;
    const recent = sumRange(b.daily, windows.complete.from, windows.complete.to);
    // Each day is judged against the budget in force that day (the change history), so a budget
    // raised two days ago does not make the days before it look under-spent. Over-spending is judged
    // against the larger of that and today's budget: a later raise accepts the extra spend (the advice
    // would be to cap today's budget), and delivering above a budget since cut is not over-spending now.
    const inForce = dateRange(windows.complete.from, windows.complete.to).map((date) =>
      budgetOn(b.hasDailyBudget ? data.changes : [], b.adSetId, b.dailyBudget, date, data.currency),
    );
    const expectedUnder = inForce.reduce((sum, v) => sum + v, 0);
    const expectedOver = inForce.reduce((sum, v) => sum + Math.max(v, b.dailyBudget), 0);
    if (Math.max(recent.spend, expectedUnder) < ctx.minSpend) continue;
    const avgDailySpend = recent.spend / days;
    const under = atMost(recent.spend / expectedUnder, 1 - th.pacingUnder);
    const over = atLeast(recent.spend / expectedOver, 1 + th.pacingOver);
    if (!under && !over) continue;
    const expected = over ? expectedOver : expectedUnder;
    const budgetInForce = expected / days;
    const pacingRate = avgDailySpend / budgetInForce;
    const direction = over ? 'OVER' : 'UNDER';
    const severity = over
      ? pacingRate >= 1 + 2.5 * th.pacingOver
        ? 'CRITICAL'
        : pacingRate >= 1 + 1.5 * th.pacingOver
          ? 'HIGH'
          : 'MEDIUM'
      : pacingRate <= 1 - 1.5 * th.pacingUnder
        ? 'HIGH'
        : 'MEDIUM';
    const gap = Math.abs(recent.spend - expected);
    findings.push({
      type: 'PACING_ISSUE',
      severity,
      title: over
        ? `${quote(b.entity.name)} is overspending its daily budget`
        : `${quote(b.entity.name)} is underspending its daily budget`,
      description:
        `In ${day(windows.complete.from)}–${day(windows.complete.to)} ${quote(b.entity.name)} spent ${money(avgDailySpend, data.currency)} a day ` +
        `against a daily budget of ${money(budgetInForce, data.currency)}${budgetInForce !== b.dailyBudget ? ` on average over those days (${money(b.dailyBudget, data.currency)} now)` : ''} (${percent(pacingRate)} of budget); ` +
        `${money(gap, data.currency)} ${over ? 'more' : 'less'} than budgeted over ${days} days.`,
      affectedEntity: b.entity,
      evidence: {
        direction,
        dailyBudget: Math.round(budgetInForce / 10_000) / 100,
        avgDailySpend: Math.round(avgDailySpend / 10_000) / 100,
        pacingRate: Math.round(pacingRate * 10_000) / 10_000,
        spendTrend: evidenceTrend(
          dailySeries(b.daily, windows.rangeDays, (r) => r.spend / 1_000_000),
          2,
        ),
      },
      spendAtRisk: over ? sumRange(b.daily, ctx.window.from, ctx.window.to).spend : expected,
      magnitude: over ? (pacingRate - 1) / th.pacingOver : (1 - pacingRate) / th.pacingUnder,
      facts: {
        entityType: b.entity.type,
        entityId: b.entity.id,
        entityName: b.entity.name,
        dailyBudget: budgetInForce,
        avgDailySpend,
        pacingRate,
        weeklyGap: (gap / days) * 7,
      },
      campaignId: data.id,
      campaignName: data.name,
    });
  }
  return findings;
}
