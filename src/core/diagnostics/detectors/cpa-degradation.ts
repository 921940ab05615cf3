// CPA_DEGRADATION: the recent cost per result (leaving out the latest days, whose conversions are still
// arriving) well above the target: the cost cap, else the analyst's target, else the campaign's own
// baseline. Ad sets still learning, and ad sets whose rise another finding already explains, are left
// out, so the issue names a degradation nothing else accounts for.
import { addDays, dateRange } from '../../clock';
import { atLeast, cprOf, dailySeries, evidenceTrend, mergeDaily, shortfallZ, sumRange } from '../series';
import { day, money, percent, quote } from '../format';
import type { AdSetData, CampaignData, DayRow, Finding } from '../types';
import { campaignEntity, dayOf, isJudgeable, type DetectorContext } from './context';

export type TargetSource = 'cost_cap' | 'analyst_target' | 'baseline';

/** The cost cap a campaign bids with: ad-set bid amounts weighted by spend (null without a cap). */
export function costCapOf(data: CampaignData, from: string, to: string): number | null {
  let weighted = 0;
  let weight = 0;
  for (const s of data.adSets) {
    const strategy = s.bidStrategy ?? data.bidStrategy;
    if (strategy !== 'COST_CAP' || s.bidAmount === null) continue;
    const spend = sumRange(s.daily, from, to).spend || 1;
    weighted += s.bidAmount * spend;
    weight += spend;
  }
  return weight > 0 ? weighted / weight : null;
}

/**
 * Variance-to-mean ratio of results around what the baseline cost per result predicts (≥ 1), over
 * every run of `days` consecutive baseline days. Measured at the length of the run it judges: costs
 * drift for days at a time, so a few days' sum varies more than daily noise alone would say.
 */
function dispersionOf(
  daily: Map<string, DayRow>,
  w: { from: string; to: string },
  cpr: number,
  days = 1,
): number {
  const dates = dateRange(w.from, w.to);
  const spend = dates.map((d) => daily.get(d)?.spend ?? 0);
  const results = dates.map((d) => daily.get(d)?.conversions ?? 0);
  let sum = 0;
  let n = 0;
  for (let i = 0; i + days <= dates.length; i++) {
    let s = 0;
    let r = 0;
    for (let j = i; j < i + days; j++) {
      s += spend[j] ?? 0;
      r += results[j] ?? 0;
    }
    const expected = s / cpr;
    if (expected <= 0) continue;
    sum += (r - expected) ** 2 / expected;
    n += 1;
  }
  return n > 1 ? Math.max(1, sum / (n - 1)) : 1;
}

/**
 * The days with their spend weighted by the day of week's results per unit of spend in the baseline
 * (shrunk toward the baseline's overall rate by minConversions pseudo-results): a run shorter than a
 * week holds more of some weekdays than others, and results per spend differ by weekday on most
 * accounts, so a Monday-to-Friday run is compared with what those weekdays bought before.
 */
function weekdayWeighted(
  daily: Map<string, DayRow>,
  w: { from: string; to: string },
  pseudoResults: number,
): Map<string, DayRow> {
  const weekday = (date: string): number => new Date(`${date}T00:00:00Z`).getUTCDay();
  const spend = Array.from({ length: 7 }, () => 0);
  const results = Array.from({ length: 7 }, () => 0);
  for (const row of daily.values()) {
    if (row.date < w.from || row.date > w.to) continue;
    const d = weekday(row.date);
    spend[d] = (spend[d] ?? 0) + row.spend;
    results[d] = (results[d] ?? 0) + row.conversions;
  }
  const overall = results.reduce((a, b) => a + b, 0) / (spend.reduce((a, b) => a + b, 0) || 1);
  if (overall <= 0) return daily;
  const factor = spend.map(
    (sp, i) => ((results[i] ?? 0) + pseudoResults) / (sp + pseudoResults / overall) / overall,
  );
  const out = new Map<string, DayRow>();
  for (const [date, row] of daily) out.set(date, { ...row, spend: row.spend * (factor[weekday(date)] ?? 1) });
  return out;
}

/**
 * The run since the rise began, when the week alone does not carry it: a buyer dates the rise and reads
 * every day since. Runs end with the last complete day and last from learningGraceDays to two weeks
 * (inside the range); the best-evidenced one past both bars is returned, or null. A run shorter than
 * the week must start a rise (the week before it stays under the rise bar: a late step, or the top of
 * a ramp, that the week's calm days dilute); a longer one pools a low-volume campaign's evidence and
 * is read only when the week itself is past the rise bar (the rise goes on). A run, like the week,
 * needs at least minConversions results. Runs are tested on weekday-weighted spend (`weighted`); the
 * totals returned are the real ones.
 */
function runSinceOnset(
  ctx: DetectorContext,
  daily: Map<string, DayRow>,
  weighted: Map<string, DayRow>,
  target: number,
  weekCpr: number | null,
  zOf: (t: { conversions: number; spend: number }, against: number, days: number) => number,
): { from: string; totals: ReturnType<typeof sumRange> } | null {
  const { windows, th, window } = ctx;
  const risen = (cpr: number | null): boolean => cpr !== null && atLeast(cpr / target - 1, th.cpaRise);
  let best: { from: string; totals: ReturnType<typeof sumRange>; z: number } | null = null;
  for (let days = th.learningGraceDays; days <= 2 * th.recentDays; days += 1) {
    if (days === th.recentDays) continue;
    const from = addDays(windows.recentCpr.to, -(days - 1));
    if (from < window.from) break;
    if (days > th.recentDays && !risen(weekCpr)) break;
    if (
      days < th.recentDays &&
      risen(cprOf(sumRange(weighted, addDays(from, -th.recentDays), addDays(from, -1))))
    )
      continue;
    const totals = sumRange(daily, from, windows.recentCpr.to);
    if (totals.conversions < th.minConversions || totals.spend < ctx.minSpend) continue;
    const tested = sumRange(weighted, from, windows.recentCpr.to);
    if (!risen(cprOf(tested))) continue;
    const z = zOf(tested, target, days);
    if (z >= th.cpaMinZ && (!best || z > best.z)) best = { from, totals, z };
  }
  return best;
}

const learning = (s: AdSetData): boolean => {
  const status = (s.learningStatus ?? '').toUpperCase();
  return status === 'LEARNING' || status === 'IN_LEARNING';
};

export function detectCpaDegradation(
  ctx: DetectorContext,
  explainedAdSets: ReadonlySet<string> = new Set(),
): Finding[] {
  const { data, windows, th } = ctx;
  // Zero counted results is not a cost per result when nothing (or no single thing) is counted.
  if (!isJudgeable(data.resultType)) return [];
  const withRows = data.adSets.filter((s) => s.daily.size > 0);
  const unexplained = withRows.filter((s) => !learning(s) && !explainedAdSets.has(s.id));
  // Like for like: an ad set launched since the baseline began has no "before" in it, so its cost
  // per result would read as the campaign's rise when it is only a new ad set's price (judged by
  // learning and overlap). The campaign is compared on the ad sets that ran before, when it has any.
  const launchedSince = (s: AdSetData): boolean => (dayOf(s.createdTime) ?? '') > windows.reference.from;
  const included = unexplained.some((s) => !launchedSince(s))
    ? unexplained.filter((s) => !launchedSince(s))
    : unexplained;
  if (withRows.length > 0 && included.length === 0) return [];
  const daily = withRows.length > 0 ? mergeDaily(included.map((s) => s.daily)) : data.daily;
  // When most of the spend is already explained elsewhere, what is left is too small to stand alone.
  if (withRows.length > 0 && included.length < withRows.length) {
    const all = mergeDaily(withRows.map((s) => s.daily));
    const share =
      sumRange(daily, windows.recentCpr.from, windows.recentCpr.to).spend /
      (sumRange(all, windows.recentCpr.from, windows.recentCpr.to).spend || 1);
    if (share < 0.5) return [];
  }
  const recent = sumRange(daily, windows.recentCpr.from, windows.recentCpr.to);
  const reference = sumRange(daily, windows.referenceCpr.from, windows.referenceCpr.to);

  // Two comparisons: against an explicit target (cost cap, else the analyst's), and against the
  // campaign's own baseline. A cost cap usually sits above the running CPA, so a real degradation
  // can stay under it; either comparison past the threshold is an issue, and the evidence says which.
  const baseline = reference.conversions >= th.minConversions ? cprOf(reference) : null;
  const cap = costCapOf(data, windows.recentCpr.from, windows.recentCpr.to);
  const explicit: { value: number; source: TargetSource } | null =
    cap !== null
      ? { value: cap, source: 'cost_cap' }
      : data.targetCpa !== null
        ? { value: data.targetCpa, source: 'analyst_target' }
        : null;
  const targets = [explicit, baseline ? { value: baseline, source: 'baseline' as const } : null].filter(
    (t): t is { value: number; source: TargetSource } => t !== null && t.value > 0,
  );
  // Fewer results than the target cost predicts for this spend, beyond the day-to-day noise the
  // baseline itself showed (quasi-Poisson: Poisson variance times the baseline's dispersion).
  // Runs shorter or longer than a week are judged against the noise of runs of their own length.
  const dispersion = baseline ? dispersionOf(daily, windows.referenceCpr, baseline) : 1;
  // Built only when a run is read (most campaigns are judged on the week alone), each length once.
  let weightedDays: Map<string, DayRow> | null = null;
  const weighted = (): Map<string, DayRow> =>
    (weightedDays ??= baseline ? weekdayWeighted(daily, windows.referenceCpr, th.minConversions) : daily);
  const dispersionByLength = new Map<number, number>();
  const dispersionAt = (days: number): number => {
    if (!baseline) return 1;
    let d = dispersionByLength.get(days);
    if (d === undefined) {
      d = Math.max(dispersion, dispersionOf(weighted(), windows.referenceCpr, baseline, days));
      dispersionByLength.set(days, d);
    }
    return d;
  };
  const zOf = (t: { conversions: number; spend: number }, against: number, days = 1): number =>
    shortfallZ(t.conversions, t.spend / against) / Math.sqrt(days === 1 ? dispersion : dispersionAt(days));
  // The week first; when it does not carry the rise (too few results, or a rise that began inside
  // it), the run since the rise began.
  const weekCpr =
    recent.conversions >= th.minConversions && recent.spend >= ctx.minSpend ? cprOf(recent) : null;
  let found: { target: number; source: TargetSource; from: string; totals: typeof recent } | null = null;
  for (const t of targets) {
    if (
      weekCpr !== null &&
      atLeast(weekCpr / t.value - 1, th.cpaRise) &&
      zOf(recent, t.value) >= th.cpaMinZ
    ) {
      found = { target: t.value, source: t.source, from: windows.recentCpr.from, totals: recent };
      break;
    }
    const run = runSinceOnset(ctx, daily, weighted(), t.value, weekCpr, zOf);
    if (run) {
      found = { target: t.value, source: t.source, ...run };
      break;
    }
  }
  if (!found) return [];
  const { target, source } = found;
  const judged = { from: found.from, totals: found.totals };
  const judgedCpr = cprOf(judged.totals) ?? target;
  const rise = judgedCpr / target - 1;

  const severity = rise >= 4 * th.cpaRise ? 'CRITICAL' : rise >= 1.6 * th.cpaRise ? 'HIGH' : 'MEDIUM';
  // The ad set that contributes most to the rise, named so the analyst knows where to look.
  let worst: { name: string; cpr: number } | null = null;
  for (const s of included) {
    const r = sumRange(s.daily, windows.recentCpr.from, windows.recentCpr.to);
    const c = r.conversions >= Math.ceil(th.minConversions / 2) ? cprOf(r) : null;
    if (c !== null && (!worst || c > worst.cpr)) worst = { name: s.name, cpr: c };
  }
  const targetLabel =
    source === 'cost_cap'
      ? 'its cost cap'
      : source === 'analyst_target'
        ? 'the target you set'
        : `its ${th.baselineDays}-day baseline`;
  const targetNote =
    source === 'baseline' && explicit
      ? ` (${explicit.source === 'cost_cap' ? 'cost cap' : 'target'} ${money(explicit.value, data.currency)})`
      : '';
  const trendTo = windows.recentCpr.to;
  const trendDays = windows.rangeDays.filter((d) => d <= trendTo);
  return [
    {
      type: 'CPA_DEGRADATION',
      severity,
      title: `Cost per result up ${percent(rise)} on ${quote(data.name)}`,
      description:
        `Cost per result was ${money(judgedCpr, data.currency)} in ${day(judged.from)}–${day(windows.recentCpr.to)}, ` +
        `${percent(rise)} above ${targetLabel} (${money(target, data.currency)})${targetNote}, on ${judged.totals.conversions} results. ` +
        `The last ${th.conversionLagDays} days are left out because their conversions are still arriving.` +
        (worst ? ` Highest: ${quote(worst.name)} at ${money(worst.cpr, data.currency)}.` : ''),
      affectedEntity: campaignEntity(data),
      evidence: {
        targetCpa: Math.round(target / 10_000) / 100,
        actualCpa: Math.round(judgedCpr / 10_000) / 100,
        cpaTrend: evidenceTrend(
          dailySeries(daily, trendDays, (r) =>
            r.conversions > 0 ? r.spend / r.conversions / 1_000_000 : null,
          ),
          2,
        ),
        targetSource: source,
      },
      spendAtRisk: sumRange(daily, ctx.window.from, ctx.window.to).spend,
      magnitude: rise / th.cpaRise,
      facts: {
        target,
        actual: judgedCpr,
        rise,
        baseline,
        recentConversions: judged.totals.conversions,
        recentSpend: judged.totals.spend,
        source,
      },
      campaignId: data.id,
      campaignName: data.name,
    },
  ];
}
