// Syncs the ad account's activity log into change_events. A full sync reads the last 90 days; an
// incremental one reads from where the last read ended, less an overlap (Meta may list an event a
// little late). Rows key on a digest of the event, so a re-read window stores nothing twice.
import { createHash } from 'node:crypto';
import { microsToAmount, minorToMicros, minorUnitsPerMajor } from '../money';
import { changeTypeOf, changeValues, objectKindOf, type PlatformActivity } from '../platform/activities';
import type { GraphClient } from '../platform/graph-client';
import { graphTimeToIso } from '../platform/parse';
import type { Db } from '../store/open';
import type { AdAccount } from './accounts';
import type { ObjectMaps } from './upserts';

/** Days of history a full sync reads. */
export const CHANGE_HISTORY_DAYS = 90;
/** How far back of the last read an incremental sync starts again. */
export const CHANGE_OVERLAP_HOURS = 24;

export interface ChangeSyncResult {
  read: number;
  stored: number;
}

export async function syncChanges(opts: {
  db: Db;
  client: GraphClient;
  account: AdAccount;
  maps: ObjectMaps;
  now: Date;
  incremental: boolean;
  checkpoint: () => void;
}): Promise<ChangeSyncResult> {
  const { db, account, maps } = opts;
  const until = Math.floor(opts.now.getTime() / 1000);
  const readUntil = (
    db.prepare(`SELECT changes_read_until FROM ad_accounts WHERE id = ?`).get(account.id) as
      { changes_read_until: string | null } | undefined
  )?.changes_read_until;
  const fullSince = until - CHANGE_HISTORY_DAYS * 86_400;
  const since =
    opts.incremental && readUntil
      ? Math.max(fullSince, Math.floor(Date.parse(readUntil) / 1000) - CHANGE_OVERLAP_HOURS * 3600)
      : fullSince;
  const insert = db.prepare(`
    INSERT INTO change_events (account_id, event_key, event_time, event_type, change_type, translated_event_type,
      object_type, platform_object_id, object_name, campaign_id, ad_set_id, ad_id, actor_id, actor_name,
      old_value, new_value, extra_data)
    VALUES (@account_id, @event_key, @event_time, @event_type, @change_type, @translated_event_type,
      @object_type, @platform_object_id, @object_name, @campaign_id, @ad_set_id, @ad_id, @actor_id, @actor_name,
      @old_value, @new_value, @extra_data)
    ON CONFLICT (account_id, event_key) DO NOTHING`);
  const result: ChangeSyncResult = { read: 0, stored: 0 };
  for await (const page of opts.client.listActivities(account.platformAccountId, { since, until })) {
    opts.checkpoint();
    db.transaction(() => {
      for (const activity of page) {
        result.read += 1;
        result.stored += insert.run(row(account, maps, activity)).changes;
      }
    })();
  }
  db.prepare(`UPDATE ad_accounts SET changes_read_until = ? WHERE id = ?`).run(
    opts.now.toISOString(),
    account.id,
  );
  return result;
}

function row(account: AdAccount, maps: ObjectMaps, a: PlatformActivity): Record<string, string | null> {
  const kind = objectKindOf(a.object_type);
  const objectId = a.object_id ?? '';
  let campaignId: string | null = null;
  let adSetId: string | null = null;
  let adId: string | null = null;
  if (kind === 'campaign') campaignId = maps.campaigns.get(objectId)?.id ?? null;
  if (kind === 'adSet') {
    const adSet = maps.adSets.get(objectId);
    adSetId = adSet?.id ?? null;
    campaignId = adSet?.campaignId ?? null;
  }
  if (kind === 'ad') {
    const ad = maps.ads.get(objectId);
    adId = ad?.id ?? null;
    adSetId = ad?.adSetId ?? null;
    campaignId = ad?.campaignId ?? null;
  }
  const values = changeValues(a.extra_data);
  const key = createHash('sha256')
    .update(JSON.stringify([a.event_time, a.event_type, objectId, a.actor_id ?? '', a.extra_data ?? '']))
    .digest('base64url')
    .slice(0, 22);
  return {
    account_id: account.id,
    event_key: key,
    event_time: graphTimeToIso(a.event_time) ?? a.event_time,
    event_type: a.event_type,
    change_type: changeTypeOf(a.event_type),
    translated_event_type: a.translated_event_type ?? null,
    object_type: kind,
    platform_object_id: objectId,
    object_name: a.object_name ?? '',
    campaign_id: campaignId,
    ad_set_id: adSetId,
    ad_id: adId,
    actor_id: a.actor_id ?? null,
    actor_name: a.actor_name ?? null,
    old_value: shown(values.oldValue, account.currency),
    new_value: shown(values.newValue, account.currency),
    extra_data: a.extra_data ?? null,
  };
}

/** Money as `{amount, currency}` in minor units → "25.00 EUR"; other values as they came. */
function shown(value: string | null, accountCurrency: string): string | null {
  if (value === null || !value.startsWith('{')) return value;
  try {
    const parsed = JSON.parse(value) as { amount?: unknown; currency?: unknown };
    if (typeof parsed.amount === 'number' || typeof parsed.amount === 'string') {
      const currency = typeof parsed.currency === 'string' ? parsed.currency : accountCurrency;
      const major = microsToAmount(minorToMicros(parsed.amount, currency));
      return `${major.toFixed(minorUnitsPerMajor(currency) === 1 ? 0 : 2)} ${currency}`;
    }
  } catch {
    // Not JSON after all: keep it as sent.
  }
  return value;
}
