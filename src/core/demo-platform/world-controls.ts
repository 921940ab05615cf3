// Controls that change the world itself (unlike the transport switches in controls.ts): upstream
// edits made in Ads Manager, and conversions attributed late. Both keep every level coherent.

import type { DeliveryModel } from './delivery';
import { invalidParameter, unknownObject } from './errors';
import { dayNumber } from './time';
import type { DemoControls } from './types';
import { approxAmountSpent, POLICY_ISSUES } from './world/blockers';
import type { AdIssue, World } from './world/types';

function pastDay(world: World, date: string, control: string): number {
  const day = dayNumber(date);
  if (!(day >= world.firstDay && day <= world.todayDay))
    throw invalidParameter(`${control}: no such day ${date}`);
  return day;
}

type WorldControls = Pick<DemoControls, 'setStatus' | 'attributeLate' | 'disapproveAd' | 'reachSpendCap'>;

export function worldControlsFor(world: World, model: DeliveryModel): WorldControls {
  return {
    setStatus: (objectId, status) => {
      const node = world.nodes.get(objectId);
      if (!node || node.kind === 'account') throw unknownObject(objectId);
      const target = node.kind === 'campaign' ? node.campaign : node.kind === 'adset' ? node.adSet : node.ad;
      target.status = status;
      // An edit made now: updated_since listings return it.
      target.updatedTime = Math.max(target.updatedTime, Math.floor(Date.now() / 1000));
      model.clearCaches();
    },
    attributeLate: (adSetId, date, results) => {
      const node = world.nodes.get(adSetId);
      if (node?.kind !== 'adset') throw unknownObject(adSetId);
      const day = dayNumber(date);
      if (day < world.firstDay || day > world.todayDay || !Number.isInteger(results) || results < 0)
        throw invalidParameter(`attributeLate: no such day ${date} or bad count ${results}`);
      model.addLateResults(node.adSet, day, results);
    },
    disapproveAd: (adId, date) => {
      const node = world.nodes.get(adId);
      if (node?.kind !== 'ad') throw unknownObject(adId);
      const day = pastDay(world, date, 'disapproveAd');
      const ad = node.ad;
      ad.review = { effectiveStatus: 'DISAPPROVED', issues: [{ ...(POLICY_ISSUES[0] as AdIssue) }], day };
      ad.endDay = Math.min(ad.endDay ?? day - 1, day - 1);
      ad.updatedTime = Math.max(ad.updatedTime, Math.floor(Date.now() / 1000));
      model.clearCaches();
    },
    reachSpendCap: (accountId, date) => {
      const node = world.nodes.get(accountId.startsWith('act_') ? accountId : `act_${accountId}`);
      if (node?.kind !== 'account') throw unknownObject(accountId);
      const account = node.account;
      account.lastDeliveryDay = Math.min(account.lastDeliveryDay, pastDay(world, date, 'reachSpendCap') - 1);
      account.spendCapMinor = approxAmountSpent(account);
      model.clearCaches();
    },
  };
}
