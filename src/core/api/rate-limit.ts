// Per-key sliding 60-second windows, one per counter (DESIGN §5). Solo, they are kept in memory
// (RateLimiter): a restart forgets them, which errs on the side of the script author. A team server's
// processes share them in PostgreSQL (PgRateLimiter, rate-limit-pg.ts); both decide with `judge`.
import type { Clock } from '../clock';

export type Counter = 'reads' | 'writes' | 'diagnostics' | 'reports';
export type Limits = Record<Counter, number>;

export const DEFAULT_LIMITS: Readonly<Limits> = { reads: 120, writes: 10, diagnostics: 10, reports: 5 };
export const WINDOW_MS = 60_000;

export type RateDecision =
  | { ok: true; remaining: number; limit: number; counter: Counter }
  | { ok: false; retryAfterSeconds: number; counter: Counter };

/**
 * Rate-limit counters, the port both engines implement. Solo answers synchronously (the request path
 * stays free of a tick); a team's answer comes from the database.
 */
export interface RateLimitCounters {
  /**
   * Checks every counter the request uses and, only if all pass, records the request in each.
   * `remaining` is what is left in the tightest of them after this request.
   */
  take(keyId: string, counters: readonly Counter[], limits: Limits): RateDecision | Promise<RateDecision>;
  /** Forgets a key's windows (after revocation, say). */
  forget(keyId: string): void | Promise<void>;
}

/**
 * The one rule for a request at `now`: `countAt(i)` is how many requests counter `counters[i]` holds
 * in its window, `oldestAt(i)` when the oldest of them was made (asked only of a full counter). A
 * refusal names the counter that frees up last; an admission the counter with the least left.
 */
export function judge(
  counters: readonly Counter[],
  limits: Limits,
  now: number,
  countAt: (i: number) => number,
  oldestAt: (i: number) => number,
): RateDecision {
  let refused: { retryAfterSeconds: number; counter: Counter } | undefined;
  let tightest: { remaining: number; limit: number; counter: Counter } | undefined;
  for (let i = 0; i < counters.length; i++) {
    const counter = counters[i] as Counter;
    const count = countAt(i);
    const limit = limits[counter];
    if (count >= limit) {
      const wait = Math.max(1, Math.ceil((oldestAt(i) + WINDOW_MS - now) / 1000));
      if (!refused || wait > refused.retryAfterSeconds) refused = { retryAfterSeconds: wait, counter };
      continue;
    }
    const remaining = limit - count - 1;
    if (!tightest || remaining < tightest.remaining) tightest = { remaining, limit, counter };
  }
  if (refused) return { ok: false, ...refused };
  return { ok: true, ...(tightest as { remaining: number; limit: number; counter: Counter }) };
}

/** Request times of one counter, oldest first; a moving head avoids shifting the array. */
class SlidingLog {
  private times: number[] = [];
  private head = 0;

  count(now: number): number {
    const cutoff = now - WINDOW_MS;
    while (this.head < this.times.length && (this.times[this.head] as number) <= cutoff) this.head++;
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
    return this.times.length - this.head;
  }

  oldest(): number {
    return this.times[this.head] as number;
  }

  add(now: number): void {
    this.times.push(now);
  }
}

export class RateLimiter implements RateLimitCounters {
  private readonly logs = new Map<string, Map<Counter, SlidingLog>>();

  constructor(private readonly clock: Clock) {}

  take(keyId: string, counters: readonly Counter[], limits: Limits): RateDecision {
    const now = this.clock.now().getTime();
    let perKey = this.logs.get(keyId);
    if (!perKey) {
      perKey = new Map();
      this.logs.set(keyId, perKey);
    }
    const logs: SlidingLog[] = [];
    for (const counter of counters) {
      let log = perKey.get(counter);
      if (!log) {
        log = new SlidingLog();
        perKey.set(counter, log);
      }
      logs.push(log);
    }
    const decision = judge(
      counters,
      limits,
      now,
      (i) => (logs[i] as SlidingLog).count(now),
      (i) => (logs[i] as SlidingLog).oldest(),
    );
    if (decision.ok) for (const log of logs) log.add(now);
    return decision;
  }

  forget(keyId: string): void {
    this.logs.delete(keyId);
  }
}

export function limitsFor(overrides: Partial<Limits> | null | undefined): Limits {
  return { ...DEFAULT_LIMITS, ...(overrides ?? {}) };
}
