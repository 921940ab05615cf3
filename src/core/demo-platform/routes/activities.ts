// GET /act_{id}/activities: the account's activity log, newest first, `since`/`until` (unix seconds
// or dates) and cursor paging like every other edge.

import { invalidParameter } from '../errors';
import { parseFields, type FieldSpec } from '../fields';
import { pageList, parseLimit } from '../paging';
import { graphTime } from '../time';
import { accountActivities, type Activity } from '../world/activities';
import type { Account } from '../world/types';
import { linkFor, param, type RouteContext, type RouteResult } from './context';

const DEFAULT_FIELDS = ['event_type', 'event_time', 'object_id', 'object_name', 'translated_event_type'];

function bound(raw: string | undefined, name: string, endOfDay: boolean): number | null {
  if (raw === undefined || raw === '') return null;
  if (/^\d+$/.test(raw)) return Number(raw);
  if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) {
    const ms = Date.parse(`${raw}T00:00:00Z`);
    if (!Number.isNaN(ms)) return ms / 1000 + (endOfDay ? 86_399 : 0);
  }
  throw invalidParameter(`Param ${name} must be a unix timestamp or a date (YYYY-MM-DD)`);
}

function activityObject(a: Activity, timezone: string, fields: FieldSpec[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const value = (() => {
      switch (f.name) {
        case 'event_type':
          return a.eventType;
        case 'event_time':
          return graphTime(a.eventTime, timezone);
        case 'date_time_in_timezone':
          return graphTime(a.eventTime, timezone).slice(0, 19).replace('T', ' ');
        case 'translated_event_type':
          return a.translatedEventType;
        case 'object_id':
          return a.objectId;
        case 'object_name':
          return a.objectName;
        case 'object_type':
          return a.objectType;
        case 'actor_id':
          return a.actorId;
        case 'actor_name':
          return a.actorName;
        case 'extra_data':
          return a.extraData;
        case 'application_id':
          return '119211728144504';
        case 'application_name':
          return 'Ads Manager';
        default:
          return undefined;
      }
    })();
    if (value !== undefined) out[f.name] = value;
  }
  return out;
}

export function activitiesEdge(ctx: RouteContext, account: Account): RouteResult {
  const since = bound(param(ctx, 'since'), 'since', false);
  const until = bound(param(ctx, 'until'), 'until', true);
  const fields =
    parseFields(param(ctx, 'fields')) ?? DEFAULT_FIELDS.map((name) => ({ name }) satisfies FieldSpec);
  const items = accountActivities(ctx.world, account).filter(
    (a) => (since === null || a.eventTime >= since) && (until === null || a.eventTime <= until),
  );
  const page = pageList(
    items,
    (a) => a.key,
    { limit: parseLimit(param(ctx, 'limit')), after: param(ctx, 'after'), before: param(ctx, 'before') },
    linkFor(ctx),
  );
  return { body: { ...page, data: page.data.map((a) => activityObject(a, account.timezone, fields)) } };
}
