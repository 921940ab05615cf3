// Pacing per ad account from Meta's usage headers (research §5.3): every sync of one account in this
// process shares one Pacer, so two syncs of the same account (or a sync and a connect check) slow
// down together, while other accounts keep their own budget.

/** What one response's usage headers say. */
export interface UsageReading {
  /** The highest utilisation percentage in x-business-use-case-usage, x-ad-account-usage, x-app-usage. */
  maxPercent: number;
  /** The longest estimated_time_to_regain_access (or reset_time_duration while throttled), ms. */
  regainAccessMs: number;
  /** ads_api_access_tier, when sent (development_access has far smaller budgets). */
  accessTier?: string;
}

/** Below this utilisation requests go out unpaced. */
export const PACE_FROM_PERCENT = 60;
/** The pause before each request at 100% utilisation; it grows quadratically from PACE_FROM_PERCENT. */
export const PACE_MAX_DELAY_MS = 8_000;

/** The pause before the next request at this utilisation: 0 below 60%, ~0.5 s at 75%, ~4.5 s at 90%. */
export function paceDelayMs(percent: number): number {
  if (percent < PACE_FROM_PERCENT) return 0;
  const x = Math.min(1, (percent - PACE_FROM_PERCENT) / (100 - PACE_FROM_PERCENT));
  return Math.round(PACE_MAX_DELAY_MS * x * x);
}

/** The wait before the next request: the throttle's remaining time, else the usage pace. */
export function nextRequestDelayMs(percent: number, blockedForMs: number): number {
  return blockedForMs > 0 ? blockedForMs : paceDelayMs(percent);
}

/**
 * Pacing shared by every process of a team server (pacing-pg.ts), keyed by pacingKey: what one
 * process's responses report slows the others' requests to the same ad account.
 */
export interface SharedPacing {
  record(accountKey: string, reading: UsageReading): Promise<void>;
  /** How long a request to this account should wait now (0 when unknown or unpaced). */
  waitMs(accountKey: string): Promise<number>;
}

export class Pacer {
  /** The last utilisation reported for this account. */
  percent = 0;
  accessTier: string | undefined;
  /** Epoch ms before which no request of this account should go out (throttled). */
  blockedUntil = 0;

  constructor(private readonly now: () => number = Date.now) {}

  clockNow(): number {
    return this.now();
  }

  observe(reading: UsageReading): void {
    this.percent = reading.maxPercent;
    if (reading.accessTier) this.accessTier = reading.accessTier;
    if (reading.regainAccessMs > 0) {
      this.blockedUntil = Math.max(this.blockedUntil, this.now() + reading.regainAccessMs);
    }
  }

  /** How long the next request should wait: the throttle's remaining time, else the usage pace. */
  delayMs(): number {
    return nextRequestDelayMs(this.percent, this.blockedUntil - this.now());
  }
}

const pacers = new Map<string, Pacer>();

/** One ad account on one platform (the demo's act_1 is not Meta's). */
export function pacingKey(baseUrl: string, platformAccountId: string): string {
  return `${baseUrl}|${platformAccountId}`;
}

/** The pacer of one ad account on one platform. */
export function pacerFor(baseUrl: string, platformAccountId: string, now?: () => number): Pacer {
  const key = pacingKey(baseUrl, platformAccountId);
  let pacer = pacers.get(key);
  if (!pacer) {
    pacer = new Pacer(now);
    pacers.set(key, pacer);
  }
  return pacer;
}
