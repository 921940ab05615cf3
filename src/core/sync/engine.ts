import { addDays, dateInZone, daysBetween } from '../clock';
import { ALL_EFFECTIVE_STATUSES, type GraphClient, type InsightLevel } from '../platform/graph-client';
import { accountStatus } from '../platform/parse';
import type { Sql } from '../store/sql';
import type { AdAccount } from './accounts';
import { syncChanges } from './changes';
import type { SyncKind } from './runs';
import { concurrencyFor, InsightReader, Limiter, planPieces } from './insight-reader';
import { loadObjectMaps, SyncWriter } from './upserts';

/** Days of daily insights a full sync reads, ending today in the account's timezone. */
export const INSIGHT_DAYS = 90;
/**
 * Days an incremental sync re-reads: Meta keeps attributing conversions to the day of the click or
 * view for up to 28 days (the longest attribution window). Unchanged rows are not rewritten.
 */
export const REREAD_DAYS = 28;
/**
 * Days an incremental sync re-reads for every ad (today, still delivering, and the days before it).
 * Older days of the re-read window are re-read at ad level only for ad sets whose day changed: an
 * ad set's day is the sum of its ads' days, so an unchanged ad set has unchanged ads.
 */
export const AD_REREAD_DAYS = 3;
/** Above this many campaigns without insights, an incremental sync reads the whole range account-wide. */
const PER_CAMPAIGN_BACKFILL_LIMIT = 10;

export type SyncPhase = 'structure' | 'insights:campaign' | 'insights:ad_set' | 'insights:ad' | 'finishing';

export interface SyncStats {
  kind: SyncKind;
  since: string;
  until: string;
  campaigns: number;
  adSets: number;
  ads: number;
  insightRows: { campaign: number; adSet: number; ad: number };
  /** Insight rows inserted or changed; a re-read of unchanged days writes none. */
  insightRowsWritten: number;
  /** Campaigns (service IDs) whose insights this sync inserted or changed. */
  changedCampaignIds: string[];
  /** Children whose parent was not returned, and insight rows for objects not synced. */
  skipped: number;
  backfilledCampaigns: number;
  /** Activity log entries read, and those new to the store (a re-read window adds none). */
  changesRead: number;
  changesStored: number;
  requests: number;
  retries: number;
  throttleWaits: number;
  limitHalvings: number;
  /** Insight queries (date chunks, ID batches), how many ran as async reports, and refusals split. */
  insightChunks: number;
  asyncReports: number;
  chunkSplits: number;
  /** Waits the usage headers asked for, and their total. */
  paceWaits: number;
  paceWaitMs: number;
}

export class SyncStopped extends Error {
  constructor() {
    super('the sync was stopped before it finished; what it committed is kept');
    this.name = 'SyncStopped';
  }
}

export interface SyncJob {
  sql: Sql;
  client: GraphClient;
  account: AdAccount;
  kind: SyncKind;
  now: () => Date;
  /** Start of the last completed sync: incremental reads objects updated since then. */
  updatedSince: string | null;
  /** Awaited: the run row's progress is written before the sync goes on. */
  onProgress: (phase: SyncPhase, percent: number) => Promise<void>;
  isStopped: () => boolean;
}

const LEVEL_PHASE: Record<InsightLevel, SyncPhase> = {
  campaign: 'insights:campaign',
  adset: 'insights:ad_set',
  ad: 'insights:ad',
};
// Percent bands per phase: structure is cheap, ad-level insights are most of the rows.
const BANDS: Record<SyncPhase, [number, number]> = {
  structure: [0, 10],
  'insights:campaign': [10, 25],
  'insights:ad_set': [25, 50],
  'insights:ad': [50, 95],
  finishing: [95, 100],
};

/**
 * One sync of one account: structure (campaigns, ad sets, ads), then daily insights at campaign, ad set
 * and ad level. Every page is committed in its own transaction, so a process killed mid-way keeps what
 * it wrote, and upserts make the next run's re-reads harmless.
 */
export async function runSync(job: SyncJob): Promise<SyncStats> {
  const { sql, client, account } = job;
  const stamp = () => job.now().toISOString();
  const today = dateInZone(job.now(), account.timezone);
  const writer = new SyncWriter(sql, account.id, account.currency);
  const stats: SyncStats = {
    kind: job.kind,
    since: addDays(today, -(INSIGHT_DAYS - 1)),
    until: today,
    campaigns: 0,
    adSets: 0,
    ads: 0,
    insightRows: { campaign: 0, adSet: 0, ad: 0 },
    insightRowsWritten: 0,
    changedCampaignIds: [],
    skipped: 0,
    backfilledCampaigns: 0,
    changesRead: 0,
    changesStored: 0,
    requests: 0,
    retries: 0,
    throttleWaits: 0,
    limitHalvings: 0,
    insightChunks: 0,
    asyncReports: 0,
    chunkSplits: 0,
    paceWaits: 0,
    paceWaitMs: 0,
  };
  const progress = (phase: SyncPhase, fraction: number): Promise<void> => {
    const [from, to] = BANDS[phase];
    return job.onProgress(phase, Math.floor(from + (to - from) * Math.min(1, Math.max(0, fraction))));
  };
  const checkpoint = () => {
    if (job.isStopped()) throw new SyncStopped();
  };

  // Structure.
  await progress('structure', 0);
  const platformAccount = await client.getAdAccount(account.platformAccountId);
  await sql.run(
    `UPDATE ad_accounts SET name = ?, status = ?, business_id = ?, business_name = ? WHERE id = ?`,
    [
      platformAccount.name,
      accountStatus(platformAccount.account_status),
      platformAccount.business?.id ?? '',
      platformAccount.business?.name ?? '',
      account.id,
    ],
  );
  await writer.accountLimits(platformAccount);
  // Every status: edges hide archived and deleted objects unless asked, and an object archived
  // upstream must be seen archived here rather than stay active forever.
  const effectiveStatus = [...ALL_EFFECTIVE_STATUSES];
  const incremental = job.kind === 'incremental' && job.updatedSince !== null;
  const listOptions = incremental
    ? { updatedSince: Math.floor(Date.parse(job.updatedSince ?? '') / 1000), effectiveStatus }
    : { effectiveStatus };
  // The three listings are requested side by side (latency, not bandwidth, is what a sync waits on);
  // they are stored in order, campaigns first, a page per transaction.
  const adSetOptions = (await writer.hasUnresolvedResults()) ? { effectiveStatus } : listOptions;
  const campaignPages = prefetch(client.listCampaigns(account.platformAccountId, listOptions));
  const adSetPages = prefetch(client.listAdSets(account.platformAccountId, adSetOptions));
  const adPages = prefetch(client.listAds(account.platformAccountId, listOptions));
  const statusPages = incremental
    ? {
        campaigns: prefetch(client.listCampaignStatuses(account.platformAccountId, { effectiveStatus })),
        adSets: prefetch(client.listAdSetStatuses(account.platformAccountId, { effectiveStatus })),
        ads: prefetch(client.listAdStatuses(account.platformAccountId, { effectiveStatus })),
      }
    : null;
  const listedCampaigns: string[] = [];
  for await (const page of campaignPages) {
    checkpoint();
    await writer.campaigns(page, stamp());
    stats.campaigns += page.length;
    for (const c of page) listedCampaigns.push(c.id);
  }
  await progress('structure', 0.3);
  let maps = await loadObjectMaps(sql, account.id);
  const listedAdSets: string[] = [];
  // Ad sets synced before result types existed are all listed once, so none is left uncounted.
  for await (const page of adSetPages) {
    checkpoint();
    stats.skipped += await writer.adSets(page, maps, stamp(), today);
    stats.adSets += page.length;
    for (const s of page) listedAdSets.push(s.id);
  }
  await nameCustomConversions(job, writer);
  await progress('structure', 0.5);
  // Statuses and learning stages of everything, edited or not: a learning ad set leaves learning
  // without any edit, and archiving may not show in updated_since.
  let seenCampaigns = listedCampaigns;
  let seenAdSets = listedAdSets;
  if (statusPages) {
    seenCampaigns = [];
    for await (const page of statusPages.campaigns) {
      checkpoint();
      seenCampaigns.push(...(await writer.campaignStatuses(page)));
    }
    seenAdSets = [];
    for await (const page of statusPages.adSets) {
      checkpoint();
      seenAdSets.push(...(await writer.adSetStatuses(page, stamp(), today)));
    }
  }
  maps = await loadObjectMaps(sql, account.id);
  await writer.markMissing('campaigns', maps.campaigns.keys(), seenCampaigns);
  await writer.markMissing('ad_sets', maps.adSets.keys(), seenAdSets);
  await progress('structure', 0.6);
  for await (const page of adPages) {
    checkpoint();
    stats.skipped += await writer.ads(page, maps, stamp());
    stats.ads += page.length;
  }
  if (statusPages) {
    for await (const page of statusPages.ads) {
      checkpoint();
      await writer.adStatuses(page);
    }
  }
  maps = await loadObjectMaps(sql, account.id);
  await writer.storeCampaignResults(maps);
  const changes = await syncChanges({ sql, client, account, maps, now: job.now(), incremental, checkpoint });
  stats.changesRead = changes.read;
  stats.changesStored = changes.stored;
  // Meta's own recommendations, shown beside ours in diagnostics (null where the account has none).
  await writer.platformRecommendations(
    await client.getPlatformRecommendations(account.platformAccountId),
    maps,
    stamp(),
  );
  await progress('structure', 1);

  // Insights: which range account-wide, and which campaigns need their own 90-day backfill.
  const fullSince = stats.since;
  let backfill: string[] = [];
  if (job.kind === 'incremental') {
    const state = await sql.all<{ platform_campaign_id: string; insights_synced_through: string | null }>(
      `SELECT platform_campaign_id, insights_synced_through FROM campaigns WHERE account_id = ?`,
      [account.id],
    );
    const unsynced = state
      .filter((c) => c.insights_synced_through === null)
      .map((c) => c.platform_campaign_id);
    const through = state
      .map((c) => c.insights_synced_through)
      .filter((d): d is string => d !== null)
      .sort()[0];
    if (through === undefined || unsynced.length > PER_CAMPAIGN_BACKFILL_LIMIT) {
      stats.since = fullSince;
    } else {
      const rereadFrom = addDays(through < today ? through : today, -(REREAD_DAYS - 1));
      stats.since = rereadFrom > fullSince ? rereadFrom : fullSince;
      backfill = unsynced;
    }
  }

  const days = daysBetween(stats.since, stats.until);
  const levels: [InsightLevel, number][] = [
    ['campaign', maps.campaigns.size],
    ['adset', maps.adSets.size],
    ['ad', maps.ads.size],
  ];
  // The three levels side by side, each in date chunks (async reports when large), a few queries in
  // flight at once for this account. Progress follows the rows stored against the rows expected.
  const expected = levels.reduce((sum, [, objects]) => sum + Math.max(1, objects * days), 0);
  let read = 0;
  const reader = new InsightReader(
    client,
    account.platformAccountId,
    new Limiter(concurrencyFor(expected)),
    [...maps.campaigns.keys()],
    async (level, page) => {
      stats.skipped += await writer.insights(level, page, maps);
      read += page.length;
      countRows(stats, level, page.length);
    },
    checkpoint,
    async () => {
      const level = reader.currentLevel;
      if (!level) return;
      const [from, to] = [BANDS['insights:campaign'][0], BANDS['insights:ad'][1]];
      await job.onProgress(LEVEL_PHASE[level], Math.floor(from + (to - from) * Math.min(1, read / expected)));
    },
  );
  await progress('insights:campaign', 0);
  const rereading = stats.since > fullSince;
  const recentFrom = addDays(stats.until, -(AD_REREAD_DAYS - 1));
  if (rereading && recentFrom > stats.since) {
    writer.adSetChanges = { before: recentFrom, ids: new Set(), from: null, until: null };
    await reader.read([
      ...planPieces('campaign', stats.since, stats.until, maps.campaigns.size),
      ...planPieces('adset', stats.since, stats.until, maps.adSets.size),
      ...planPieces('ad', recentFrom, stats.until, maps.ads.size),
    ]);
    const changed = writer.adSetChanges;
    writer.adSetChanges = null;
    if (changed.ids.size > 0 && changed.from !== null && changed.until !== null) {
      const adSetIds = [...changed.ids];
      const ads = Math.ceil((maps.ads.size * adSetIds.length) / Math.max(1, maps.adSets.size));
      await reader.read(
        planPieces('ad', changed.from, changed.until, ads).map((piece) => ({ ...piece, adSetIds })),
      );
    }
  } else {
    await reader.read(
      levels.flatMap(([level, objects]) => planPieces(level, stats.since, stats.until, objects)),
    );
  }

  // Campaigns new since the last sync get their whole range, one campaign at a time, each marked
  // synced as soon as its three levels are stored.
  for (const [index, platformCampaignId] of backfill.entries()) {
    for (const [level] of levels) {
      for await (const page of client.insights(platformCampaignId, {
        level,
        since: fullSince,
        until: today,
      })) {
        checkpoint();
        stats.skipped += await writer.insights(level, page, maps);
        countRows(stats, level, page.length);
      }
    }
    await sql.transaction((tx) => markCampaignsSynced(tx, account.id, [platformCampaignId], stamp(), today));
    stats.backfilledCampaigns += 1;
    await progress('insights:ad', (index + 1) / backfill.length);
  }

  await progress('finishing', 0);
  checkpoint();
  await sql.transaction(async (tx) => {
    await markCampaignsSynced(tx, account.id, [...maps.campaigns.keys()], stamp(), today);
    await tx.run(`UPDATE ad_accounts SET last_synced_at = ? WHERE id = ?`, [stamp(), account.id]);
  });
  stats.insightRowsWritten = writer.rowsWritten;
  stats.changedCampaignIds = [...writer.changedCampaigns];
  Object.assign(stats, {
    requests: client.stats.requests,
    retries: client.stats.retries,
    throttleWaits: client.stats.throttleWaits,
    limitHalvings: client.stats.limitHalvings,
    insightChunks: reader.counters.chunks,
    asyncReports: client.stats.asyncReports,
    chunkSplits: reader.counters.splits,
    paceWaits: client.stats.paceWaits,
    paceWaitMs: client.stats.paceWaitMs,
  });
  return stats;
}

/**
 * Starts reading every page of a listing now and hands them over in order. The pages are held until
 * consumed (object lists are small next to insights); a failure surfaces where they are consumed.
 */
function prefetch<T>(pages: AsyncGenerator<T[]>): AsyncIterable<T[]> {
  const collected = (async () => {
    const out: T[][] = [];
    for await (const page of pages) out.push(page);
    return out;
  })();
  collected.catch(() => undefined);
  return {
    async *[Symbol.asyncIterator]() {
      yield* await collected;
    },
  };
}

/** Custom conversions are named in the Results column; their names come from their own edge. */
async function nameCustomConversions(job: SyncJob, writer: SyncWriter): Promise<void> {
  if (!(await writer.hasCustomConversions())) return;
  const names = new Map<string, string>();
  for await (const page of job.client.listCustomConversions(job.account.platformAccountId)) {
    for (const c of page) names.set(c.id, c.name);
  }
  await writer.nameCustomConversions(names);
}

function countRows(stats: SyncStats, level: InsightLevel, n: number): void {
  if (level === 'campaign') stats.insightRows.campaign += n;
  else if (level === 'adset') stats.insightRows.adSet += n;
  else stats.insightRows.ad += n;
}

/** Marks campaigns' insights synced through a day (run inside the caller's transaction, `tx`). */
async function markCampaignsSynced(
  tx: Sql,
  accountId: string,
  platformIds: string[],
  now: string,
  through: string,
): Promise<void> {
  for (const id of platformIds)
    await tx.run(
      `UPDATE campaigns SET insights_synced_at = ?, last_synced_at = ?, insights_synced_through = ?
       WHERE account_id = ? AND platform_campaign_id = ?`,
      [now, now, through, accountId, id],
    );
}
