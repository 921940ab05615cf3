// The change history read model: a campaign's synced activity log entries (its own, its ad sets' and
// its ads'), newest first, in the shared ChangeEvent view.
import type { ChangeEvent, ChangeType } from '../../shared/api/changes';
import type { Sql } from '../store/sql';

/** How many entries a campaign's history returns at most (90 days of edits rarely come close). */
export const CHANGES_LIMIT = 500;

interface ChangeRow {
  change_type: ChangeType;
  event_type: string;
  translated_event_type: string | null;
  event_time: string;
  actor_id: string | null;
  actor_name: string | null;
  object_type: ChangeEvent['objectType'];
  object_name: string;
  campaign_id: string | null;
  campaign_name: string | null;
  ad_set_id: string | null;
  ad_set_name: string | null;
  ad_id: string | null;
  ad_name: string | null;
  old_value: string | null;
  new_value: string | null;
}

export async function campaignChanges(
  sql: Sql,
  campaignId: string,
  limit = CHANGES_LIMIT,
): Promise<ChangeEvent[]> {
  const rows = await sql.all<ChangeRow>(
    `SELECT e.change_type, e.event_type, e.translated_event_type, e.event_time, e.actor_id, e.actor_name,
         e.object_type, e.object_name, e.campaign_id, c.name AS campaign_name, e.ad_set_id, s.name AS ad_set_name,
         e.ad_id, d.name AS ad_name, e.old_value, e.new_value
       FROM change_events e
       LEFT JOIN campaigns c ON c.id = e.campaign_id
       LEFT JOIN ad_sets s ON s.id = e.ad_set_id
       LEFT JOIN ads d ON d.id = e.ad_id
       WHERE e.campaign_id = ? ORDER BY e.event_time DESC, e.id DESC LIMIT ?`,
    [campaignId, limit],
  );
  return rows.map(toChangeEvent);
}

/** The account's latest changes (any campaign, ad set, ad or the account itself), newest first. */
export async function accountChanges(sql: Sql, accountId: string, limit: number): Promise<ChangeEvent[]> {
  const rows = await sql.all<ChangeRow>(
    `SELECT e.change_type, e.event_type, e.translated_event_type, e.event_time, e.actor_id, e.actor_name,
         e.object_type, e.object_name, e.campaign_id, c.name AS campaign_name, e.ad_set_id, s.name AS ad_set_name,
         e.ad_id, d.name AS ad_name, e.old_value, e.new_value
       FROM change_events e
       LEFT JOIN campaigns c ON c.id = e.campaign_id
       LEFT JOIN ad_sets s ON s.id = e.ad_set_id
       LEFT JOIN ads d ON d.id = e.ad_id
       WHERE e.account_id = ? ORDER BY e.event_time DESC, e.id DESC LIMIT ?`,
    [accountId, limit],
  );
  return rows.map(toChangeEvent);
}

function touched(id: string | null, name: string | null): { id: string; name: string } | null {
  return id === null ? null : { id, name: name ?? '' };
}

/** Short values are worth a sentence; JSON (a targeting spec) is left to oldValue/newValue. */
const short = (v: string | null) => v !== null && v.length <= 40 && !v.startsWith('{') && !v.startsWith('[');

function toChangeEvent(r: ChangeRow): ChangeEvent {
  const label = r.translated_event_type ?? r.event_type.replaceAll('_', ' ');
  const values = short(r.old_value) && short(r.new_value) ? `: ${r.old_value} → ${r.new_value}` : '';
  return {
    changeType: r.change_type,
    eventType: r.event_type,
    description: `${label}${values} (${r.object_name})`,
    at: r.event_time,
    actor: { id: r.actor_id, name: r.actor_name },
    objectType: r.object_type,
    objectName: r.object_name,
    campaign: touched(r.campaign_id, r.campaign_name),
    adSet: touched(r.ad_set_id, r.ad_set_name),
    ad: touched(r.ad_id, r.ad_name),
    oldValue: r.old_value,
    newValue: r.new_value,
  };
}
