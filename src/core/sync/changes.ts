// Syncs the ad account's activity log into change_events. A full sync reads the last 90 days; an
// incremental one reads from where the last read ended, less an overlap (Meta may list an event a
// little late). Rows key on a digest of the event, so a re-read window stores nothing twice.
import { createHash } from 'node:crypto';
import { microsToAmount, minorToMicros, minorUnitsPerMajor } from '../money';
import { changeTypeOf, changeValues, objectKindOf, type PlatformActivity } from '../platform/activities';
import type { GraphClient } from '../platform/graph-client';
import { graphTimeToIso } from '../platform/parse';
import type { Sql } from '../store/sql';
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

const INSERT_CHANGE = `INSERT INTO change_events (account_id, event_key, event_time, event_type, change_type,
    translated_event_type, object_type, platform_object_id, object_name, campaign_id, ad_set_id, ad_id, actor_id,
    actor_name, old_value, new_value, extra_data)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (account_id, event_key) DO NOTHING`;

export async function syncChanges(opts: {
  sql: Sql;
  client: GraphClient;
  account: AdAccount;
  maps: ObjectMaps;
  now: Date;
  incremental: boolean;
  checkpoint: () => void;
}): Promise<ChangeSyncResult> {
  const { sql, account, maps } = opts;
  const until = Math.floor(opts.now.getTime() / 1000);
  const readUntil = (
    await sql.get<{ changes_read_until: string | null }>(
      `SELECT changes_read_until FROM ad_accounts WHERE id = ?`,
      [account.id],
    )
  )?.changes_read_until;
  const fullSince = until - CHANGE_HISTORY_DAYS * 86_400;
  const since =
    opts.incremental && readUntil
      ? Math.max(fullSince, Math.floor(Date.parse(readUntil) / 1000) - CHANGE_OVERLAP_HOURS * 3600)
      : fullSince;
  const result: ChangeSyncResult = { read: 0, stored: 0 };
  for await (const page of opts.client.listActivities(account.platformAccountId, { since, until })) {
    opts.checkpoint();
    const rows = page.map((activity) => row(account, maps, activity));
    const stored = await sql.transaction(async (tx) => {
      let n = 0;
      for (const values of rows) n += (await tx.run(INSERT_CHANGE, values)).changes;
      return n;
    });
    result.read += page.length;
    result.stored += stored;
  }
  await sql.run(`UPDATE ad_accounts SET changes_read_until = ? WHERE id = ?`, [
    opts.now.toISOString(),
    account.id,
  ]);
  return result;
}

/** The change_events row of an activity, in INSERT_CHANGE's column order. */
function row(account: AdAccount, maps: ObjectMaps, a: PlatformActivity): (string | null)[] {
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
  return [
    account.id,
    key,
    graphTimeToIso(a.event_time) ?? a.event_time,
    a.event_type,
    changeTypeOf(a.event_type),
    a.translated_event_type ?? null,
    kind,
    objectId,
    a.object_name ?? '',
    campaignId,
    adSetId,
    adId,
    a.actor_id ?? null,
    a.actor_name ?? null,
    shown(values.oldValue, account.currency),
    shown(values.newValue, account.currency),
    a.extra_data ?? null,
  ];
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
