// Mutable server state: issued tokens, injected failures, usage counters, async jobs. The
// DemoControls facade is what tests (and the CLI) use to flip the switches.

import { hash32 } from './prng';
import type { InsightsQuery, Scope } from './insights-query';
import { DEMO_SYSTEM_USER_TOKEN, DEMO_TOKEN, type DemoControls, type ThrottleCode } from './types';

export interface IssuedToken {
  token: string;
  issuedAt: number;
  /** Unix seconds, 0 = never. */
  expiresAt: number;
}

export interface AsyncJob {
  id: string;
  scope: Scope;
  query: InsightsQuery;
  polls: number;
  failed: boolean;
  createdAt: number;
}

/** The size above which synchronous insight reads are refused (the connector's ASYNC_ROWS agrees). */
export const DEFAULT_SYNC_INSIGHTS_ROW_LIMIT = 100_000;

export class DemoState {
  latencyMs = 0;
  throttle: { n: number; code: ThrottleCode; regainMinutes: number } = { n: 0, code: 17, regainMinutes: 1 };
  fail: { n: number; code: 1 | 2 } = { n: 0, code: 2 };
  asyncPolls = 2;
  failJobs = 0;
  /** Synchronous insight reads that could give more rows (entities × days) are refused. */
  syncInsightsRowLimit = DEFAULT_SYNC_INSIGHTS_ROW_LIMIT;
  expiredAll = false;
  readonly expired = new Map<string, number>();
  readonly issued = new Map<string, IssuedToken>();
  /** Expiries set by `setTokenExpiry` (unix seconds, 0 = never), over what the token was issued with. */
  readonly expiries = new Map<string, number>();
  readonly jobs = new Map<string, AsyncJob>();
  readonly usage = new Map<string, { management: number; insights: number }>();
  appCalls = 0;
  requests = 0;
  readonly log: string[] = [];
  /** Usage is counted over a rolling hour, as Meta's percentages are: older calls stop counting. */
  private usageWindowStart = Date.now();
  private tokenCounter = 0;
  private jobCounter = 0;
  private traceCounter = 0;

  constructor(readonly seed: number) {}

  issueToken(lifetimeSeconds: number): IssuedToken {
    this.tokenCounter++;
    const now = Math.floor(Date.now() / 1000);
    const body = `${hash32(this.seed, 'token', this.tokenCounter).toString(36)}${hash32(this.tokenCounter, 'salt', now).toString(36)}`;
    const issued = {
      token: `EAADemo${this.tokenCounter}ZD${body}`,
      issuedAt: now,
      expiresAt: lifetimeSeconds > 0 ? now + lifetimeSeconds : 0,
    };
    this.issued.set(issued.token, issued);
    return issued;
  }

  /** 'valid', 'expired' (with when) or 'invalid'. */
  checkToken(token: string): { state: 'valid' } | { state: 'expired'; at: number } | { state: 'invalid' } {
    const known = token === DEMO_TOKEN || token === DEMO_SYSTEM_USER_TOKEN || this.issued.has(token);
    if (!known) return { state: 'invalid' };
    const now = Math.floor(Date.now() / 1000);
    const expiredAt = this.expired.get(token) ?? (this.expiredAll ? now : undefined);
    if (expiredAt !== undefined) return { state: 'expired', at: expiredAt };
    const expiresAt = this.expiresAt(token);
    if (expiresAt > 0 && expiresAt < now) return { state: 'expired', at: expiresAt };
    return { state: 'valid' };
  }

  /** Unix seconds, 0 = never (the fixed demo tokens, unless a test set one). */
  expiresAt(token: string): number {
    return this.expiries.get(token) ?? this.issued.get(token)?.expiresAt ?? 0;
  }

  isSystemUser(token: string): boolean {
    return token === DEMO_SYSTEM_USER_TOKEN;
  }

  newJobId(): string {
    this.jobCounter++;
    return `60${String(hash32(this.seed, 'jobs') % 100000).padStart(5, '0')}${String(this.jobCounter).padStart(8, '0')}`;
  }

  traceId(): string {
    this.traceCounter++;
    return `A${hash32(this.seed, 'trace', this.traceCounter).toString(36)}${this.traceCounter.toString(36)}Z`;
  }

  countUsage(accountId: string, kind: 'management' | 'insights'): { management: number; insights: number } {
    const usage = this.usage.get(accountId) ?? { management: 0, insights: 0 };
    usage[kind]++;
    this.usage.set(accountId, usage);
    return usage;
  }

  record(line: string): void {
    if (Date.now() - this.usageWindowStart >= 3_600_000) {
      this.usageWindowStart = Date.now();
      this.appCalls = 0;
      this.usage.clear();
    }
    this.requests++;
    this.log.push(line);
    if (this.log.length > 1000) this.log.shift();
  }

  reset(): void {
    this.latencyMs = 0;
    this.throttle = { n: 0, code: 17, regainMinutes: 1 };
    this.fail = { n: 0, code: 2 };
    this.asyncPolls = 2;
    this.failJobs = 0;
    this.expiredAll = false;
    this.expired.clear();
    this.expiries.clear();
    this.jobs.clear();
    this.usage.clear();
    this.appCalls = 0;
    this.requests = 0;
    this.log.length = 0;
  }
}

function count(n: number): number {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`expected a non-negative integer, got ${n}`);
  return n;
}

export function controlsFor(
  state: DemoState,
): Omit<DemoControls, 'setStatus' | 'attributeLate' | 'disapproveAd' | 'reachSpendCap'> {
  return {
    setLatency: (ms) => {
      state.latencyMs = Math.max(0, ms);
    },
    throttleNext: (n, code = 17, opts) => {
      state.throttle = { n: count(n), code, regainMinutes: opts?.regainMinutes ?? 1 };
    },
    failNext: (n, code = 2) => {
      state.fail = { n: count(n), code };
    },
    expireToken: (token) => {
      if (token === 'all') state.expiredAll = true;
      else state.expired.set(token, Math.floor(Date.now() / 1000));
    },
    setTokenExpiry: (token, expiresAt) => {
      state.expiries.set(token, Math.max(0, Math.floor(expiresAt)));
    },
    setAsyncPolls: (n) => {
      state.asyncPolls = count(n);
    },
    failNextJobs: (n) => {
      state.failJobs = count(n);
    },
    reset: () => state.reset(),
    requestCount: () => state.requests,
    requestLog: () => [...state.log],
  };
}
