// Controls that change the world itself (unlike the transport switches in controls.ts): upstream
// edits made in Ads Manager, and conversions attributed late. Both keep every level coherent.

import type { DeliveryModel } from './delivery';
import { invalidParameter, unknownObject } from './errors';
import { dayNumber } from './time';
import type { DemoControls } from './types';
import type { World } from './world/types';

type WorldControls = Pick<DemoControls, 'setStatus' | 'attributeLate'>;

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
  };
}
