// The public types of the demo platform (see notes/contracts.md).

export { DEMO_TOKEN, DEMO_SYSTEM_USER_TOKEN } from '../platform/demo';

export interface GroundTruthEntry {
  platformAccountId: string;
  platformCampaignId: string;
  platformAdSetId?: string;
  platformAdId?: string;
  category:
    | 'CREATIVE_FATIGUE'
    | 'LEARNING_PHASE_STALL'
    | 'AUCTION_OVERLAP'
    | 'PACING_ISSUE'
    | 'CPA_DEGRADATION'
    | 'AUDIENCE_SATURATION'
    | 'HEALTHY';
  since: string;
}

export type ThrottleCode = 17 | 80000 | 80004 | 4 | 613;

/** Switches for tests and the CLI; they act on the next requests of this server only. */
export interface DemoControls {
  /** Delay every response by `ms` (0 turns it off). */
  setLatency(ms: number): void;
  /** The next `n` Graph requests fail with a throttling error (HTTP 400, is_transient). */
  throttleNext(n: number, code?: ThrottleCode, opts?: { regainMinutes?: number }): void;
  /** The next `n` Graph requests fail with HTTP 500: code 1 ("reduce the amount of data") or 2 (transient). */
  failNext(n: number, code?: 1 | 2): void;
  /** Expire one token (or every token, demo-token included): requests get 190/463. */
  expireToken(token: string | 'all'): void;
  /**
   * A token's expiry (unix seconds; 0 = never): `debug_token` reports it, and the token stops working
   * once it passes. Tests make a token lapse in 3 days without waiting for it.
   */
  setTokenExpiry(token: string, expiresAt: number): void;
  /** Async insight jobs need this many status polls before they complete (default 2). */
  setAsyncPolls(n: number): void;
  /** The next `n` async insight jobs end as "Job Failed". */
  failNextJobs(n: number): void;
  /**
   * An upstream edit in Ads Manager: the campaign, ad set or ad gets this status, and its
   * updated_time moves to now. ARCHIVED and DELETED objects leave the default edges.
   */
  setStatus(objectId: string, status: 'ACTIVE' | 'PAUSED' | 'ARCHIVED' | 'DELETED'): void;
  /**
   * Results attributed late to a past day (YYYY-MM-DD) an ad set delivered on, without any edit: insights of
   * that day change at every level, and learning_stage_info counts them (an ad set in learning can
   * leave it this way).
   */
  attributeLate(adSetId: string, date: string, results: number): void;
  /**
   * Ad review declines an ad on a day (YYYY-MM-DD): it shows DISAPPROVED with issues_info (Meta's
   * error), stops delivering from that day, and an ad_review_declined activity is logged.
   */
  disapproveAd(adId: string, date: string): void;
  /**
   * The account reaches its spend cap on a day (YYYY-MM-DD): no delivery from that day on, and
   * spend_cap equals amount_spent.
   */
  reachSpendCap(accountId: string, date: string): void;
  /** Back to defaults: no latency, no pending failures, tokens valid, usage counters at zero (world edits stay). */
  reset(): void;
  /** Graph requests served since start (or the last reset). */
  requestCount(): number;
  /** The last requests (method and path with query), oldest first, at most 1,000. */
  requestLog(): string[];
}
