// What the /v1 server needs from the composed App (src/core/app.ts): the contracts of contracts.md,
// written structurally so that the real services satisfy them without this folder importing them.
import type { Core } from '../core';
import type { RequestContext } from '../identity/access';

type MaybePromise<T> = T | Promise<T>;

export interface LatestDiagnosticInfo {
  id: string;
  riskLevel: string | null;
  issuesDetected: number;
  completedAt: string | null;
}

export interface ApiDiagnostics {
  create(
    ctx: RequestContext,
    input: { accountId: string; campaignId: string | null; dateFrom: string; dateTo: string },
  ): MaybePromise<object>;
  get(ctx: RequestContext, id: string): MaybePromise<object | undefined>;
  list(
    ctx: RequestContext,
    filter: {
      accountIds: string[];
      riskLevel?: string;
      dateStart?: string;
      dateEnd?: string;
      status?: string;
      campaignId?: string;
      page: number;
      pageSize: number;
    },
  ): MaybePromise<{ items: object[]; total: number }>;
  latestForCampaigns(campaignIds: string[]): MaybePromise<Map<string, LatestDiagnosticInfo>>;
}

export interface ApiWhiteLabel {
  companyName: string;
  logo?: string;
  primaryColor?: string;
  footerText?: string;
}

export interface ApiReports {
  setBaseUrl(url: string): void;
  create(
    ctx: RequestContext,
    input: {
      accountId: string;
      title: string;
      dateFrom: string;
      dateTo: string;
      campaignIds?: string[];
      format?: 'json' | 'pdf' | 'markdown';
      whiteLabel?: ApiWhiteLabel;
    },
  ): MaybePromise<object>;
  list(
    ctx: RequestContext,
    filter: {
      accountIds: string[];
      campaignId?: string;
      accountId?: string;
      status?: string;
      format?: string;
      from?: string;
      to?: string;
      page: number;
      pageSize: number;
    },
  ): MaybePromise<{ items: object[]; total: number }>;
  get(ctx: RequestContext, id: string): MaybePromise<object | undefined>;
  download(
    ctx: RequestContext,
    id: string,
    query: { expires: string; signature: string },
  ): MaybePromise<{ contentType: string; fileName: string; contentDisposition?: string; body: Buffer }>;
}

export interface ApiSync {
  startSync(
    accountId: string,
    opts?: { kind?: 'full' | 'incremental' },
  ): { syncRunId: string; startedAt: string; done: Promise<unknown> };
  isSyncing(accountId: string): boolean;
}

/** The slice of the App the /v1 server uses. */
export interface ApiApp {
  core: Core;
  sync: ApiSync;
  diagnostics: ApiDiagnostics;
  reports: ApiReports;
}
