// /insights rows: entities at the requested level, bucketed by time_increment, metrics summed from
// the ads so every level agrees, formatted the way Meta sends them (strings, omitted when empty).

import { addInto, emptyMetrics, hasDelivery, type DeliveryModel, type Metrics } from './delivery';
import {
  decodeCursor,
  encodeCursor,
  invalidCursor,
  type ListPage,
  type PageRequest,
  type Paging,
} from './paging';
import { buckets, LEVEL_RANK, type InsightsQuery, type Level, type Scope } from './insights-query';
import { formatRow, type InsightRow } from './insights-format';
import { dateOfDay } from './time';
import {
  adEffectiveStatus,
  adSetEffectiveStatus,
  campaignEffectiveStatus,
  visibleByDefault,
} from './world/status';
import type { Account, Ad, AdSet, Campaign } from './world/types';

export type { InsightRow } from './insights-format';

interface Entity {
  level: Level;
  account: Account;
  campaign?: Campaign;
  adSet?: AdSet;
  ad?: Ad;
}

function statusAt(e: Entity, level: Level): string | undefined {
  if (level === 'campaign' && e.campaign) return campaignEffectiveStatus(e.campaign);
  if (level === 'adset' && e.adSet) return adSetEffectiveStatus(e.adSet);
  if (level === 'ad' && e.ad) return adEffectiveStatus(e.ad);
  return undefined;
}

function idAt(e: Entity, level: Level): string | undefined {
  if (level === 'campaign') return e.campaign?.id;
  if (level === 'adset') return e.adSet?.id;
  if (level === 'ad') return e.ad?.id;
  return undefined;
}

/** `asked`: the entity is the object the request was made on (readable by its id whatever its status). */
function passes(e: Entity, q: InsightsQuery, onlyUpTo: number, asked = false): boolean {
  const statusFiltered = q.filters.some((f) => f.field === 'effective_status');
  if (!statusFiltered && !asked && e.level !== 'account') {
    const own = statusAt(e, e.level);
    if (own !== undefined && !visibleByDefault(own)) return false;
  }
  for (const f of q.filters) {
    if (LEVEL_RANK[f.level] > onlyUpTo) continue;
    const value = f.field === 'id' ? idAt(e, f.level) : statusAt(e, f.level);
    if (value === undefined) continue;
    if (f.values.has(value) === f.negate) return false;
  }
  return true;
}

/** The entities rows are produced for, in a stable order. */
export function insightEntities(scope: Scope, q: InsightsQuery): Entity[] {
  const account = scope.account;
  const campaigns =
    scope.kind === 'account'
      ? account.campaigns
      : scope.kind === 'campaign'
        ? [scope.campaign]
        : scope.kind === 'adset'
          ? [scope.adSet.campaign]
          : [scope.ad.adSet.campaign];
  const out: Entity[] = [];
  if (q.level === 'account') return [{ level: 'account', account }];
  const rank = LEVEL_RANK[q.level];
  for (const campaign of campaigns) {
    if (rank === 1) {
      out.push({ level: 'campaign', account, campaign });
      continue;
    }
    for (const adSet of campaign.adSets) {
      if (scope.kind === 'adset' && adSet !== scope.adSet) continue;
      if (scope.kind === 'ad' && adSet !== scope.ad.adSet) continue;
      if (rank === 2) {
        out.push({ level: 'adset', account, campaign, adSet });
        continue;
      }
      for (const ad of adSet.ads) {
        if (scope.kind === 'ad' && ad !== scope.ad) continue;
        out.push({ level: 'ad', account, campaign, adSet, ad });
      }
    }
  }
  return out.filter((e) => passes(e, q, rank, e.level === scope.kind));
}

/** Filters on levels below the row level narrow which ads are summed. */
function adFilter(q: InsightsQuery): ((ad: Ad) => boolean) | null {
  const deeper = q.filters.filter((f) => LEVEL_RANK[f.level] > LEVEL_RANK[q.level]);
  if (deeper.length === 0) return null;
  return (ad) =>
    passes(
      { level: 'ad', account: ad.adSet.campaign.account, campaign: ad.adSet.campaign, adSet: ad.adSet, ad },
      { ...q, filters: deeper },
      3,
    );
}

function entityDay(
  model: DeliveryModel,
  e: Entity,
  day: number,
  only: ((ad: Ad) => boolean) | null,
): Metrics | null {
  if (only) {
    const ads = e.ad
      ? [e.ad]
      : e.adSet
        ? e.adSet.ads
        : e.campaign
          ? e.campaign.adSets.flatMap((s) => s.ads)
          : e.account.campaigns.flatMap((c) => c.adSets.flatMap((s) => s.ads));
    let total: Metrics | null = null;
    for (const ad of ads) {
      if (!only(ad)) continue;
      const row = model.adDay(ad, day);
      if (row) total = addInto(total ?? emptyMetrics(), row);
    }
    return total;
  }
  if (e.ad) return model.adDay(e.ad, day);
  if (e.adSet) return model.adSetTotal(e.adSet, day);
  if (e.campaign) return model.campaignDay(e.campaign, day);
  return model.accountDay(e.account, day);
}

export class InsightsRows {
  private readonly entities: Entity[];
  private readonly buckets: Array<[number, number]>;
  private readonly only: ((ad: Ad) => boolean) | null;

  constructor(
    private readonly model: DeliveryModel,
    scope: Scope,
    private readonly q: InsightsQuery,
  ) {
    this.entities = insightEntities(scope, q);
    this.buckets = buckets(q);
    this.only = adFilter(q);
  }

  /** The most rows this query can give (entities × buckets): what a synchronous read is sized by. */
  get maxRows(): number {
    return this.entities.length * this.buckets.length;
  }

  /** Rows of one entity with their bucket index. */
  rowsOf(index: number): Array<{ b: number; row: InsightRow }> {
    const e = this.entities[index];
    if (!e) return [];
    const { firstDay, todayDay } = this.model.world;
    const out: Array<{ b: number; row: InsightRow }> = [];
    this.buckets.forEach(([start, stop], b) => {
      const total = emptyMetrics();
      let maxReach = 0;
      let days = 0;
      for (let day = Math.max(start, firstDay); day <= Math.min(stop, todayDay); day++) {
        const m = entityDay(this.model, e, day, this.only);
        if (!m) continue;
        addInto(total, m);
        maxReach = Math.max(maxReach, m.reach);
        days++;
      }
      if (!hasDelivery(total)) return;
      // Reach is not additive over days: people seen on several days count once.
      if (days > 1)
        total.reach = Math.min(
          total.impressions,
          Math.max(maxReach, Math.round(total.reach / (1 + 0.3 * Math.log(days)))),
        );
      out.push({ b, row: formatRow(e, total, this.q, dateOfDay(start), dateOfDay(stop)) });
    });
    return out;
  }

  /** One page; cursors are the (entity, bucket) position of a row. */
  page(req: PageRequest, link: (c: { after?: string; before?: string }) => string): ListPage<InsightRow> {
    const n = this.entities.length;
    const collected: Array<{ e: number; b: number; row: InsightRow }> = [];
    let hasNext = false;
    let hasPrev = false;
    if (req.before !== undefined) {
      const [pe, pb] = decodePosition(req.before);
      hasNext = true;
      for (let e = Math.min(pe, n - 1); e >= 0; e--) {
        const rows = this.rowsOf(e)
          .filter((r) => e < pe || r.b < pb)
          .reverse();
        for (const r of rows) {
          if (collected.length === req.limit) {
            hasPrev = true;
            break;
          }
          collected.push({ e, ...r });
        }
        if (hasPrev) break;
      }
      collected.reverse();
    } else {
      const [se, sb] = req.after !== undefined ? decodePosition(req.after) : [0, -1];
      hasPrev = req.after !== undefined;
      for (let e = se; e < n && !hasNext; e++) {
        for (const r of this.rowsOf(e)) {
          if (e === se && r.b <= sb) continue;
          if (collected.length === req.limit) {
            hasNext = true;
            break;
          }
          collected.push({ e, ...r });
        }
      }
    }
    const first = collected[0];
    const last = collected[collected.length - 1];
    if (!first || !last) return { data: [] };
    const before = encodeCursor(`${first.e}:${first.b}`);
    const after = encodeCursor(`${last.e}:${last.b}`);
    const paging: Paging = { cursors: { before, after } };
    if (hasPrev) paging.previous = link({ before });
    if (hasNext) paging.next = link({ after });
    return { data: collected.map((c) => c.row), paging };
  }
}

function decodePosition(cursor: string): [number, number] {
  const match = /^(\d+):(-?\d+)$/.exec(decodeCursor(cursor));
  if (!match) throw invalidCursor();
  return [Number(match[1]), Number(match[2])];
}
