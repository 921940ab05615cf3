// Account context, read before any campaign is blamed. A media buyer who sees results fall on most
// campaigns on the same day checks the pixel first, and one who sees CPM up by the same share
// everywhere reads the auction, not twenty campaigns. Each check gives one account-level finding and
// says which campaign findings it explains (those are left out of the diagnostic).
import { addDays, dateRange } from '../clock';
import { day, money, percent } from './format';
import { isJudgeable } from './detectors/context';
import {
  atLeast,
  atMost,
  cpmOf,
  dailySeries,
  evidenceTrend,
  mergeDaily,
  shortfallZ,
  sumRange,
  type Totals,
  type Windows,
} from './series';
import type { Thresholds } from './thresholds';
import type { CampaignData, DayRow, Finding } from './types';

export interface AccountContext {
  findings: Finding[];
  /** Whether a campaign finding is explained by the account context (and left out). */
  explains: (f: Finding) => boolean;
  /** A note added to a campaign finding the context explains in part. */
  noteFor: (f: Finding) => string | null;
}

export interface AccountRef {
  id: string;
  name: string;
}

/** Link clicks when synced, else all clicks (older syncs). */
const linkClicksOf = (t: Totals): number => (t.linkClicks > 0 ? t.linkClicks : t.clicks);
const perClick = (t: Totals): number | null => (linkClicksOf(t) > 0 ? t.conversions / linkClicksOf(t) : null);
const linkCtrOf = (t: Totals): number | null => (t.impressions > 0 ? linkClicksOf(t) / t.impressions : null);
const round = (v: number, d = 2): number => Math.round(v * 10 ** d) / 10 ** d;

interface Judged {
  data: CampaignData;
  rangeSpend: number;
}

function judged(campaigns: readonly CampaignData[], windows: Windows, minSpend: number): Judged[] {
  const out: Judged[] = [];
  for (const data of campaigns) {
    const rangeSpend = sumRange(data.daily, windows.range.from, windows.range.to).spend;
    if (rangeSpend >= minSpend) out.push({ data, rangeSpend });
  }
  return out;
}

interface Break {
  start: string;
  before: Totals;
  after: Totals;
  beforeDays: number;
  afterDays: number;
  z: number;
}

/**
 * The day results per link click fell the most, if it is a break: from that day on (to the last day
 * whose conversions are complete) the rate is at least `trackingResultDrop` lower, beyond chance,
 * nearly every day, while link clicks and impressions per day hold.
 */
function findBreak(daily: Map<string, DayRow>, windows: Windows, th: Thresholds): Break | null {
  const last = windows.recentCpr.to;
  let best: Break | null = null;
  for (const start of dateRange(windows.range.from, addDays(last, -1))) {
    const beforeFrom = addDays(start, -14);
    const before = sumRange(daily, beforeFrom, addDays(start, -1));
    const after = sumRange(daily, start, last);
    const rateBefore = perClick(before);
    const rateAfter = perClick(after);
    if (rateBefore === null || rateAfter === null || before.days < 7) continue;
    if (before.conversions < 2 * th.minConversions) continue;
    if (!atMost(rateAfter / rateBefore, 1 - th.trackingResultDrop)) continue;
    const beforeDays = before.days;
    const afterDays = after.days;
    if (beforeDays === 0 || afterDays === 0) continue;
    const held = (a: number, b: number) => atLeast(a / afterDays / (b / beforeDays), 1 - th.trafficHold);
    if (!held(linkClicksOf(after), linkClicksOf(before)) || !held(after.impressions, before.impressions))
      continue;
    const z = shortfallZ(after.conversions, rateBefore * linkClicksOf(after));
    if (z < th.cpaMinZ) continue;
    // A break is a step: nearly every day from the start sits below the midpoint between the old rate
    // and the broken one. A gradual decline (a campaign problem) fails this on its first days.
    const midpoint = rateBefore * (1 - th.trackingResultDrop / 2);
    const days = dateRange(start, last);
    const low = days.filter((d) => {
      const row = daily.get(d);
      const clicks = row ? (row.linkClicks > 0 ? row.linkClicks : row.clicks) : 0;
      return clicks > 0 && row !== undefined && row.conversions / clicks <= midpoint;
    }).length;
    if (low < 0.8 * days.length) continue;
    if (!best || z > best.z) best = { start, before, after, beforeDays, afterDays, z };
  }
  return best;
}

function trackingBreak(
  pool: Judged[],
  windows: Windows,
  th: Thresholds,
  account: AccountRef,
): { finding: Finding; affected: Set<string> } | null {
  const judgeable = pool.filter((j) => isJudgeable(j.data.resultType));
  if (judgeable.length < 2) return null;
  const daily = mergeDaily(judgeable.map((j) => j.data.daily));
  const brk = findBreak(daily, windows, th);
  if (!brk) return null;
  const last = windows.recentCpr.to;
  // Which campaigns broke on that day: enough expected results to tell, and their rate fell too.
  const affected = new Set<string>();
  let judgedSpend = 0;
  let affectedSpend = 0;
  let campaignsJudged = 0;
  for (const j of judgeable) {
    const before = sumRange(j.data.daily, addDays(brk.start, -14), addDays(brk.start, -1));
    const after = sumRange(j.data.daily, brk.start, last);
    const rateBefore = perClick(before);
    const rateAfter = perClick(after);
    if (rateBefore === null || rateAfter === null) continue;
    if (rateBefore * linkClicksOf(after) < th.minConversions / 2) continue;
    campaignsJudged += 1;
    judgedSpend += j.rangeSpend;
    if (rateAfter / rateBefore <= 1 - th.trackingResultDrop * 0.8) {
      affected.add(j.data.id);
      affectedSpend += j.rangeSpend;
    }
  }
  const share = affectedSpend / (judgedSpend || 1);
  if (affected.size < 2 || !atLeast(share, th.accountShare)) return null;
  const currency = judgeable[0]?.data.currency ?? 'USD';
  const perDay = (v: number, days: number) => round(v / days, 1);
  const rateBefore = perClick(brk.before) ?? 0;
  const rateAfter = perClick(brk.after) ?? 0;
  const drop = 1 - rateAfter / (rateBefore || 1);
  const resultsBefore = perDay(brk.before.conversions, brk.beforeDays);
  const resultsAfter = perDay(brk.after.conversions, brk.afterDays);
  const clicksBefore = perDay(linkClicksOf(brk.before), brk.beforeDays);
  const clicksAfter = perDay(linkClicksOf(brk.after), brk.afterDays);
  const finding: Finding = {
    type: 'TRACKING_BREAK',
    severity: drop >= 0.8 ? 'CRITICAL' : 'HIGH',
    title: `Results stopped being counted from ${day(brk.start)} across the account`,
    description:
      `From ${day(brk.start)} the account records ${resultsAfter} results a day instead of ${resultsBefore} ` +
      `(${percent(drop)} fewer per link click) while link clicks (${clicksAfter} a day vs ${clicksBefore}) and impressions held, ` +
      `on ${affected.size} of ${campaignsJudged} campaigns (${percent(share)} of their spend) at once. ` +
      `People still click; the conversions are not being reported: this is tracking (pixel, Conversions API, event setup), ` +
      `not the campaigns, so their cost per result since then is not judged.`,
    affectedEntity: { type: 'account', id: account.id, name: account.name },
    evidence: {
      startDate: brk.start,
      resultsPerDayBefore: resultsBefore,
      resultsPerDayAfter: resultsAfter,
      linkClicksPerDayBefore: clicksBefore,
      linkClicksPerDayAfter: clicksAfter,
      impressionsPerDayBefore: perDay(brk.before.impressions, brk.beforeDays),
      impressionsPerDayAfter: perDay(brk.after.impressions, brk.afterDays),
      conversionRateBefore: round(rateBefore, 4),
      conversionRateAfter: round(rateAfter, 4),
      resultsTrend: evidenceTrend(
        dailySeries(daily, windows.rangeDays, (r) => r.conversions),
        0,
      ),
      affectedCampaigns: affected.size,
      campaignsJudged,
      affectedSpendShare: round(share, 4),
    },
    spendAtRisk: affectedSpend,
    magnitude: drop / th.trackingResultDrop,
    facts: {
      startDate: brk.start,
      drop,
      currency,
      resultsPerDayBefore: resultsBefore,
      resultsPerDayAfter: resultsAfter,
      spendSince: sumRange(daily, brk.start, windows.range.to).spend,
      affectedCampaigns: affected.size,
    },
    campaignId: '',
    campaignName: account.name,
  };
  return { finding, affected };
}

interface CpmMove {
  id: string;
  change: number;
  ctrChange: number | null;
  rateChange: number | null;
  recentSpend: number;
}

/** The days a CPM move is read over: since its start, against the days before it. */
interface MoveWindows {
  recent: { from: string; to: string };
  reference: { from: string; to: string };
  recentCpr: { from: string; to: string };
  referenceCpr: { from: string; to: string };
}

function moveOf(data: CampaignData, w: MoveWindows, th: Thresholds): CpmMove | null {
  const recent = sumRange(data.daily, w.recent.from, w.recent.to);
  const reference = sumRange(data.daily, w.reference.from, w.reference.to);
  // Impressions per day: a move read over a few days needs a proportionate share of the bar.
  const days = Math.max(1, recent.days);
  if (recent.impressions < (th.minImpressions * days) / 7 || reference.impressions < th.minImpressions)
    return null;
  const now = cpmOf(recent);
  const before = cpmOf(reference);
  if (now === null || before === null || before === 0) return null;
  const ctrNow = linkCtrOf(recent);
  const ctrBefore = linkCtrOf(reference);
  const rNow =
    w.recentCpr.to >= w.recentCpr.from
      ? perClick(sumRange(data.daily, w.recentCpr.from, w.recentCpr.to))
      : null;
  const rBefore = perClick(sumRange(data.daily, w.referenceCpr.from, w.referenceCpr.to));
  return {
    id: data.id,
    change: now / before - 1,
    ctrChange: ctrNow !== null && ctrBefore ? ctrNow / ctrBefore - 1 : null,
    rateChange: rNow !== null && rBefore ? rNow / rBefore - 1 : null,
    recentSpend: recent.spend,
  };
}

/**
 * When the account's CPM moved: the last week against the baseline, or, for a move that began only
 * days before the end (too few days to carry a week's average past the bar), the days since the day
 * it stepped against the two weeks before it. A step: nearly every day since sits past the midpoint.
 */
function moveWindows(daily: Map<string, DayRow>, windows: Windows, th: Thresholds): MoveWindows {
  const week: MoveWindows = {
    recent: windows.recent,
    reference: windows.reference,
    recentCpr: windows.recentCpr,
    referenceCpr: windows.referenceCpr,
  };
  const weekMove = (() => {
    const now = cpmOf(sumRange(daily, week.recent.from, week.recent.to));
    const before = cpmOf(sumRange(daily, week.reference.from, week.reference.to));
    return now !== null && before ? Math.abs(now / before - 1) : 0;
  })();
  let best: { w: MoveWindows; move: number } | null = null;
  const last = windows.range.to;
  for (const start of dateRange(windows.recent.from, addDays(last, -2))) {
    const reference = { from: addDays(start, -14), to: addDays(start, -1) };
    const before = cpmOf(sumRange(daily, reference.from, reference.to));
    const now = cpmOf(sumRange(daily, start, last));
    if (now === null || !before) continue;
    const move = now / before - 1;
    if (!atLeast(Math.abs(move), th.marketCpmShift) || Math.abs(move) <= weekMove) continue;
    const midpoint = before * (1 + move / 2);
    const days = dateRange(start, last);
    const past = days.filter((d) => {
      const row = daily.get(d);
      const cpm = row && row.impressions > 0 ? (row.spend / row.impressions) * 1000 : null;
      return cpm !== null && (move > 0 ? cpm >= midpoint : cpm <= midpoint);
    }).length;
    if (past < 0.8 * days.length) continue;
    if (!best || Math.abs(move) > best.move)
      best = {
        move: Math.abs(move),
        w: {
          recent: { from: start, to: last },
          reference,
          recentCpr: { from: start, to: windows.recentCpr.to },
          referenceCpr: reference,
        },
      };
  }
  return best?.w ?? week;
}

/** CTR and results per click within the hold band: the audience responds as before. */
const holds = (m: { ctrChange: number | null; rateChange: number | null }, band: number): boolean =>
  m.ctrChange !== null &&
  Math.abs(m.ctrChange) <= band &&
  (m.rateChange === null || Math.abs(m.rateChange) <= band);

function marketShift(
  pool: Judged[],
  windows: Windows,
  th: Thresholds,
  account: AccountRef,
): { finding: Finding; affected: Map<string, CpmMove>; change: number } | null {
  const daily = mergeDaily(pool.map((j) => j.data.daily));
  const w = moveWindows(daily, windows, th);
  const moves = pool.map((j) => moveOf(j.data, w, th)).filter((m): m is CpmMove => m !== null);
  if (moves.length < 3) return null;
  const account_ = moveOf({ ...(pool[0] as Judged).data, daily }, w, th);
  if (!account_ || !atLeast(Math.abs(account_.change), th.marketCpmShift)) return null;
  // The audience still responds: account CTR and conversion rate hold. Otherwise the CPM move comes
  // with a change in the ads or the offer, which is the campaigns' to explain.
  if (!holds(account_, th.rateHold)) return null;
  const m = account_.change;
  const affected = new Map<string, CpmMove>();
  let affectedSpend = 0;
  let total = 0;
  for (const mv of moves) {
    total += mv.recentSpend;
    // A similar share: same direction, within half the account's move of it.
    if (Math.sign(mv.change) === Math.sign(m) && Math.abs(mv.change - m) <= Math.abs(m) / 2) {
      affected.set(mv.id, mv);
      affectedSpend += mv.recentSpend;
    }
  }
  const share = affectedSpend / (total || 1);
  if (affected.size < 3 || !atLeast(share, th.accountShare)) return null;
  const currency = pool[0]?.data.currency ?? 'USD';
  const reference = sumRange(daily, w.reference.from, w.reference.to);
  const recent = sumRange(daily, w.recent.from, w.recent.to);
  const before = cpmOf(reference) ?? 0;
  const now = cpmOf(recent) ?? 0;
  const up = m > 0;
  const finding: Finding = {
    type: 'MARKET_SHIFT',
    severity: up ? (m >= 2 * th.marketCpmShift ? 'HIGH' : 'MEDIUM') : 'LOW',
    title: `CPM ${up ? 'up' : 'down'} ${percent(Math.abs(m))} across the account`,
    description:
      `CPM went from ${money(before, currency)} to ${money(now, currency)} (${up ? '+' : '−'}${percent(Math.abs(m))}) in ${day(w.recent.from)}–${day(w.recent.to)} ` +
      `on ${affected.size} of ${moves.length} campaigns (${percent(share)} of their spend) by a similar share, ` +
      `while CTR (${signed(account_.ctrChange)}) and results per click (${signed(account_.rateChange)}) held: ` +
      `the auction got ${up ? 'dearer' : 'cheaper'} for everyone (season, competition), not these campaigns worse. ` +
      `Their cost per result moved with CPM and is not blamed on them.`,
    affectedEntity: { type: 'account', id: account.id, name: account.name },
    evidence: {
      direction: up ? 'UP' : 'DOWN',
      cpmBefore: round(before / 1_000_000),
      cpmAfter: round(now / 1_000_000),
      cpmChange: round(m, 4),
      ctrChange: round(account_.ctrChange ?? 0, 4),
      conversionRateChange: account_.rateChange === null ? null : round(account_.rateChange, 4),
      cpmTrend: evidenceTrend(
        dailySeries(daily, windows.rangeDays, (r) =>
          r.impressions > 0 ? ((r.spend / r.impressions) * 1000) / 1_000_000 : null,
        ),
        2,
      ),
      affectedCampaigns: affected.size,
      campaignsJudged: moves.length,
      affectedSpendShare: round(share, 4),
    },
    spendAtRisk: affectedSpend,
    magnitude: Math.abs(m) / th.marketCpmShift,
    facts: { change: m, currency, cpmBefore: before, cpmNow: now, weeklySpend: recent.spend },
    campaignId: '',
    campaignName: account.name,
  };
  return { finding, affected, change: m };
}

const signed = (v: number | null): string =>
  v === null ? 'n/a' : `${v >= 0 ? '+' : '−'}${percent(Math.abs(v))}`;

const NONE: AccountContext = { findings: [], explains: () => false, noteFor: () => null };

export function readAccountContext(
  campaigns: readonly CampaignData[],
  windows: Windows,
  th: Thresholds,
  minSpend: number,
  account: AccountRef,
): AccountContext {
  const pool = judged(campaigns, windows, minSpend);
  if (pool.length < 2) return NONE;
  const tracking = trackingBreak(pool, windows, th, account);
  const market = tracking ? null : marketShift(pool, windows, th, account);
  const findings: Finding[] = [];
  if (tracking) findings.push(tracking.finding);
  if (market) findings.push(market.finding);
  return {
    findings,
    explains: (f) => {
      // Results lost to tracking are not a campaign's cost-per-result problem.
      if (tracking?.affected.has(f.campaignId) && (f.type === 'CPA_DEGRADATION' || f.type === 'GOAL_MISSED'))
        return true;
      const mv = market?.affected.get(f.campaignId);
      if (market && mv && f.type === 'AUCTION_OVERLAP') {
        // An overlap read from a CPM rise the whole market shows is the market's: only a rise beyond
        // the market's, or budgets left unspent, is the overlap's own.
        const rise = typeof f.facts.cpmRise === 'number' ? f.facts.cpmRise : 0;
        const underspend = typeof f.facts.underspend === 'number' ? f.facts.underspend : 0;
        return (1 + rise) / (1 + market.change) - 1 < th.overlapCpmRise && underspend < th.overlapUnderspend;
      }
      if (!market || !mv || f.type !== 'CPA_DEGRADATION') return false;
      // Explained by CPM when the campaign's own CTR and conversion rate held, so the rise in cost
      // per result is no more than the CPM move (plus the band) would make it.
      const rise = typeof f.facts.rise === 'number' ? f.facts.rise : 0;
      return holds(mv, th.rateHold * 1.5) && 1 + rise <= (1 + mv.change) * (1 + th.rateHold);
    },
    noteFor: (f) => {
      const mv = market?.affected.get(f.campaignId);
      if (!market || !mv || market.change <= 0) return null;
      if (f.type !== 'AUDIENCE_SATURATION' && f.type !== 'AUCTION_OVERLAP') return null;
      return ` CPM rose ${percent(market.change)} across the account in the same weeks, so part of this CPM rise is the market's, not this ad set's.`;
    },
  };
}
