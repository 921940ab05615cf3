// What a handler runs with: who is calling (the desktop's local owner, or a signed-in dashboard user),
// and the services of the App, described by the subset of their contracts the handlers use so that
// this folder depends on behaviour, not on construction.
import type { Core } from '../core';
import type { RequestContext } from '../identity/access';
import type { ReportSchedule } from '../../shared/api/reports';

type MaybePromise<T> = T | Promise<T>;

export interface ReportFileLike {
  contentType: string;
  fileName: string;
  body: Buffer;
}

/** The API's RequestContext for a person (not a key): services need no second code path. */
export interface HandlerContext extends RequestContext {
  userId: string;
  keyId: null;
  mode: 'all';
}

export interface SyncLike {
  connectAccount(input: {
    workspaceId: string;
    platformAccountId: string;
    baseUrl: string;
    apiVersion?: string;
    token: string;
    mode?: 'test' | 'live';
    userId?: string;
  }): Promise<{ id: string }>;
  startSync(
    accountId: string,
    opts?: { kind?: 'full' | 'incremental' },
  ): { syncRunId: string; startedAt: string };
  isSyncing(accountId: string): boolean;
  /** Stops the account's running sync, if any (committed pages stay); resolves once it has ended. */
  stopSync(accountId: string): Promise<void>;
}

export interface DiagnosticsLike {
  create(
    ctx: HandlerContext,
    input: { accountId: string; campaignId: string | null; dateFrom: string; dateTo: string },
  ): MaybePromise<unknown>;
  get(ctx: HandlerContext, id: string): MaybePromise<unknown>;
  list(
    ctx: HandlerContext,
    filter: {
      accountIds: string[];
      riskLevel?: string;
      status?: string;
      campaignId?: string;
      page: number;
      pageSize: number;
    },
  ): MaybePromise<{ items: unknown[]; total: number }>;
  /** Andromeda: the caller's profile and feedback, kept by the diagnostics service that reads them. */
  getProfile(ctx: HandlerContext): {
    riskAppetite: 'LOW' | 'MEDIUM' | 'HIGH';
    focusMetric: 'ROAS' | 'CPA' | 'CTR' | 'CONVERSIONS';
    updatedAt: string | null;
  };
  setProfile(
    ctx: HandlerContext,
    change: {
      riskAppetite?: 'LOW' | 'MEDIUM' | 'HIGH';
      focusMetric?: 'ROAS' | 'CPA' | 'CTR' | 'CONVERSIONS';
    },
  ): unknown;
  feedback(
    ctx: HandlerContext,
    input: { diagnosticId: string; recommendationId: string; feedback: 'applied' | 'dismissed' },
  ): unknown;
  /** The analyst's target CPA of a campaign, in account currency; null clears it. */
  setTargetCpa(ctx: HandlerContext, campaignId: string, amount: number | null): void;
}

export interface ReportsLike {
  create(
    ctx: HandlerContext,
    input: {
      accountId: string;
      title: string;
      dateFrom: string;
      dateTo: string;
      campaignIds?: string[];
      format?: 'json' | 'pdf' | 'markdown';
      whiteLabel?: Record<string, string | undefined>;
    },
  ): MaybePromise<unknown>;
  list(
    ctx: HandlerContext,
    filter: { accountIds: string[]; status?: string; page: number; pageSize: number },
  ): MaybePromise<{ items: unknown[]; total: number }>;
  get(ctx: HandlerContext, id: string): MaybePromise<unknown>;
  download(
    ctx: HandlerContext,
    id: string,
    q: { expires: string; signature: string },
  ): MaybePromise<ReportFileLike>;
  schedule(
    ctx: HandlerContext,
    input: {
      accountId: string;
      title: string;
      cadence: 'weekly' | 'monthly';
      campaignIds?: string[];
      format?: 'json' | 'pdf' | 'markdown';
      whiteLabel?: Record<string, string | undefined>;
    },
  ): MaybePromise<ReportSchedule>;
  listSchedules(ctx: HandlerContext): MaybePromise<ReportSchedule[]>;
  cancelSchedule(ctx: HandlerContext, id: string): MaybePromise<ReportSchedule>;
  /** The file without a signed link (the desktop and the signed-in dashboard have no URL to sign). */
  openFile?(ctx: HandlerContext, id: string): MaybePromise<ReportFileLike>;
}

export interface HandlerApp {
  core: Core;
  sync: SyncLike;
  diagnostics: DiagnosticsLike;
  reports: ReportsLike;
}

/** What differs between the desktop window and the web dashboard. */
export interface HandlerHost {
  kind: 'desktop' | 'web';
  /** The /v1 server's base URL, once it listens. */
  apiBaseUrl(): string | null;
  /** The embedded demo platform, when this host runs one (connect-a-demo-account). */
  demoPlatform(): { url: string; apiVersion: string } | null;
}

export interface HandlerEnv {
  app: HandlerApp;
  host: HandlerHost;
}
