// What every detector receives: the loaded campaign, its windows and the profile's thresholds.
import type { Thresholds } from '../thresholds';
import { sumRange, windowsFor, type Windows } from '../series';
import type { AdSetData, CampaignData, DayRow, Finding, Window } from '../types';
import { MICROS_PER_UNIT } from '../../money';

export interface DetectorContext {
  data: CampaignData;
  window: Window;
  windows: Windows;
  th: Thresholds;
  /** Campaign spend in the range (micros), the denominator of "share of spend". */
  rangeSpend: number;
  /** Minimum spend per judged window, in micros. */
  minSpend: number;
}

export type Detector = (ctx: DetectorContext) => Finding[];

export function detectorContext(data: CampaignData, window: Window, th: Thresholds): DetectorContext {
  const windows = windowsFor(window, th);
  const daily = campaignDaily(data);
  return {
    data,
    window,
    windows,
    th,
    rangeSpend: sumRange(daily, window.from, window.to).spend,
    minSpend: th.minSpendPerUnit * MICROS_PER_UNIT,
  };
}

/** Campaign rows when synced; otherwise (older syncs) the ad-set rows summed. */
export function campaignDaily(data: CampaignData): Map<string, DayRow> {
  return data.daily;
}

/** Delivering now: the ad set (and its campaign) are active, not paused or deleted. */
export function isActive(entity: { status: string; effectiveStatus: string }): boolean {
  return (
    entity.status === 'ACTIVE' &&
    (entity.effectiveStatus === 'ACTIVE' || entity.effectiveStatus === 'IN_PROCESS')
  );
}

export function adSetEntity(adSet: AdSetData): Finding['affectedEntity'] {
  return { type: 'adSet', id: adSet.id, name: adSet.name };
}

export function campaignEntity(data: CampaignData): Finding['affectedEntity'] {
  return { type: 'campaign', id: data.id, name: data.name };
}

/** Spend of the ad set in the range (micros). */
export function adSetRangeSpend(ctx: DetectorContext, adSet: AdSetData): number {
  return sumRange(adSet.daily, ctx.window.from, ctx.window.to).spend;
}

/** The day's date of an ISO timestamp, or the date itself. */
export function dayOf(timestamp: string | null): string | null {
  return timestamp ? timestamp.slice(0, 10) : null;
}

/** Whether cost per result can be judged: not when the result type is UNKNOWN or MIXED (nothing counted). */
export function isJudgeable(resultType: string | null | undefined): boolean {
  return resultType !== 'UNKNOWN' && resultType !== 'MIXED';
}
