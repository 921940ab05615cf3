// learning_stage_info, kept coherent with the delivery model: an ad set exits learning (SUCCESS)
// once it reaches 50 results (optimization events) within 7 days of its last significant edit; before 7 days it is
// LEARNING; injected stalls report LEARNING (stuck) or FAIL (learning limited) with the real count.

import type { DeliveryModel } from './delivery';
import { hash32 } from './prng';
import { zonedEpochSeconds } from './time';
import { adSetEffectiveStatus } from './world/status';
import type { AdSet } from './world/types';

export const LEARNING_EXIT_EVENTS = 50;

export interface LearningStageInfo {
  status: 'LEARNING' | 'SUCCESS' | 'FAIL';
  conversions: number;
  last_sig_edit_ts: number;
  attribution_windows: string[];
}

export function lastSignificantEditTs(adSet: AdSet, day = adSet.lastSigEditDay): number {
  const hour = 9 + (hash32(adSet.key, 'edit') % 9);
  return zonedEpochSeconds(day, hour * 3600 + 600, adSet.campaign.account.timezone);
}

/** Only active ad sets carry learning info (as on Meta). */
export function learningStageInfo(model: DeliveryModel, adSet: AdSet): LearningStageInfo | undefined {
  if (adSetEffectiveStatus(adSet) !== 'ACTIVE') return undefined;
  const { todayDay } = model.world;
  if (adSet.startDay > todayDay || adSet.campaign.account.lastDeliveryDay < todayDay) return undefined;
  const edit = adSet.lastSigEditDay;
  const scenario = adSet.campaign.scenario;
  const base = {
    last_sig_edit_ts: lastSignificantEditTs(adSet),
    attribution_windows: ['7d_click', '1d_view'],
  };
  if (scenario?.category === 'LEARNING_PHASE_STALL' && adSet.role === 'target') {
    const status = scenario.variant.endsWith('FAIL') ? 'FAIL' : 'LEARNING';
    return { status, conversions: model.results(adSet, edit, todayDay), ...base };
  }
  const firstWeek = model.results(adSet, edit, Math.min(edit + 6, todayDay));
  if (firstWeek >= LEARNING_EXIT_EVENTS) return { status: 'SUCCESS', conversions: firstWeek, ...base };
  if (todayDay - edit < 7) return { status: 'LEARNING', conversions: firstWeek, ...base };
  // Not reachable in practice: budgets outside the stalls are 10×+ the ad set's CPA.
  return { status: 'SUCCESS', conversions: firstWeek, ...base };
}
