// Graph object serialization with `fields` selection: Meta sends only what is asked for (plus
// `id`), money in minor-unit strings, times as `2026-01-04T17:12:03-0800` in the account timezone.

import type { DeliveryModel } from './delivery';
import { invalidParameter } from './errors';
import { learningStageInfo } from './learning';
import { opportunityScore } from './routes/recommendations';
import { approxAmountSpent } from './world/blockers';
import { destinationType, optimizationGoal, promotedObject } from './results';
import { graphTime, zoneOffsetMinutes } from './time';
import { adEffectiveStatus, adSetEffectiveStatus, campaignEffectiveStatus } from './world/status';
import type { Account, Ad, AdSet, Campaign } from './world/types';

export interface FieldSpec {
  name: string;
  /** Sub-fields from `name{a,b}`, when given. */
  sub?: FieldSpec[];
}

/** Parses `a,b{c,d},e.limit(5){f}` into names with sub-fields (modifiers after a dot are ignored). */
export function parseFields(raw: string | undefined): FieldSpec[] | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  let i = 0;
  const parseList = (): FieldSpec[] => {
    const out: FieldSpec[] = [];
    while (i < raw.length) {
      let name = '';
      while (i < raw.length && !',{}'.includes(raw.charAt(i))) name += raw.charAt(i++);
      const spec: FieldSpec = { name: name.trim().split('.')[0] ?? '' };
      if (raw.charAt(i) === '{') {
        i++;
        spec.sub = parseList();
        if (raw.charAt(i) !== '}') throw invalidParameter('Syntax error in fields: missing }');
        i++;
      }
      if (spec.name) out.push(spec);
      if (raw.charAt(i) === ',') i++;
      else if (raw.charAt(i) === '}') return out;
    }
    return out;
  };
  return parseList();
}

type Getter = (name: string) => unknown;

function select(fields: FieldSpec[], get: Getter): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    let value = get(f.name);
    if (value === undefined) continue;
    if (f.sub && value && typeof value === 'object' && !Array.isArray(value)) {
      const inner = value as Record<string, unknown>;
      value = select(f.sub, (n) => inner[n]);
    }
    out[f.name] = value;
  }
  if (!('id' in out)) {
    const id = get('id');
    if (id !== undefined) out.id = id;
  }
  return out;
}

function minor(n: number | null | undefined): string | undefined {
  return n === null || n === undefined ? undefined : String(Math.round(n));
}

export { pixelId } from './results';

export function accountObject(
  model: DeliveryModel,
  a: Account,
  fields: FieldSpec[],
): Record<string, unknown> {
  const tz = a.timezone;
  const nowMs = model.world.todayDay * 86_400_000 + 12 * 3_600_000;
  return select(fields, (name) => {
    switch (name) {
      case 'id':
        return `act_${a.accountId}`;
      case 'account_id':
        return a.accountId;
      case 'name':
        return a.name;
      case 'currency':
        return a.currency;
      case 'timezone_name':
        return tz;
      case 'timezone_offset_hours_utc':
        return zoneOffsetMinutes(nowMs, tz) / 60;
      case 'account_status':
        return a.accountStatus;
      case 'disable_reason':
        return a.disableReason;
      case 'amount_spent':
        return String(approxAmountSpent(a));
      case 'spend_cap':
        return a.spendCapMinor === null ? '0' : String(a.spendCapMinor);
      case 'balance':
        return '0';
      case 'min_daily_budget':
        return 100;
      case 'business':
        return { id: a.business.id, name: a.business.name };
      case 'business_name':
        return a.business.name;
      case 'owner':
        return a.business.id;
      case 'created_time':
        return graphTime(a.createdTime, tz);
      case 'user_tasks':
        return [...a.userTasks];
      case 'is_personal':
        return 0;
      case 'is_prepay_account':
        return false;
      case 'capabilities':
        return [];
      case 'age':
        return Math.round((nowMs / 1000 - a.createdTime) / 86400);
      case 'opportunity_score':
        return opportunityScore(a);
      default:
        return undefined;
    }
  });
}

export function campaignObject(
  model: DeliveryModel,
  c: Campaign,
  fields: FieldSpec[],
): Record<string, unknown> {
  const tz = c.account.timezone;
  const cbo = c.budgetMode === 'CBO';
  return select(fields, (name) => {
    switch (name) {
      case 'id':
        return c.id;
      case 'account_id':
        return c.account.accountId;
      case 'name':
        return c.name;
      case 'objective':
        return c.objective;
      case 'status':
      case 'configured_status':
        return c.status;
      case 'effective_status':
        return campaignEffectiveStatus(c);
      case 'buying_type':
        return 'AUCTION';
      case 'bid_strategy':
        return cbo ? c.bidStrategy : undefined;
      case 'daily_budget':
        return cbo ? minor(c.dailyBudgetMinor) : undefined;
      case 'lifetime_budget':
        return cbo ? '0' : undefined;
      case 'budget_remaining':
        return cbo
          ? minor(
              Math.max(
                0,
                (c.dailyBudgetMinor ?? 0) - (model.campaignDay(c, model.world.todayDay)?.spend ?? 0),
              ),
            )
          : '0';
      case 'special_ad_categories':
        return [];
      case 'special_ad_category':
        return 'NONE';
      case 'pacing_type':
        return ['standard'];
      case 'start_time':
        return graphTime(c.startTime, tz);
      case 'created_time':
        return graphTime(c.createdTime, tz);
      case 'updated_time':
        return graphTime(c.updatedTime, tz);
      case 'smart_promotion_type':
        return 'GUIDED_CREATION';
      case 'source_campaign_id':
        return '0';
      case 'can_use_spend_cap':
        return true;
      case 'is_budget_schedule_enabled':
        return false;
      default:
        return undefined;
    }
  });
}

export function adSetObject(model: DeliveryModel, s: AdSet, fields: FieldSpec[]): Record<string, unknown> {
  const c = s.campaign;
  const tz = c.account.timezone;
  const abo = c.budgetMode === 'ABO';
  return select(fields, (name) => {
    switch (name) {
      case 'id':
        return s.id;
      case 'account_id':
        return c.account.accountId;
      case 'campaign_id':
        return c.id;
      case 'campaign':
        return { id: c.id, name: c.name };
      case 'name':
        return s.name;
      case 'status':
      case 'configured_status':
        return s.status;
      case 'effective_status':
        return adSetEffectiveStatus(s);
      case 'daily_budget':
        return abo ? minor(s.dailyBudgetMinor) : undefined;
      case 'lifetime_budget':
        return abo ? '0' : undefined;
      case 'budget_remaining':
        return abo
          ? minor(
              Math.max(
                0,
                (s.dailyBudgetMinor ?? 0) - (model.adSetTotal(s, model.world.todayDay)?.spend ?? 0),
              ),
            )
          : '0';
      case 'bid_amount':
        return s.bidAmountMinor ?? undefined;
      case 'bid_strategy':
        return s.bidStrategy;
      case 'billing_event':
        return 'IMPRESSIONS';
      case 'optimization_goal':
        return optimizationGoal(s);
      case 'promoted_object':
        return promotedObject(c);
      case 'targeting':
        return structuredClone(s.targeting);
      case 'attribution_spec':
        return [
          { event_type: 'CLICK_THROUGH', window_days: 7 },
          { event_type: 'VIEW_THROUGH', window_days: 1 },
        ];
      case 'destination_type':
        return destinationType(c.resultKind);
      case 'pacing_type':
        return ['standard'];
      case 'learning_stage_info':
        return learningStageInfo(model, s);
      case 'is_dynamic_creative':
        return false;
      case 'start_time':
        return graphTime(s.startTime, tz);
      case 'created_time':
        return graphTime(s.createdTime, tz);
      case 'updated_time':
        return graphTime(s.updatedTime, tz);
      default:
        return undefined;
    }
  });
}

export function customConversionObject(
  c: Campaign,
  fields: FieldSpec[],
): Record<string, unknown> | undefined {
  const conversion = c.customConversion;
  if (!conversion) return undefined;
  return select(fields, (name) => {
    switch (name) {
      case 'id':
        return conversion.id;
      case 'name':
        return conversion.name;
      case 'account_id':
        return c.account.accountId;
      case 'custom_event_type':
        return 'OTHER';
      case 'pixel':
        return { id: promotedObject(c)?.pixel_id };
      default:
        return undefined;
    }
  });
}

export function adObject(_model: DeliveryModel, ad: Ad, fields: FieldSpec[]): Record<string, unknown> {
  const s = ad.adSet;
  const c = s.campaign;
  const tz = c.account.timezone;
  return select(fields, (name) => {
    switch (name) {
      case 'id':
        return ad.id;
      case 'account_id':
        return c.account.accountId;
      case 'campaign_id':
        return c.id;
      case 'adset_id':
        return s.id;
      case 'campaign':
        return { id: c.id, name: c.name };
      case 'adset':
        return { id: s.id, name: s.name };
      case 'name':
        return ad.name;
      case 'status':
      case 'configured_status':
        return ad.status;
      case 'effective_status':
        return adEffectiveStatus(ad);
      case 'issues_info':
        return ad.review ? ad.review.issues.map((issue) => ({ ...issue })) : [];
      case 'creative':
        return { id: ad.creativeId, creative_id: ad.creativeId, name: `${ad.name} creative` };
      case 'created_time':
        return graphTime(ad.createdTime, tz);
      case 'updated_time':
        return graphTime(ad.updatedTime, tz);
      default:
        return undefined;
    }
  });
}
