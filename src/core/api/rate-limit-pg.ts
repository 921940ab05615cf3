// The team server's rate-limit counters: RateLimiter's sliding windows kept in PostgreSQL, so that
// "120 reads a minute" is per key across every serve process on the database, not per process.
import type { Clock } from '../clock';
import { pgFailure, type PgPool } from '../store/pg/connect';
import {
  judge,
  WINDOW_MS,
  type Counter,
  type Limits,
  type RateDecision,
  type RateLimitCounters,
} from './rate-limit';

// The sweep leaves a spare window: processes' clocks differ a little, and a row one process thinks
// expired may still be inside another's window.
const KEPT_MS = 2 * WINDOW_MS;
/** The advisory lock class of a key's windows ("ADRL", as rate_limit_take takes it: migration 0008). */
const KEY_LOCK_CLASS = 1094996556;

/** A counter's requests in the window before this one, and the oldest of them (null: none). */
interface CounterUsage {
  counter: Counter;
  used: number;
  oldest: number | null;
}

export class PgRateLimiter implements RateLimitCounters {
  private sweptAt = -Infinity;
  /**
   * Counters this process saw full: until their oldest request leaves the window nothing can free
   * them (other processes' requests only add), so a take is refused here without the database while
   * the limit is no higher than the one they were full at.
   */
  private readonly full = new Map<string, { until: number; limit: number }>();

  constructor(
    private readonly pool: PgPool,
    private readonly clock: Clock,
  ) {}

  /**
   * The same decision as RateLimiter.take, made in one statement under a per-key lock
   * (`rate_limit_take`, PostgreSQL migration 0008): concurrent takes of one key, from any process,
   * see each other's requests and never admit more than the limit.
   */
  async take(keyId: string, counters: readonly Counter[], limits: Limits): Promise<RateDecision> {
    const now = this.clock.now().getTime();
    const known = this.knownFull(keyId, counters, limits, now);
    if (known) return known;
    let usage: Map<string, CounterUsage>;
    try {
      const { rows } = await this.pool.query<CounterUsage>(
        'SELECT counter, used, oldest::float8 AS oldest FROM rate_limit_take($1, $2, $3, $4, $5)',
        [keyId, counters, counters.map((counter) => limits[counter]), now, WINDOW_MS],
      );
      usage = new Map(rows.map((row) => [row.counter, row]));
    } catch (error) {
      throw pgFailure(error, 'counting the rate limit');
    }
    const decision = judge(
      counters,
      limits,
      now,
      (i) => usage.get(counters[i] as Counter)?.used ?? 0,
      (i) => usage.get(counters[i] as Counter)?.oldest ?? now,
    );
    if (!decision.ok) {
      const counter = decision.counter;
      const oldest = usage.get(counter)?.oldest ?? now;
      this.full.set(`${keyId}\u0000${counter}`, { until: oldest + WINDOW_MS, limit: limits[counter] });
    }
    // A failed sweep costs only space: the request stands, and the next window sweeps again.
    if (now - this.sweptAt >= WINDOW_MS) await this.sweep(now).catch(() => {});
    return decision;
  }

  /** The refusal of a take some of whose counters are known full (see `full`), or null. */
  private knownFull(
    keyId: string,
    counters: readonly Counter[],
    limits: Limits,
    now: number,
  ): RateDecision | null {
    if (this.full.size === 0) return null;
    const fullOf = (counter: Counter) => {
      const full = this.full.get(`${keyId}\u0000${counter}`);
      return full && now < full.until && limits[counter] <= full.limit ? full : undefined;
    };
    if (!counters.some((counter) => fullOf(counter))) return null;
    return judge(
      counters,
      limits,
      now,
      (i) => (fullOf(counters[i] as Counter) ? limits[counters[i] as Counter] : 0),
      (i) => (fullOf(counters[i] as Counter)?.until ?? now) - WINDOW_MS,
    );
  }

  async forget(keyId: string): Promise<void> {
    for (const counter of this.full.keys())
      if (counter.startsWith(`${keyId}\u0000`)) this.full.delete(counter);
    try {
      // Under the key's lock (as a take holds it), so that no take counts one table without the other.
      await this.pool.query(
        `WITH held AS (SELECT pg_advisory_xact_lock(${KEY_LOCK_CLASS}, hashtext($1))),
           requests AS (DELETE FROM team_rate_limit_requests WHERE key_id = $1 AND EXISTS (SELECT 1 FROM held))
         DELETE FROM team_rate_limit_totals WHERE key_id = $1 AND EXISTS (SELECT 1 FROM held)`,
        [keyId],
      );
    } catch (error) {
      throw pgFailure(error, 'forgetting rate-limit windows');
    }
  }

  /**
   * Deletes requests no process counts any more, of keys long idle (a busy key's takes delete their
   * own), and takes them off their keys' totals; each process does it once a window. Only keys whose
   * lock it gets at once: it never waits for a take (nor another sweep), and a take of a key it holds
   * waits until both tables agree again.
   */
  async sweep(now = this.clock.now().getTime()): Promise<void> {
    this.sweptAt = now;
    for (const [counter, full] of this.full) if (full.until <= now) this.full.delete(counter);
    try {
      await this.pool.query(
        `WITH gone AS (
           DELETE FROM team_rate_limit_requests WHERE ctid = ANY (ARRAY(
             SELECT r.ctid FROM (
               SELECT ctid, key_id FROM team_rate_limit_requests WHERE made_at <= $1 OFFSET 0) r
             WHERE pg_try_advisory_xact_lock(${KEY_LOCK_CLASS}, hashtext(r.key_id))))
           RETURNING key_id, counter),
         counted AS (SELECT key_id, counter, count(*)::integer AS n FROM gone GROUP BY key_id, counter)
         UPDATE team_rate_limit_totals t SET requests = t.requests - c.n FROM counted c
         WHERE t.key_id = c.key_id AND t.counter = c.counter`,
        [now - KEPT_MS],
      );
    } catch (error) {
      throw pgFailure(error, 'sweeping rate-limit windows');
    }
  }
}
