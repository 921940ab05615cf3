// The team server's rate-limit counters: RateLimiter's sliding windows kept in PostgreSQL, so that
// "120 reads a minute" is per key across every serve process on the database, not per process.
import type { Clock } from '../clock';
import { inTransaction, pgFailure, type PgPool } from '../store/pg/connect';
import {
  judge,
  WINDOW_MS,
  type Counter,
  type Limits,
  type RateDecision,
  type RateLimitCounters,
} from './rate-limit';

// Per-key locks live in the two-int advisory space (class, hashtext(key)), apart from the migration
// lock's one-bigint space. "ADRL": AdLens rate limits. Two keys sharing a hash only wait for each other.
const RATE_LOCK_CLASS = 0x4144524c;
// The sweep leaves a spare window: processes' clocks differ a little, and a row one process thinks
// expired may still be inside another's window.
const KEPT_MS = 2 * WINDOW_MS;

interface CounterUsage {
  counter: Counter;
  count: number;
  oldest: number;
}

export class PgRateLimiter implements RateLimitCounters {
  private sweptAt = -Infinity;

  constructor(
    private readonly pool: PgPool,
    private readonly clock: Clock,
  ) {}

  /**
   * The same decision as RateLimiter.take, made under a per-key transaction lock: concurrent takes of
   * one key, from any process, see each other's requests and never admit more than the limit.
   */
  async take(keyId: string, counters: readonly Counter[], limits: Limits): Promise<RateDecision> {
    const now = this.clock.now().getTime();
    let decision: RateDecision;
    try {
      decision = await inTransaction(this.pool, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [RATE_LOCK_CLASS, keyId]);
        // READ COMMITTED: this statement's snapshot is taken after the lock, so it sees every request
        // the key's previous holders committed.
        const { rows } = await client.query<CounterUsage>(
          `SELECT counter, count(*)::int AS count, min(made_at)::float8 AS oldest
           FROM team_rate_limit_requests
           WHERE key_id = $1 AND counter = ANY($2::text[]) AND made_at > $3
           GROUP BY counter`,
          [keyId, counters, now - WINDOW_MS],
        );
        const usage = new Map(rows.map((row) => [row.counter, row]));
        const decided = judge(
          counters,
          limits,
          now,
          (i) => usage.get(counters[i] as Counter)?.count ?? 0,
          (i) => usage.get(counters[i] as Counter)?.oldest ?? now,
        );
        if (decided.ok) {
          await client.query(
            `INSERT INTO team_rate_limit_requests (key_id, counter, made_at)
             SELECT $1, unnest($2::text[]), $3`,
            [keyId, counters, now],
          );
        }
        return decided;
      });
    } catch (error) {
      throw pgFailure(error, 'counting the rate limit');
    }
    // A failed sweep costs only space: the request stands, and the next window sweeps again.
    if (now - this.sweptAt >= WINDOW_MS) await this.sweep(now).catch(() => {});
    return decision;
  }

  async forget(keyId: string): Promise<void> {
    try {
      await this.pool.query('DELETE FROM team_rate_limit_requests WHERE key_id = $1', [keyId]);
    } catch (error) {
      throw pgFailure(error, 'forgetting rate-limit windows');
    }
  }

  /**
   * Deletes requests no process counts any more, keys long idle included; each process does it once a
   * window. SKIP LOCKED: two processes sweeping together never wait for (or deadlock on) each other.
   */
  async sweep(now = this.clock.now().getTime()): Promise<void> {
    this.sweptAt = now;
    try {
      await this.pool.query(
        `DELETE FROM team_rate_limit_requests WHERE ctid = ANY (ARRAY(
           SELECT ctid FROM team_rate_limit_requests WHERE made_at <= $1 FOR UPDATE SKIP LOCKED))`,
        [now - KEPT_MS],
      );
    } catch (error) {
      throw pgFailure(error, 'sweeping rate-limit windows');
    }
  }
}
