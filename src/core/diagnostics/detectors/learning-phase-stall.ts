// LEARNING_PHASE_STALL: an ad set still learning (or "learning limited") long after its last
// significant edit, short of the ~50 optimization events Meta needs in 7 days to exit learning.
import { daysBetween } from '../../clock';
import { cprOf, sumRange } from '../series';
import { day, money, quote } from '../format';
import type { AdSetData, Finding, LearningSnapshot } from '../types';
import { adSetEntity, dayOf, isActive, isJudgeable, type DetectorContext } from './context';

const LEARNING = new Set(['LEARNING', 'IN_LEARNING']);
const LIMITED = new Set(['FAIL', 'LEARNING_LIMITED']);

/** The learning state as of the range's end: the newest snapshot on or before it, else the ad set's own. */
function learningAt(adSet: AdSetData, to: string): Omit<LearningSnapshot, 'observedOn'> | null {
  let best: LearningSnapshot | null = null;
  for (const snap of adSet.snapshots)
    if (snap.observedOn <= to && (!best || snap.observedOn > best.observedOn)) best = snap;
  if (best) return best;
  if (adSet.learningStatus === null) return null;
  return {
    status: adSet.learningStatus,
    conversions: adSet.learningConversions ?? 0,
    lastSignificantEditAt: adSet.lastSignificantEditAt,
  };
}

export function detectLearningPhaseStall(ctx: DetectorContext): Finding[] {
  const { data, window, th } = ctx;
  const findings: Finding[] = [];
  for (const adSet of data.adSets) {
    if (!isActive(adSet)) continue;
    // Learning is judged on results counted; an unknown result type counts none.
    if (!isJudgeable(adSet.resultType)) continue;
    const state = learningAt(adSet, window.to);
    if (!state) continue;
    const status = state.status.toUpperCase();
    const limited = LIMITED.has(status);
    if (!LEARNING.has(status) && !limited) continue;
    const editDay = dayOf(state.lastSignificantEditAt) ?? dayOf(adSet.createdTime);
    if (!editDay || editDay > window.to) continue;
    // Whole days elapsed since the edit (an edit 7 days before the range's end = 7 days in learning).
    const daysInLearning = daysBetween(editDay, window.to) - 1;
    // Meta needs a few days before learning can be judged at all.
    if (daysInLearning <= th.learningGraceDays) continue;
    if (!limited && daysInLearning < th.learningStallDays) continue;

    const sinceEdit = sumRange(
      adSet.daily,
      editDay > ctx.window.loadFrom ? editDay : ctx.window.loadFrom,
      window.to,
    );
    // Meta's own status is the evidence, not a noisy rate: a week past the edit still learning is a
    // stall however little it spent (a budget too small to spend is often the very cause). The spend
    // minimum still guards "learning limited" read inside the first week.
    const stalled = daysInLearning >= th.learningStallDays;
    if (sinceEdit.spend <= 0 || (!stalled && sinceEdit.spend < ctx.minSpend)) continue;
    const conversionsInLearning = Math.max(state.conversions, 0);
    const required = th.requiredLearningConversions;
    // Exiting needs `required` results within a week; Meta's count may be cumulative since the edit,
    // so the pace that matters is the last 7 days' (or, for a younger edit, Meta's own count).
    const last7 = sumRange(adSet.daily, ctx.windows.recent.from, ctx.windows.recent.to);
    const perWeek = last7.conversions;
    if (Math.min(perWeek, conversionsInLearning) >= required) continue;
    const burning = sinceEdit.conversions === 0 && sinceEdit.spend >= 2 * (adSet.dailyBudget ?? ctx.minSpend);
    const severity = burning
      ? 'CRITICAL'
      : limited || daysInLearning >= 2 * th.learningStallDays
        ? 'HIGH'
        : 'MEDIUM';
    const cpr = cprOf(sinceEdit);
    // Meta counts the ad set's optimisation event: its own result (purchases, form leads, installs…).
    const event = (adSet.resultName ?? '').toLowerCase() || 'optimization events';
    const needed = cpr !== null ? (cpr * required) / 7 : null;
    const budgetNote =
      adSet.dailyBudget === null || needed === null || cpr === null
        ? ''
        : needed > adSet.dailyBudget
          ? ` At ${money(cpr, data.currency)} per result, ${required} results a week need about ${money(needed, data.currency)} a day; the budget is ${money(adSet.dailyBudget, data.currency)}.`
          : ` Its ${money(adSet.dailyBudget, data.currency)} daily budget could buy ${required} results a week at ${money(cpr, data.currency)} each, so the limit is elsewhere (audience, bid or event).`;
    findings.push({
      type: 'LEARNING_PHASE_STALL',
      severity,
      title: limited
        ? `Ad set ${quote(adSet.name)} is learning limited`
        : `Ad set ${quote(adSet.name)} is stuck in learning`,
      description:
        `${quote(adSet.name)} has been in learning for ${daysInLearning} days since ${day(editDay)} ` +
        `(Meta: ${limited ? 'learning limited' : 'learning'}) with ${conversionsInLearning} of the ${required} ${event} Meta needs in a week ` +
        `(${perWeek} in the last 7 days, ${money(sinceEdit.spend, data.currency)} spent).${budgetNote}`,
      affectedEntity: adSetEntity(adSet),
      evidence: {
        daysInLearning,
        conversionsInLearning,
        requiredConversions: required,
        learningStatus: limited ? 'LEARNING_LIMITED' : 'IN_LEARNING',
        ...(adSet.resultName ? { resultEvent: adSet.resultName } : {}),
      },
      spendAtRisk: sumRange(adSet.daily, window.from, window.to).spend,
      magnitude: Math.max(daysInLearning / th.learningStallDays, 1) * (1 - conversionsInLearning / required),
      facts: {
        adSetId: adSet.id,
        adSetName: adSet.name,
        dailyBudget: adSet.dailyBudget,
        cpr,
        conversionsPerWeek: perWeek,
        required,
        burning: burning ? 1 : 0,
        spendSinceEdit: sinceEdit.spend,
        resultName: adSet.resultName ?? null,
      },
      campaignId: data.id,
      campaignName: data.name,
    });
  }
  return findings;
}
