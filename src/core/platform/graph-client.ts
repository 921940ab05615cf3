import { z } from 'zod';
import { ACTIVITY_FIELDS, activitySchema, type PlatformActivity } from './activities';
import { classifyGraphError, GraphError, readUsage } from './errors';
import { Pacer, type SharedPacing, type UsageReading } from './pacing';
import {
  AD_ACCOUNT_FIELDS,
  AD_FIELDS,
  AD_SET_FIELDS,
  AD_SET_STATUS_FIELDS,
  AD_STATUS_FIELDS,
  adAccountSchema,
  adSchema,
  adSetSchema,
  adSetStatusSchema,
  adStatusSchema,
  BUSINESS_FIELDS,
  businessSchema,
  CAMPAIGN_FIELDS,
  CAMPAIGN_STATUS_FIELDS,
  campaignSchema,
  campaignStatusSchema,
  CUSTOM_CONVERSION_FIELDS,
  customConversionSchema,
  flattenRecommendations,
  INSIGHT_FIELDS,
  insightRowSchema,
  listEnvelope,
  tokenDebugSchema,
  type PlatformAd,
  type PlatformAdAccount,
  type PlatformAdSet,
  type PlatformAdSetStatus,
  type PlatformAdStatus,
  type PlatformBusiness,
  type PlatformCampaign,
  type PlatformCampaignStatus,
  type PlatformCustomConversion,
  type PlatformInsightRow,
  type PlatformRecommendation,
  type PlatformTokenDebug,
} from './parse';

export const DEFAULT_API_VERSION = 'v25.0';
/** Meta's Graph API. */
export const GRAPH_URL = 'https://graph.facebook.com';

export interface GraphClientOptions {
  /** `https://graph.facebook.com` or the demo platform's `http://127.0.0.1:PORT` (no trailing slash). */
  baseUrl: string;
  apiVersion?: string;
  token: string;
  fetchImpl?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Retries per request for transient errors and throttling (reduce-data halvings are not counted). */
  maxRetries?: number;
  /** First backoff step; doubles per attempt, plus up to 100% jitter. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** The longest single wait a throttling answer may impose before the request fails instead. */
  maxThrottleWaitMs?: number;
  /** Page size asked for on object lists; halved on "reduce the amount of data" errors. */
  pageLimit?: number;
  /**
   * Page size of insight reads. Not halved: an insight query that is too big is split by the
   * caller (dates, then objects) or run as an async report, which is what Meta asks for.
   */
  insightPageLimit?: number;
  /**
   * Page size of async report rows. Reports are for large accounts, read a few at a time: smaller
   * pages keep a sync's memory bounded (peak RSS of a 1,000-campaign sync ≤ 400 MB).
   */
  reportPageLimit?: number;
  /** The account's shared pacing state (platform/pacing.ts); a private one when absent. */
  pacer?: Pacer;
  /**
   * Team server: the account's pacing shared with the other processes (pacing-pg.ts), read before
   * and written after each request on top of `pacer`. Absent when solo.
   */
  sharedPacing?: { pacing: SharedPacing; accountKey: string };
  /** The first wait between async report polls; it doubles up to 5 s. */
  asyncPollMs?: number;
  /** Polls before an async report that never finishes counts as failed. */
  maxAsyncPolls?: number;
  /** Lets a sync stop between requests (graceful shutdown). */
  signal?: AbortSignal;
}

export type InsightLevel = 'campaign' | 'adset' | 'ad';

/**
 * Every status Meta can give an object. Edges hide ARCHIVED and DELETED objects unless the request
 * names them (research §1.3), so syncs ask for all of them, to see objects archived upstream.
 */
export const ALL_EFFECTIVE_STATUSES: readonly string[] = [
  'ACTIVE',
  'PAUSED',
  'DELETED',
  'ARCHIVED',
  'CAMPAIGN_PAUSED',
  'ADSET_PAUSED',
  'IN_PROCESS',
  'WITH_ISSUES',
  'PENDING_REVIEW',
  'DISAPPROVED',
  'PREAPPROVED',
  'PENDING_BILLING_INFO',
];

export interface ListOptions {
  /** Unix seconds: objects updated since then (Graph `updated_since`). */
  updatedSince?: number;
  effectiveStatus?: string[];
}

export interface InsightsQuery {
  level: InsightLevel;
  since: string;
  until: string;
  fields?: string;
  /** Only these campaigns (Graph `filtering` on campaign.id), for ID-batched reads. */
  campaignIds?: string[];
  /** Only these ad sets (Graph `filtering` on adset.id). */
  adSetIds?: string[];
}

/** An async report that ended as "Job Failed" or "Job Skipped": read the range in smaller pieces. */
export class ReportFailed extends GraphError {
  constructor(status: string) {
    super('reduce_data', `the async insights report ended as "${status}"`);
  }
}

/** What one request cost, for stats and benches. */
export interface GraphClientStats {
  requests: number;
  retries: number;
  throttleWaits: number;
  limitHalvings: number;
  /** Waits the usage headers asked for before a request (pacing), and their total. */
  paceWaits: number;
  paceWaitMs: number;
  asyncReports: number;
  asyncPolls: number;
}

const defaultSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done);
  });

/**
 * The Graph API client the sync engine reads through. Read-only: every call is a GET. Pages until
 * `next` is absent, retries transient failures with exponential backoff and jitter, waits out
 * throttling, halves `limit` when asked for less data, and surfaces everything else as GraphError.
 */
export class GraphClient {
  readonly baseUrl: string;
  readonly apiVersion: string;
  readonly stats: GraphClientStats = {
    requests: 0,
    retries: 0,
    throttleWaits: 0,
    limitHalvings: 0,
    paceWaits: 0,
    paceWaitMs: 0,
    asyncReports: 0,
    asyncPolls: 0,
  };
  private readonly token: string;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly maxRetries: number;
  private readonly backoffBaseMs: number;
  private readonly backoffMaxMs: number;
  private readonly maxThrottleWaitMs: number;
  private readonly signal: AbortSignal | undefined;
  private pageLimit: number;
  private readonly insightPageLimit: number;
  private readonly reportPageLimit: number;
  private readonly pacer: Pacer;
  private readonly sharedPacing: GraphClientOptions['sharedPacing'];
  private readonly asyncPollMs: number;
  private readonly maxAsyncPolls: number;

  constructor(options: GraphClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.apiVersion = options.apiVersion ?? DEFAULT_API_VERSION;
    this.token = options.token;
    this.fetchImpl = options.fetchImpl ?? fetch;
    this.signal = options.signal;
    this.sleep = options.sleep ?? ((ms) => defaultSleep(ms, this.signal));
    this.random = options.random ?? Math.random;
    this.maxRetries = options.maxRetries ?? 5;
    this.backoffBaseMs = options.backoffBaseMs ?? 500;
    this.backoffMaxMs = options.backoffMaxMs ?? 30_000;
    this.maxThrottleWaitMs = options.maxThrottleWaitMs ?? 5 * 60_000;
    this.pageLimit = options.pageLimit ?? 1_000;
    this.insightPageLimit = options.insightPageLimit ?? 5_000;
    this.reportPageLimit = options.reportPageLimit ?? 2_000;
    this.pacer = options.pacer ?? new Pacer();
    this.sharedPacing = options.sharedPacing;
    this.asyncPollMs = options.asyncPollMs ?? 500;
    this.maxAsyncPolls = options.maxAsyncPolls ?? 200;
  }

  get currentPageLimit(): number {
    return this.pageLimit;
  }

  listAdAccounts(): AsyncGenerator<PlatformAdAccount[]> {
    return this.pages('me/adaccounts', { fields: AD_ACCOUNT_FIELDS }, adAccountSchema);
  }

  /** The Business Managers the token's user (or system user) belongs to. */
  listBusinesses(): AsyncGenerator<PlatformBusiness[]> {
    return this.pages('me/businesses', { fields: BUSINESS_FIELDS }, businessSchema);
  }

  /** A business's own ad accounts, or those its clients shared with it. */
  listBusinessAdAccounts(
    businessId: string,
    relation: 'owned' | 'client',
  ): AsyncGenerator<PlatformAdAccount[]> {
    return this.pages(
      `${businessId}/${relation}_ad_accounts`,
      { fields: AD_ACCOUNT_FIELDS },
      adAccountSchema,
    );
  }

  /** What the platform says of this client's own token: kind, validity, expiry, scopes. */
  async debugToken(): Promise<PlatformTokenDebug> {
    const body = await this.request(this.url('debug_token', { input_token: this.token }));
    return parseOrThrow(tokenDebugSchema, body, 'debug_token').data;
  }

  async getAdAccount(platformAccountId: string): Promise<PlatformAdAccount> {
    const body = await this.request(this.url(platformAccountId, { fields: AD_ACCOUNT_FIELDS }));
    return parseOrThrow(adAccountSchema, body, platformAccountId);
  }

  listCampaigns(actId: string, options: ListOptions = {}): AsyncGenerator<PlatformCampaign[]> {
    return this.pages(
      `${actId}/campaigns`,
      { fields: CAMPAIGN_FIELDS, ...listParams(options) },
      campaignSchema,
    );
  }

  listAdSets(actId: string, options: ListOptions = {}): AsyncGenerator<PlatformAdSet[]> {
    return this.pages(`${actId}/adsets`, { fields: AD_SET_FIELDS, ...listParams(options) }, adSetSchema);
  }

  listAds(actId: string, options: ListOptions = {}): AsyncGenerator<PlatformAd[]> {
    return this.pages(`${actId}/ads`, { fields: AD_FIELDS, ...listParams(options) }, adSchema);
  }

  /** Every ad set's status and learning stage, fields-limited: cheap enough for every sync. */
  listAdSetStatuses(actId: string, options: ListOptions = {}): AsyncGenerator<PlatformAdSetStatus[]> {
    return this.pages(
      `${actId}/adsets`,
      { fields: AD_SET_STATUS_FIELDS, ...listParams(options) },
      adSetStatusSchema,
    );
  }

  listAdStatuses(actId: string, options: ListOptions = {}): AsyncGenerator<PlatformAdStatus[]> {
    return this.pages(`${actId}/ads`, { fields: AD_STATUS_FIELDS, ...listParams(options) }, adStatusSchema);
  }

  listCampaignStatuses(actId: string, options: ListOptions = {}): AsyncGenerator<PlatformCampaignStatus[]> {
    return this.pages(
      `${actId}/campaigns`,
      { fields: CAMPAIGN_STATUS_FIELDS, ...listParams(options) },
      campaignStatusSchema,
    );
  }

  listCustomConversions(actId: string): AsyncGenerator<PlatformCustomConversion[]> {
    return this.pages(
      `${actId}/customconversions`,
      { fields: CUSTOM_CONVERSION_FIELDS },
      customConversionSchema,
    );
  }

  /**
   * Meta's own recommendations for the account and its opportunity score (0-100), or null where the
   * platform does not offer them for this account (not every account has them, and the edge is new).
   */
  async getPlatformRecommendations(
    actId: string,
  ): Promise<{ opportunityScore: number | null; items: PlatformRecommendation[] } | null> {
    try {
      const items: unknown[] = [];
      for await (const page of this.pages(`${actId}/recommendations`, {}, z.unknown())) items.push(...page);
      let opportunityScore: number | null = null;
      try {
        const body = (await this.request(this.url(actId, { fields: 'opportunity_score' }))) as {
          opportunity_score?: unknown;
        };
        const score = Number(body.opportunity_score);
        opportunityScore = body.opportunity_score === undefined || !Number.isFinite(score) ? null : score;
      } catch (error) {
        if (!(error instanceof GraphError) || error.kind === 'token_expired') throw error;
      }
      return { opportunityScore, items: flattenRecommendations(items) };
    } catch (error) {
      // Unavailable for this account or API version: the diagnostic shows ours alone.
      if (error instanceof GraphError && error.kind !== 'token_expired' && error.kind !== 'throttled')
        return null;
      throw error;
    }
  }

  /** The account's activity log between two instants (unix seconds), newest first. */
  listActivities(actId: string, range: { since: number; until: number }): AsyncGenerator<PlatformActivity[]> {
    return this.pages(
      `${actId}/activities`,
      { fields: ACTIVITY_FIELDS, since: String(range.since), until: String(range.until) },
      activitySchema,
    );
  }

  /** Daily rows (time_increment=1) for an account, campaign, ad set or ad, at one level. */
  insights(objectId: string, query: InsightsQuery): AsyncGenerator<PlatformInsightRow[]> {
    return this.pages(`${objectId}/insights`, insightParams(query), insightRowSchema, 'insights');
  }

  /**
   * The same rows through an async report run (research §3.4): POST the query, poll the run until
   * "Job Completed", then page its rows. "Job Failed" or "Job Skipped" throw ReportFailed.
   */
  async *insightsAsync(objectId: string, query: InsightsQuery): AsyncGenerator<PlatformInsightRow[]> {
    const started = await this.request(this.url(`${objectId}/insights`, insightParams(query)), false, 'POST');
    const runId = (started as { report_run_id?: unknown }).report_run_id;
    if (typeof runId !== 'string' && typeof runId !== 'number') {
      throw new GraphError('unknown', `Graph API started no report run for ${objectId}/insights`);
    }
    this.stats.asyncReports += 1;
    let wait = this.asyncPollMs;
    for (let poll = 0; ; poll += 1) {
      if (poll >= this.maxAsyncPolls) throw new ReportFailed('Job Not Finished');
      await this.sleep(wait);
      wait = Math.min(5_000, wait * 2);
      this.stats.asyncPolls += 1;
      const run = (await this.request(
        this.url(String(runId), { fields: 'async_status,async_percent_completion' }),
      )) as { async_status?: unknown };
      const status = String(run.async_status ?? '');
      if (status === 'Job Completed') break;
      if (status === 'Job Failed' || status === 'Job Skipped') throw new ReportFailed(status);
    }
    yield* this.pages(`${String(runId)}/insights`, {}, insightRowSchema, 'report');
  }

  /**
   * Every page of a list edge, parsed. The next page is requested while the caller works on the
   * current one, and paging stops only when `next` is absent (short or empty pages can carry one).
   */
  async *pages<S extends z.ZodType>(
    path: string,
    params: Record<string, string>,
    schema: S,
    paged: 'list' | 'insights' | 'report' = 'list',
  ): AsyncGenerator<z.output<S>[]> {
    let pending: Promise<unknown> | null = this.request(this.url(path, params), paged);
    while (pending) {
      const body = await pending;
      const envelope = listEnvelope.safeParse(body);
      if (!envelope.success) {
        throw new GraphError('unknown', `Graph API sent an unexpected list from ${path}`);
      }
      const next = envelope.data.paging?.next;
      if (paged === 'insights' || paged === 'report') {
        // Insight pages are big (5,000 rows) and read several queries at a time, which already
        // overlaps waiting with writing: no prefetch, so a sync holds one page per query in flight.
        yield envelope.data.data.map((item) => parseOrThrow(schema, item, path));
        pending = next ? this.request(this.withToken(next), paged) : null;
        continue;
      }
      pending = next ? this.request(this.withToken(next), paged) : null;
      // Keep a prefetch from rejecting unobserved while the caller is still busy with this page.
      pending?.catch(() => undefined);
      yield envelope.data.data.map((item) => parseOrThrow(schema, item, path));
    }
  }

  private url(path: string, params: Record<string, string>): string {
    const url = new URL(`${this.baseUrl}/${this.apiVersion}/${path}`);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    return this.withToken(url.toString());
  }

  /** Waits as long as the account's usage asks; a throttle longer than we may wait is thrown. */
  private async pace(): Promise<void> {
    const shared = this.sharedPacing ? await this.sharedWaitMs() : 0;
    const delay = Math.max(this.pacer.delayMs(), shared);
    if (delay <= 0) return;
    if (delay > this.maxThrottleWaitMs) {
      throw new GraphError('throttled', 'Meta rate-limits this ad account for longer than a sync waits', {
        retryAfterMs: delay,
      });
    }
    this.stats.paceWaits += 1;
    this.stats.paceWaitMs += delay;
    await this.sleep(delay);
  }

  // The shared pacing is advice: with the database out of reach this process's own pacer still holds,
  // and the sync goes on rather than failing on a store it does not read from.
  private async sharedWaitMs(): Promise<number> {
    if (!this.sharedPacing) return 0;
    try {
      return await this.sharedPacing.pacing.waitMs(this.sharedPacing.accountKey);
    } catch {
      return 0;
    }
  }

  private async shareUsage(usage: UsageReading): Promise<void> {
    if (!this.sharedPacing) return;
    try {
      await this.sharedPacing.pacing.record(this.sharedPacing.accountKey, usage);
    } catch {
      // As above: unshared, this reading still paces this process.
    }
  }

  private withToken(href: string): string {
    const url = new URL(href);
    if (!url.searchParams.has('access_token')) url.searchParams.set('access_token', this.token);
    return url.toString();
  }

  /**
   * One request with the retry policy. List pages carry `limit`, which reduce-data errors halve;
   * insight pages carry the insight limit, and a reduce-data error is the caller's to split.
   */
  private async request(
    href: string,
    paged: false | 'list' | 'insights' | 'report' = false,
    method = 'GET',
  ): Promise<unknown> {
    let attempt = 0;
    for (;;) {
      if (this.signal?.aborted) throw new GraphError('transient', 'the sync was stopped');
      await this.pace();
      const url = new URL(href);
      if (paged === 'list') url.searchParams.set('limit', String(this.pageLimit));
      if (paged === 'insights') url.searchParams.set('limit', String(this.insightPageLimit));
      if (paged === 'report') url.searchParams.set('limit', String(this.reportPageLimit));
      let error: GraphError;
      try {
        this.stats.requests += 1;
        const response = await this.fetchImpl(url, { method, headers: { accept: 'application/json' } });
        const usage = readUsage(response.headers);
        this.pacer.observe(usage);
        if (this.sharedPacing) await this.shareUsage(usage);
        const text = await response.text();
        const body = parseJson(text);
        if (response.ok && body !== undefined && !hasErrorKey(body)) return body;
        error = classifyGraphError(response.status, body, usage.regainAccessMs || undefined);
      } catch (caught) {
        if (caught instanceof GraphError) throw caught;
        // Connection refused or reset: the platform (or the loopback demo) is momentarily away.
        error = new GraphError('transient', `cannot reach ${this.baseUrl}: ${(caught as Error).message}`);
      }
      if (error.kind === 'reduce_data' && (paged === 'insights' || paged === 'report')) throw error;
      if (error.kind === 'reduce_data' && this.pageLimit > 1) {
        this.pageLimit = Math.max(1, Math.floor(this.pageLimit / 2));
        this.stats.limitHalvings += 1;
        continue;
      }
      const retryable =
        error.kind === 'transient' || error.kind === 'throttled' || error.kind === 'reduce_data';
      if (!retryable || attempt >= this.maxRetries) throw error;
      const backoff = Math.min(this.backoffMaxMs, this.backoffBaseMs * 2 ** attempt);
      let wait = backoff + Math.floor(this.random() * backoff);
      if (error.kind === 'throttled') {
        // The pacer waits out estimated_time_to_regain_access before the retry; a wait too long
        // to sit through ends the sync as paused (the service resumes it after that time).
        const told = Math.max(error.info.retryAfterMs ?? 0, this.pacer.blockedUntil - this.pacer.clockNow());
        if (told > this.maxThrottleWaitMs) {
          throw new GraphError('throttled', error.message, { ...error.info, retryAfterMs: told });
        }
        if (told > 0) wait = 0;
        this.stats.throttleWaits += 1;
      }
      attempt += 1;
      this.stats.retries += 1;
      if (wait > 0) await this.sleep(wait);
    }
  }
}

function insightParams(query: InsightsQuery): Record<string, string> {
  const params: Record<string, string> = {
    level: query.level,
    fields: query.fields ?? INSIGHT_FIELDS,
    time_increment: '1',
    time_range: JSON.stringify({ since: query.since, until: query.until }),
  };
  const filtering = [];
  if (query.campaignIds) filtering.push({ field: 'campaign.id', operator: 'IN', value: query.campaignIds });
  if (query.adSetIds) filtering.push({ field: 'adset.id', operator: 'IN', value: query.adSetIds });
  if (filtering.length > 0) params.filtering = JSON.stringify(filtering);
  return params;
}

function listParams(options: ListOptions): Record<string, string> {
  const params: Record<string, string> = {};
  if (options.updatedSince !== undefined) params.updated_since = String(Math.floor(options.updatedSince));
  if (options.effectiveStatus) params.effective_status = JSON.stringify(options.effectiveStatus);
  return params;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function hasErrorKey(body: unknown): boolean {
  return body !== null && typeof body === 'object' && 'error' in body;
}

function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new GraphError(
      'unknown',
      `Graph API sent an unexpected object from ${where}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim(),
    );
  }
  return parsed.data;
}
