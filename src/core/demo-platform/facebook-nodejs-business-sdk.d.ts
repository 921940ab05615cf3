// The slice of Meta's facebook-nodejs-business-sdk (a devDependency, untyped) that the
// wire-compatibility test uses.
declare module 'facebook-nodejs-business-sdk' {
  export class FacebookAdsApi {
    static init(accessToken: string, locale?: string, crashLog?: boolean): FacebookAdsApi;
    static readonly GRAPH: string;
    static readonly VERSION: string;
    setDebug(flag: boolean): FacebookAdsApi;
  }

  export interface Cursor<T> extends Array<T> {
    hasNext(): boolean;
    next(): Promise<Cursor<T>>;
  }

  export class AbstractCrudObject {
    constructor(id: string | null, data?: Record<string, unknown>);
    readonly id: string;
    exportData(): Record<string, unknown>;
  }

  export class User extends AbstractCrudObject {
    getAdAccounts(fields: string[], params?: Record<string, unknown>): Promise<Cursor<AdAccount>>;
  }

  export class AdAccount extends AbstractCrudObject {
    getCampaigns(fields: string[], params?: Record<string, unknown>): Promise<Cursor<Campaign>>;
    getAdSets(fields: string[], params?: Record<string, unknown>): Promise<Cursor<AdSet>>;
    getInsights(fields: string[], params?: Record<string, unknown>): Promise<Cursor<AdsInsights>>;
    getInsightsAsync(fields: string[], params?: Record<string, unknown>): Promise<AdReportRun>;
  }

  export class Campaign extends AbstractCrudObject {}
  export class AdSet extends AbstractCrudObject {}
  export class AdsInsights extends AbstractCrudObject {}

  export class AdReportRun extends AbstractCrudObject {
    get(fields: string[], params?: Record<string, unknown>): Promise<AdReportRun>;
    getInsights(fields: string[], params?: Record<string, unknown>): Promise<Cursor<AdsInsights>>;
  }

  export class FacebookRequestError extends Error {
    readonly status: number;
    readonly response: { code?: number; error_subcode?: number } | undefined;
  }
}
