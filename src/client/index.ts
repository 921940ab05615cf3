// A typed client for scripts that call the local /v1 API. It follows the spec's client guidance:
// retries only 429 and 500 (exponential backoff with jitter), never 400/401/403/404; polls async work
// every 2-3 seconds; caches GET responses for 60-300 seconds; slows down when the remaining budget
// falls below 10% of the limit. Types come from the same zod schemas the server validates with.
import type { z } from 'zod';
import type { AccountGoals, CampaignGoal, Goal, GoalView } from '../shared/api/goals';
import type { Account, SyncStarted } from '../shared/api/accounts';
import type { CampaignDetail, CampaignInclude, CampaignListItem } from '../shared/api/campaigns';
import type { InsightsDateRange, Pagination } from '../shared/api/common';
import type { DiagnosticCreated, DiagnosticDetail, DiagnosticListItem } from '../shared/api/diagnostics';
import type { InsightsSummary } from '../shared/api/insights';
import type { CreateReportBodySchema, Report, ReportCreated } from '../shared/api/reports';
import type { ErrorBody } from '../shared/api/common';

export type {
  Account,
  CampaignDetail,
  CampaignListItem,
  DiagnosticDetail,
  DiagnosticListItem,
  InsightsSummary,
  Report,
};

export interface ClientOptions {
  /** http://127.0.0.1:PORT (no /v1). */
  baseUrl: string;
  apiKey: string;
  /** service-version header; default 2026-03-01. */
  version?: string;
  /** Retries of a 429 or 500 before giving up (default 4). */
  maxRetries?: number;
  /** First backoff delay (default 500 ms), doubled each retry up to maxDelayMs (default 30 s). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** GET cache time to live, 60-300 seconds (default 120); `cache: false` turns the cache off. */
  cacheTtlSeconds?: number;
  cache?: boolean;
  /** Poll interval for diagnostics and reports, 2000-3000 ms (default 2500). */
  pollIntervalMs?: number;
  /** The per-minute limits of the key, to tell when the budget is below 10% (default 120 reads, 10 writes). */
  limits?: { reads: number; writes: number };
  /** Injectable for tests and special hosts. */
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly requestId?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface Page<T> {
  data: T[];
  pagination: Pagination;
  meta: { remaining_requests: number };
}

export interface One<T> {
  data: T;
  meta: { remaining_requests: number };
}

type Query = Record<string, string | number | undefined>;

const RETRYABLE = new Set([429, 500]);

export class AdLensClient {
  private readonly opts: Required<Omit<ClientOptions, 'version' | 'limits'>> & {
    version: string;
    limits: { reads: number; writes: number };
  };
  private readonly cache = new Map<string, { expires: number; value: unknown }>();
  /** What the last response said was left, per kind of request. */
  private readonly remaining: { reads?: number; writes?: number } = {};

  constructor(options: ClientOptions) {
    const ttl = options.cacheTtlSeconds ?? 120;
    if (ttl < 60 || ttl > 300) throw new RangeError('cacheTtlSeconds must be between 60 and 300');
    const poll = options.pollIntervalMs ?? 2500;
    if (poll < 2000 || poll > 3000) throw new RangeError('pollIntervalMs must be between 2000 and 3000');
    this.opts = {
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      apiKey: options.apiKey,
      version: options.version ?? '2026-03-01',
      maxRetries: options.maxRetries ?? 4,
      baseDelayMs: options.baseDelayMs ?? 500,
      maxDelayMs: options.maxDelayMs ?? 30_000,
      cacheTtlSeconds: ttl,
      cache: options.cache ?? true,
      pollIntervalMs: poll,
      limits: options.limits ?? { reads: 120, writes: 10 },
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
      sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
      random: options.random ?? Math.random,
      now: options.now ?? Date.now,
    };
  }

  // ---- Endpoints ----

  listAccounts(q: { status?: Account['connectionStatus']; page?: number; page_size?: number } = {}) {
    return this.get<Page<Account>>('/v1/accounts', q);
  }
  getAccount(id: string) {
    return this.get<One<Account>>(`/v1/accounts/${encodeURIComponent(id)}`);
  }
  syncAccount(id: string) {
    return this.post<One<SyncStarted>>(`/v1/accounts/${encodeURIComponent(id)}/sync`, undefined);
  }
  listCampaigns(
    q: { account_id?: string; status?: string; sort?: string; page?: number; page_size?: number } = {},
  ) {
    return this.get<Page<CampaignListItem>>('/v1/campaigns', q);
  }
  getCampaign(id: string, q: { include?: CampaignInclude[]; insightsDateRange?: InsightsDateRange } = {}) {
    return this.get<One<CampaignDetail>>(`/v1/campaigns/${encodeURIComponent(id)}`, {
      include: q.include?.join(','),
      insightsDateRange: q.insightsDateRange,
    });
  }
  listDiagnostics(
    q: {
      account_id?: string;
      risk_level?: string;
      date_start?: string;
      date_end?: string;
      status?: string;
      campaign_id?: string;
      page?: number;
      page_size?: number;
    } = {},
  ) {
    return this.get<Page<DiagnosticListItem>>('/v1/diagnostics', q);
  }
  getDiagnostic(id: string, opts: { fresh?: boolean } = {}) {
    return this.get<One<DiagnosticDetail>>(`/v1/diagnostics/${encodeURIComponent(id)}`, {}, opts.fresh);
  }
  createDiagnostic(body: {
    account_id: string;
    campaign_id?: string;
    date_start?: string;
    date_end?: string;
  }) {
    return this.post<One<DiagnosticCreated>>('/v1/diagnostics', body);
  }
  listReports(
    q: {
      campaignId?: string;
      accountId?: string;
      status?: string;
      format?: string;
      from?: string;
      to?: string;
      page?: number;
      page_size?: number;
    } = {},
  ) {
    return this.get<Page<Report>>('/v1/reports', q);
  }
  getReport(id: string, opts: { fresh?: boolean } = {}) {
    return this.get<One<Report>>(`/v1/reports/${encodeURIComponent(id)}`, {}, opts.fresh);
  }
  createReport(body: z.input<typeof CreateReportBodySchema>) {
    return this.post<One<ReportCreated>>('/v1/reports', body);
  }
  insightsSummary(
    q: {
      date_start?: string;
      date_end?: string;
      account_id?: string;
      campaign_ids?: string[];
      /** One breakdown line per campaign or per account (default: per account across several accounts). */
      breakdown?: 'campaign' | 'account';
    } = {},
  ) {
    return this.get<One<InsightsSummary>>('/v1/insights/summary', {
      date_start: q.date_start,
      date_end: q.date_end,
      account_id: q.account_id,
      campaign_ids: q.campaign_ids?.join(','),
      breakdown: q.breakdown,
    });
  }

  /** Goals (an addition to the spec): an account's target CPA or ROAS and its campaigns' own. */
  getAccountGoals(accountId: string) {
    return this.get<One<AccountGoals>>(`/v1/accounts/${encodeURIComponent(accountId)}/goals`);
  }
  setAccountGoal(accountId: string, goal: Goal) {
    return this.write<One<GoalView>>('PUT', `/v1/accounts/${encodeURIComponent(accountId)}/goals`, goal);
  }
  clearAccountGoal(accountId: string) {
    return this.write<One<AccountGoals>>('DELETE', `/v1/accounts/${encodeURIComponent(accountId)}/goals`);
  }
  getCampaignGoal(campaignId: string) {
    return this.get<One<CampaignGoal>>(`/v1/campaigns/${encodeURIComponent(campaignId)}/goal`);
  }
  setCampaignGoal(campaignId: string, goal: Goal) {
    return this.write<One<GoalView>>('PUT', `/v1/campaigns/${encodeURIComponent(campaignId)}/goal`, goal);
  }
  clearCampaignGoal(campaignId: string) {
    return this.write<One<CampaignGoal>>('DELETE', `/v1/campaigns/${encodeURIComponent(campaignId)}/goal`);
  }

  /** Downloads a completed report from its downloadUrl (the key is sent, as the spec requires). */
  async downloadReport(
    downloadUrl: string,
  ): Promise<{ contentType: string; fileName: string | null; body: Uint8Array }> {
    const url = new URL(downloadUrl, this.opts.baseUrl);
    const res = await this.send('GET', `${url.pathname}${url.search}`, undefined);
    const disposition = res.headers.get('content-disposition') ?? '';
    return {
      contentType: res.headers.get('content-type') ?? 'application/octet-stream',
      fileName: /filename="([^"]+)"/.exec(disposition)?.[1] ?? null,
      body: new Uint8Array(await res.arrayBuffer()),
    };
  }

  /** Polls a diagnostic every 2-3 s until it is completed or failed (or the timeout passes). */
  pollDiagnostic(id: string, opts: { timeoutMs?: number } = {}): Promise<DiagnosticDetail> {
    return this.poll(
      () => this.getDiagnostic(id, { fresh: true }),
      (d) => d.status === 'completed' || d.status === 'failed',
      opts.timeoutMs,
    );
  }

  /** Polls a report until it is completed or failed. */
  pollReport(id: string, opts: { timeoutMs?: number } = {}): Promise<Report> {
    return this.poll(
      () => this.getReport(id, { fresh: true }),
      (r) => r.status === 'completed' || r.status === 'failed',
      opts.timeoutMs,
    );
  }

  clearCache(): void {
    this.cache.clear();
  }

  // ---- Machinery ----

  private async poll<T>(
    fetchOne: () => Promise<One<T>>,
    done: (value: T) => boolean,
    timeoutMs = 120_000,
  ): Promise<T> {
    const deadline = this.opts.now() + timeoutMs;
    for (;;) {
      const { data } = await fetchOne();
      if (done(data)) return data;
      if (this.opts.now() >= deadline) throw new Error(`still not finished after ${timeoutMs} ms`);
      await this.opts.sleep(this.opts.pollIntervalMs);
    }
  }

  private async get<T>(path: string, query: Query = {}, fresh = false): Promise<T> {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query))
      if (value !== undefined) search.set(name, String(value));
    const target = search.size > 0 ? `${path}?${search}` : path;
    const cached = this.cache.get(target);
    if (this.opts.cache && !fresh && cached && cached.expires > this.opts.now()) return cached.value as T;
    const value = (await (await this.send('GET', target, undefined)).json()) as T;
    if (this.opts.cache)
      this.cache.set(target, { expires: this.opts.now() + this.opts.cacheTtlSeconds * 1000, value });
    return value;
  }

  private async post<T>(path: string, body: unknown): Promise<T> {
    return this.write<T>('POST', path, body);
  }

  private async write<T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const value = (await (await this.send(method, path, body)).json()) as T;
    // A write may change what any cached list shows.
    this.cache.clear();
    return value;
  }

  private async send(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    target: string,
    body: unknown,
  ): Promise<Response> {
    const kind = method === 'GET' ? 'reads' : 'writes';
    await this.paceIfLow(kind);
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = {
        'x-api-key': this.opts.apiKey,
        'service-version': this.opts.version,
      };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await this.opts.fetch(`${this.opts.baseUrl}${target}`, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      if (res.ok) {
        if ((res.headers.get('content-type') ?? '').startsWith('application/json')) {
          const copy = res.clone();
          const parsed = (await copy.json().catch(() => undefined)) as
            { meta?: { remaining_requests?: number } } | undefined;
          const left = parsed?.meta?.remaining_requests;
          if (typeof left === 'number') this.remaining[kind] = left;
        }
        return res;
      }
      const error = (await res.json().catch(() => undefined)) as ErrorBody | undefined;
      const type = error?.error?.type ?? 'api_error';
      const message = error?.error?.message ?? `HTTP ${res.status}`;
      if (!RETRYABLE.has(res.status) || attempt >= this.opts.maxRetries) {
        throw new ApiError(res.status, type, message, error?.error?.requestId);
      }
      await this.opts.sleep(this.backoff(attempt, message));
    }
  }

  /** Exponential backoff with equal jitter; a 429 that names its wait is waited out at least that long. */
  private backoff(attempt: number, message: string): number {
    const cap = Math.min(this.opts.maxDelayMs, this.opts.baseDelayMs * 2 ** attempt);
    const jittered = cap / 2 + this.opts.random() * (cap / 2);
    const hinted = /retry in (\d+) second/.exec(message);
    return Math.max(jittered, hinted ? Number(hinted[1]) * 1000 : 0);
  }

  /** Below 10% of the budget, space requests out to the limit's own pace instead of running into 429s. */
  private async paceIfLow(kind: 'reads' | 'writes'): Promise<void> {
    const left = this.remaining[kind];
    const limit = this.opts.limits[kind];
    if (left !== undefined && left < limit * 0.1) await this.opts.sleep(Math.ceil(60_000 / limit));
  }
}
