// Reading daily insights of one level the way Meta copes with large accounts (research §3.4): a query
// is sized as objects × days; small ones are read synchronously in date chunks a few at a time, large
// ones as async report runs; a query Meta refuses ("reduce the amount of data", a timeout, a failed
// report) is retried as a report run, then split: the date range in halves down to one day, then the
// campaigns in ID-filtered halves.
import { addDays, daysBetween } from '../clock';
import { GraphError } from '../platform/errors';
import type { GraphClient, InsightLevel } from '../platform/graph-client';
import type { PlatformInsightRow } from '../platform/parse';

/**
 * Above this many rows (objects × days) a query is read as an async report run, not synchronously.
 * Meta publishes no number; ad-level daily queries of about a thousand ads over 90 days are where
 * synchronous reads start to time out (1504018 / 1504038) in practice, so 100,000 rows is our line.
 * The demo platform refuses synchronous queries above the same size (demo-platform/routes/insights.ts).
 */
export const ASYNC_ROWS = 100_000;
/** A synchronous query above this many rows is split into date chunks read in parallel (5 pages of 5,000). */
export const SYNC_CHUNK_ROWS = 25_000;
/** An async report above this many rows is split into several reports (they run side by side at Meta). */
export const ASYNC_CHUNK_ROWS = 250_000;
/** Insight queries in flight per sync: Meta counts concurrent calls per ad account, so a few, not many. */
export const INSIGHT_CONCURRENCY = 4;
/**
 * A sync expecting more rows than this (objects × days, all levels) is a large account: its queries
 * go two at a time, so the pages in hand (the sync's memory) stay bounded; latency matters less there
 * than for the many small accounts an agency syncs.
 */
export const LARGE_SYNC_ROWS = 250_000;

/** Queries in flight for a sync expecting this many rows. */
export function concurrencyFor(expectedRows: number): number {
  return expectedRows > LARGE_SYNC_ROWS ? 2 : INSIGHT_CONCURRENCY;
}
/**
 * Async reports read at once (out of INSIGHT_CONCURRENCY): they belong to large accounts, whose
 * 5,000-row pages are what bounds a sync's memory.
 */
export const ASYNC_CONCURRENCY = 2;

export interface InsightPiece {
  level: InsightLevel;
  since: string;
  until: string;
  /** Only these campaigns (an ID-filtered batch); all when absent. */
  campaignIds?: string[];
  /** Only these ad sets (an incremental sync's ads of ad sets whose days changed). */
  adSetIds?: string[];
  mode: 'sync' | 'async';
}

export interface ReaderCounters {
  chunks: number;
  asyncReports: number;
  splits: number;
}

/** At most `limit` tasks at once, in order of arrival. */
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active += 1;
    try {
      return await task();
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }
}

/** The pieces a level's range starts as: sized by objects × days. */
export function planPieces(
  level: InsightLevel,
  since: string,
  until: string,
  objects: number,
): InsightPiece[] {
  const days = daysBetween(since, until);
  const rows = Math.max(1, objects) * days;
  const mode = rows > ASYNC_ROWS ? 'async' : 'sync';
  const perPiece = mode === 'async' ? ASYNC_CHUNK_ROWS : SYNC_CHUNK_ROWS;
  const count = Math.min(days, Math.ceil(rows / perPiece));
  return splitDays(since, days, count).map(([from, to]) => ({ level, since: from, until: to, mode }));
}

function splitDays(since: string, days: number, count: number): [string, string][] {
  const out: [string, string][] = [];
  const size = Math.ceil(days / Math.max(1, count));
  for (let start = 0; start < days; start += size) {
    out.push([addDays(since, start), addDays(since, Math.min(days, start + size) - 1)]);
  }
  return out;
}

/**
 * The smaller pieces of one Meta refused: a synchronous read becomes a report run first; a report run
 * is split in two by dates, and a single day in two by campaigns. None when it cannot get smaller.
 */
export function splitPiece(piece: InsightPiece, allCampaignIds: readonly string[]): InsightPiece[] {
  if (piece.mode === 'sync') return [{ ...piece, mode: 'async' }];
  const days = daysBetween(piece.since, piece.until);
  if (days > 1) {
    return splitDays(piece.since, days, 2).map(([since, until]) => ({ ...piece, since, until }));
  }
  if (piece.adSetIds) {
    const ids = piece.adSetIds;
    if (ids.length <= 1) return [];
    const half = Math.ceil(ids.length / 2);
    return [ids.slice(0, half), ids.slice(half)].map((adSetIds) => ({ ...piece, adSetIds }));
  }
  const ids = piece.campaignIds ?? [...allCampaignIds];
  if (ids.length <= 1) return [];
  const half = Math.ceil(ids.length / 2);
  return [ids.slice(0, half), ids.slice(half)].map((campaignIds) => ({ ...piece, campaignIds }));
}

export class InsightReader {
  readonly counters: ReaderCounters = { chunks: 0, asyncReports: 0, splits: 0 };
  /** Pieces of each level not finished yet: the phase shown is the first level with some. */
  readonly pending: Record<InsightLevel, number> = { campaign: 0, adset: 0, ad: 0 };
  private readonly asyncLimiter = new Limiter(ASYNC_CONCURRENCY);

  constructor(
    private readonly client: GraphClient,
    private readonly objectId: string,
    private readonly limiter: Limiter,
    private readonly allCampaignIds: readonly string[],
    /** Stores one page (its own transaction); runs between requests, one page at a time. */
    private readonly onPage: (level: InsightLevel, rows: PlatformInsightRow[]) => Promise<void>,
    private readonly checkpoint: () => void,
    /** After each stored page and each finished piece. */
    private readonly onProgress: () => Promise<void> = async () => {},
  ) {}

  /** The first level still being read, campaigns first; null when all are done. */
  get currentLevel(): InsightLevel | null {
    if (this.pending.campaign > 0) return 'campaign';
    if (this.pending.adset > 0) return 'adset';
    if (this.pending.ad > 0) return 'ad';
    return null;
  }

  /** Reads every piece, a few at a time; resolves when all are stored. */
  async read(pieces: InsightPiece[]): Promise<void> {
    for (const piece of pieces) this.pending[piece.level] += 1;
    // Settled, not raced: when one piece fails the others stop at their next page (failed is set),
    // so nothing is still writing or calling Meta once the sync has ended.
    const results = await Promise.allSettled(
      pieces.map(async (piece) => {
        try {
          if (this.failed) throw this.failed;
          await this.readPiece(piece);
        } catch (error) {
          this.failed ??= error;
          throw error;
        } finally {
          this.pending[piece.level] -= 1;
          await this.onProgress();
        }
      }),
    );
    if (results.some((r) => r.status === 'rejected')) throw this.failed;
  }

  /** The first error of any piece: the others stop at their next page. */
  private failed: unknown = null;

  private async readPiece(piece: InsightPiece): Promise<void> {
    let refused: GraphError | null = null;
    // Async reports take a turn of their own limiter, then one of the sync's (the total in flight
    // stays at INSIGHT_CONCURRENCY).
    const limited = (task: () => Promise<void>) =>
      piece.mode === 'async' ? this.asyncLimiter.run(() => this.limiter.run(task)) : this.limiter.run(task);
    await limited(async () => {
      if (this.failed) throw this.failed;
      this.checkpoint();
      this.counters.chunks += 1;
      if (piece.mode === 'async') this.counters.asyncReports += 1;
      const query = {
        level: piece.level,
        since: piece.since,
        until: piece.until,
        ...(piece.campaignIds ? { campaignIds: piece.campaignIds } : {}),
        ...(piece.adSetIds ? { adSetIds: piece.adSetIds } : {}),
      };
      const pages =
        piece.mode === 'async'
          ? this.client.insightsAsync(this.objectId, query)
          : this.client.insights(this.objectId, query);
      try {
        for await (const page of pages) {
          if (this.failed) throw this.failed;
          this.checkpoint();
          await this.onPage(piece.level, page);
          await this.onProgress();
        }
      } catch (error) {
        if (!(error instanceof GraphError) || error.kind !== 'reduce_data') throw error;
        refused = error;
      }
    });
    if (!refused) return;
    // Outside the limiter: the smaller pieces take their own turns (a parent holding a slot while
    // its halves wait for one could starve the queue).
    const smaller = splitPiece(piece, this.allCampaignIds);
    if (smaller.length === 0) throw refused;
    this.counters.splits += 1;
    await this.read(smaller);
  }
}
