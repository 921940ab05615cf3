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

/** A take's decision, or why there is none (settled to its caller, never left unhandled). */
type Outcome = { decision: RateDecision } | { error: unknown };

/** A counter's requests in the window before this one, and the oldest of them (null: none). */
interface CounterUsage {
  counter: Counter;
  used: number;
  oldest: number | null;
}

export class PgRateLimiter implements RateLimitCounters {
  private sweptAt = -Infinity;
  /** The sweep a take started last (tests wait for it). */
  sweeping: Promise<void> = Promise.resolve();
  /**
   * Counters this process saw full: until their oldest request leaves the window nothing can free
   * them (other processes' requests only add), so a take is refused here without the database while
   * the limit is no higher than the one they were full at.
   */
  private readonly full = new Map<string, { until: number; limit: number }>();
  /** Takes of one key, counters and limits waiting for the one on its way (a line exists while it is). */
  private readonly lines = new Map<string, Array<(outcome: Outcome) => void>>();

  constructor(
    private readonly pool: PgPool,
    private readonly clock: Clock,
  ) {}

  /**
   * The same decision as RateLimiter.take, made in one statement under a per-key lock
   * (`rate_limit_take`, PostgreSQL migrations 0008 and 0019): concurrent takes of one key, from any
   * process, see each other's requests and never admit more than the limit. This process's takes of
   * one key and limits that arrive while one is on its way go together when it returns (`inLine`).
   */
  async take(keyId: string, counters: readonly Counter[], limits: Limits): Promise<RateDecision> {
    const now = this.clock.now().getTime();
    const known = this.knownFull(keyId, counters, limits, now);
    if (known) return known;
    const decision = await this.inLine(keyId, counters, limits);
    // Off the request's path: a sweep may delete a busy key's last minute of requests. A failed one
    // costs only space, and the next window sweeps again.
    if (now - this.sweptAt >= WINDOW_MS) this.sweeping = this.sweep(now).catch(() => {});
    return decision;
  }

  private inLine(keyId: string, counters: readonly Counter[], limits: Limits): Promise<RateDecision> {
    const kind = [keyId, ...counters.map((counter) => `${counter}=${limits[counter]}`)].join('\u0000');
    return new Promise<Outcome>((settle) => {
      const waiting = this.lines.get(kind);
      if (waiting) waiting.push(settle);
      else {
        this.lines.set(kind, []);
        void this.takeTogether(kind, keyId, counters, limits, [settle]);
      }
    }).then((outcome) => {
      if ('error' in outcome) throw outcome.error;
      return outcome.decision;
    });
  }

  /** One statement for `batch` takes, then the next batch of the line, until none waits. */
  private async takeTogether(
    kind: string,
    keyId: string,
    counters: readonly Counter[],
    limits: Limits,
    batch: Array<(outcome: Outcome) => void>,
  ): Promise<void> {
    try {
      const decisions = await this.takeMany(keyId, counters, limits, batch.length);
      batch.forEach((settle, i) => settle({ decision: decisions[i] as RateDecision }));
    } catch (error) {
      for (const settle of batch) settle({ error });
    }
    const next = this.lines.get(kind) ?? [];
    if (next.length === 0) this.lines.delete(kind);
    else {
      this.lines.set(kind, []);
      await this.takeTogether(kind, keyId, counters, limits, next);
    }
  }

  /**
   * The decisions of `takes` identical takes made one after the other now: the database admits as
   * many as every counter has room for and returns the usage before them (migration 0019).
   */
  private async takeMany(
    keyId: string,
    counters: readonly Counter[],
    limits: Limits,
    takes: number,
  ): Promise<RateDecision[]> {
    const now = this.clock.now().getTime();
    let usage: Map<string, CounterUsage>;
    let admitted = 0;
    try {
      const { rows } = await this.pool.query<CounterUsage & { admitted: number }>(
        `SELECT counter, used, oldest::float8 AS oldest, admitted
         FROM rate_limit_take($1, $2, $3, $4, $5, $6)`,
        [keyId, counters, counters.map((counter) => limits[counter]), now, WINDOW_MS, takes],
      );
      usage = new Map(rows.map((row) => [row.counter, row]));
      admitted = rows[0]?.admitted ?? 0;
    } catch (error) {
      throw pgFailure(error, 'counting the rate limit');
    }
    // The n-th take saw the requests before the batch and the batch's admitted ones before it.
    const decisions = Array.from({ length: takes }, (_, n) =>
      judge(
        counters,
        limits,
        now,
        (i) => (usage.get(counters[i] as Counter)?.used ?? 0) + Math.min(n, admitted),
        (i) => usage.get(counters[i] as Counter)?.oldest ?? now,
      ),
    );
    const refused = decisions.find((decision) => !decision.ok);
    if (refused && !refused.ok) {
      const oldest = usage.get(refused.counter)?.oldest ?? now;
      this.full.set(`${keyId}\u0000${refused.counter}`, {
        until: oldest + WINDOW_MS,
        limit: limits[refused.counter],
      });
    }
    return decisions;
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
           requests AS (DELETE FROM team_rate_limit_log WHERE key_id = $1 AND EXISTS (SELECT 1 FROM held))
         DELETE FROM team_rate_limit_counts WHERE key_id = $1 AND EXISTS (SELECT 1 FROM held)`,
        [keyId],
      );
    } catch (error) {
      throw pgFailure(error, 'forgetting rate-limit windows');
    }
  }

  /**
   * Deletes the requests no window counts any more (older than two windows); each process does it once
   * a window. A take leaves them (migration 0019): one its key's count is already past goes without
   * waiting for anyone (the busy keys'); one still counted (an idle key's) goes under its key's lock and
   * comes off its count, only for keys whose lock it gets at once: it never waits for a take (nor
   * another sweep), and a take of a key it holds waits until the count and the log agree again.
   */
  async sweep(now = this.clock.now().getTime()): Promise<void> {
    this.sweptAt = now;
    for (const [counter, full] of this.full) if (full.until <= now) this.full.delete(counter);
    try {
      // The counts' instants are read again when each count is updated (a take of the key may have
      // moved it after this statement began, before the lock was got): what a take has already taken
      // off is not taken off twice.
      await this.pool.query(
        `WITH gone AS (
           DELETE FROM team_rate_limit_log WHERE ctid = ANY (ARRAY(
             SELECT r.ctid FROM (
               SELECT l.ctid, l.key_id, l.made_at, t.counted_after FROM team_rate_limit_log l
               LEFT JOIN team_rate_limit_counts t ON t.key_id = l.key_id AND t.counter = l.counter
               WHERE l.made_at <= $1 OFFSET 0) r
             WHERE CASE WHEN r.made_at <= r.counted_after THEN true
               ELSE pg_try_advisory_xact_lock(${KEY_LOCK_CLASS}, hashtext(r.key_id)) END))
           RETURNING key_id, counter, made_at)
         UPDATE team_rate_limit_counts t SET requests = t.requests - (
           SELECT count(*) FROM gone g
           WHERE g.key_id = t.key_id AND g.counter = t.counter AND g.made_at > t.counted_after)
         WHERE (t.key_id, t.counter) IN (SELECT key_id, counter FROM gone)`,
        [now - KEPT_MS],
      );
    } catch (error) {
      throw pgFailure(error, 'sweeping rate-limit windows');
    }
  }
}
