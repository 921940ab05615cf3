// The ad account's activity log (Graph `/act_{id}/activities`), derived from the world so it agrees
// with what the other edges show: objects created, budget edits (the significant edits that reset
// learning, the budget cuts of learning-stall scenarios), pauses and removals, creative swaps, ad
// review outcomes and an attribution change on some campaigns. Actors and the few choices the world
// does not fix come from their own random stream, so nothing else in the world changes.

import { hash32, Rng } from '../prng';
import { zonedEpochSeconds } from '../time';
import type { Account, World } from './types';

export interface Activity {
  /** Stable key for cursors (Meta's activities have no id). */
  key: string;
  eventTime: number;
  eventType: string;
  translatedEventType: string;
  objectId: string;
  objectName: string;
  /** Meta's vocabulary: CAMPAIGN_GROUP = campaign, CAMPAIGN = ad set, ADGROUP = ad. */
  objectType: 'ACCOUNT' | 'CAMPAIGN_GROUP' | 'CAMPAIGN' | 'ADGROUP';
  actorId: string;
  actorName: string;
  /** JSON as Meta sends it: a string. */
  extraData: string;
}

const ACTORS = ['Dana Whitfield', 'Marco Ruiz', 'Priya Natarajan', 'Tom Becker'] as const;

const TRANSLATED: Record<string, string> = {
  create_campaign_group: 'Created campaign',
  create_ad_set: 'Created ad set',
  create_ad: 'Created ad',
  update_campaign_budget: 'Campaign budget updated',
  update_ad_set_budget: 'Ad set budget updated',
  update_ad_set_bid_strategy: 'Ad set bid strategy updated',
  update_ad_set_target_spec: 'Ad set targeting updated',
  update_ad_set_attribution_spec: 'Ad set attribution setting updated',
  update_campaign_run_status: 'Campaign status updated',
  update_ad_set_run_status: 'Ad set status updated',
  update_ad_run_status: 'Ad status updated',
  update_ad_creative: 'Ad creative updated',
  ad_review_declined: 'Ad rejected',
  update_ad_set_duration: 'Ad set schedule updated',
};

/** Every activity of an account within the served history, newest first. */
export function accountActivities(world: World, account: Account): Activity[] {
  const out: Activity[] = [];
  const tz = account.timezone;
  const firstTime = zonedEpochSeconds(world.firstDay, 0, tz);
  const nowTime = zonedEpochSeconds(world.todayDay, 23 * 3600, tz);
  const actor = (...parts: (string | number)[]) => {
    const i = hash32(world.seed, 'activity-actor', ...parts) % ACTORS.length;
    return {
      actorId: `10${String(hash32(world.seed, 'actor', i) % 1e9).padStart(9, '0')}0${i}`,
      actorName: ACTORS[i] ?? 'Analyst',
    };
  };
  const at = (day: number, salt: string) =>
    zonedEpochSeconds(day, 9 * 3600 + (hash32(world.seed, 'activity-time', salt) % (9 * 3600)), tz);
  const push = (a: Omit<Activity, 'key' | 'translatedEventType' | 'actorId' | 'actorName'>) => {
    if (a.eventTime < firstTime || a.eventTime > nowTime) return;
    out.push({
      ...a,
      key: `${a.objectId}.${a.eventType}.${a.eventTime}`,
      translatedEventType: TRANSLATED[a.eventType] ?? a.eventType,
      ...actor(a.objectId, a.eventType),
    });
  };
  const money = (minor: number) => ({ amount: minor, currency: account.currency });
  const change = (oldValue: unknown, newValue: unknown, type?: string) =>
    JSON.stringify({ ...(type ? { type } : {}), old_value: oldValue, new_value: newValue });

  for (const c of account.campaigns) {
    const rng = Rng.of(world.seed, 'activities', c.key);
    const campaign = { objectId: c.id, objectName: c.name, objectType: 'CAMPAIGN_GROUP' as const };
    push({ ...campaign, eventTime: c.createdTime, eventType: 'create_campaign_group', extraData: '{}' });
    if (c.status !== 'ACTIVE' && c.endDay !== null) {
      push({
        ...campaign,
        eventTime: at(c.endDay + 1, `${c.id}-status`),
        eventType: 'update_campaign_run_status',
        extraData: change('ACTIVE', c.status, 'run_status'),
      });
    }
    if (c.budgetMode === 'CBO' && c.dailyBudgetMinor !== null && c.updatedTime > c.createdTime + 86_400) {
      // The campaign's last edit was its budget (raised a little).
      const before = Math.round(c.dailyBudgetMinor / rng.range(1.1, 1.3));
      push({
        ...campaign,
        eventTime: c.updatedTime,
        eventType: 'update_campaign_budget',
        extraData: change(money(before), money(c.dailyBudgetMinor), 'payment_amount'),
      });
    }
    // Some live campaigns moved from 1-day click to 7-day click / 1-day view attribution.
    if (c.status === 'ACTIVE' && rng.chance(0.12)) {
      const day = world.todayDay - rng.int(10, 60);
      for (const s of c.adSets.filter((x) => x.startDay < day)) {
        push({
          objectId: s.id,
          objectName: s.name,
          objectType: 'CAMPAIGN',
          eventTime: at(day, `${s.id}-attribution`),
          eventType: 'update_ad_set_attribution_spec',
          extraData: change('1d_click', '7d_click_1d_view', 'attribution_spec'),
        });
      }
    }
    for (const s of c.adSets) {
      const adSet = { objectId: s.id, objectName: s.name, objectType: 'CAMPAIGN' as const };
      push({ ...adSet, eventTime: s.createdTime, eventType: 'create_ad_set', extraData: '{}' });
      if (s.budgetChangeDay !== null && s.previousBudgetMinor !== null && s.dailyBudgetMinor !== null) {
        push({
          ...adSet,
          eventTime: at(s.budgetChangeDay, `${s.id}-budget`),
          eventType: 'update_ad_set_budget',
          extraData: change(money(s.previousBudgetMinor), money(s.dailyBudgetMinor), 'payment_amount'),
        });
      } else if (s.lastSigEditDay > s.startDay + 1) {
        // The significant edit learning_stage_info reports: a budget raise (ABO) or a targeting edit.
        const eventTime = at(s.lastSigEditDay, `${s.id}-sig`);
        if (s.dailyBudgetMinor !== null) {
          const before = Math.round(s.dailyBudgetMinor / rng.range(1.15, 1.5));
          push({
            ...adSet,
            eventTime,
            eventType: 'update_ad_set_budget',
            extraData: change(money(before), money(s.dailyBudgetMinor), 'payment_amount'),
          });
        } else {
          const narrower = {
            ...s.targeting,
            age_max: Math.max(s.targeting.age_min + 5, s.targeting.age_max - 10),
          };
          push({
            ...adSet,
            eventTime,
            eventType: 'update_ad_set_target_spec',
            extraData: change(narrower, s.targeting, 'targeting'),
          });
        }
      }
      if (s.status !== 'ACTIVE' && s.endDay !== null && s.endDay >= s.startDay) {
        push({
          ...adSet,
          eventTime: at(s.endDay + 1, `${s.id}-status`),
          eventType: 'update_ad_set_run_status',
          extraData: change('ACTIVE', s.status, 'run_status'),
        });
      }
      for (const ad of s.ads) {
        const adObject = { objectId: ad.id, objectName: ad.name, objectType: 'ADGROUP' as const };
        push({ ...adObject, eventTime: ad.createdTime, eventType: 'create_ad', extraData: '{}' });
        if (ad.updatedTime > ad.createdTime) {
          push({
            ...adObject,
            eventTime: ad.updatedTime,
            eventType: 'update_ad_creative',
            extraData: change(
              `${ad.creativeId.slice(0, -3)}${String(hash32(ad.key, 'old') % 1000).padStart(3, '0')}`,
              ad.creativeId,
              'creative',
            ),
          });
        }
        if (ad.review) {
          push({
            ...adObject,
            eventTime: at(ad.review.day, `${ad.id}-review`),
            eventType:
              ad.review.effectiveStatus === 'DISAPPROVED' ? 'ad_review_declined' : 'update_ad_run_status',
            extraData: change('ACTIVE', ad.review.effectiveStatus, 'review'),
          });
        }
        if (ad.status !== 'ACTIVE' && ad.endDay !== null && ad.endDay >= ad.startDay) {
          push({
            ...adObject,
            eventTime: at(ad.endDay + 1, `${ad.id}-status`),
            eventType: 'update_ad_run_status',
            extraData: change('ACTIVE', ad.status, 'run_status'),
          });
        }
      }
    }
  }
  out.sort((a, b) => b.eventTime - a.eventTime || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  // Identical keys (two edits in one second) would break cursors: keep the first.
  return out.filter((a, i) => i === 0 || out[i - 1]?.key !== a.key);
}
