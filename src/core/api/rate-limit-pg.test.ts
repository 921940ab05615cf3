// Two pools on one database stand for two serve processes: the limits they enforce are per key in
// total, decided exactly as the solo RateLimiter decides them.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../test-support/api-fixtures';
import { startTestPostgres, type TestPostgres } from '../../test-support/postgres';
import { connectPg, type PgPool } from '../store/pg/connect';
import { migratePg } from '../store/pg/migrate';
import { DEFAULT_LIMITS, RateLimiter, type Counter, type Limits } from './rate-limit';
import { PgRateLimiter } from './rate-limit-pg';

let server: TestPostgres;
let pools: PgPool[] = [];
beforeAll(async () => {
  server = await startTestPostgres();
});
afterEach(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  pools = [];
});
afterAll(async () => {
  await server?.stop();
});

const T0 = Date.parse('2026-03-02T09:00:00Z');

/** Two processes' limiters on one fresh database, on one clock the test moves. */
async function twoProcesses(): Promise<{
  a: PgRateLimiter;
  b: PgRateLimiter;
  clock: TestClock;
  pool: PgPool;
}> {
  const url = await server.createDatabase();
  const [first, second] = [connectPg(url), connectPg(url)];
  pools.push(first, second);
  await migratePg(first);
  const clock = new TestClock(T0);
  return { a: new PgRateLimiter(first, clock), b: new PgRateLimiter(second, clock), clock, pool: first };
}

async function rowCount(pool: PgPool, keyId?: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM team_rate_limit_log WHERE $1::text IS NULL OR key_id = $1',
    [keyId ?? null],
  );
  return rows[0]?.n ?? 0;
}

/** A third process's limiter on `pool`, and how many statements it has sent so far. */
function counting(pool: PgPool, clock: TestClock): { limiter: PgRateLimiter; asked: () => number } {
  let asked = 0;
  const counted = new Proxy(pool, {
    get: (target, name) =>
      name === 'query'
        ? (...args: Parameters<PgPool['query']>) => {
            asked += 1;
            return target.query(...args);
          }
        : (Reflect.get(target, name) as unknown),
  });
  return { limiter: new PgRateLimiter(counted, clock), asked: () => asked };
}

describe('PgRateLimiter', () => {
  it('counts a key across processes: 120 reads split between them, the 121st refused on either', async () => {
    const { a, b, clock } = await twoProcesses();
    const remaining: number[] = [];
    for (let i = 0; i < 120; i++) {
      if (i === 60) clock.advance(17_000);
      const decision = await (i % 2 ? b : a).take('key-1', ['reads'], DEFAULT_LIMITS);
      expect(decision.ok).toBe(true);
      if (decision.ok) remaining.push(decision.remaining);
    }
    expect(remaining).toEqual(Array.from({ length: 120 }, (_, i) => 119 - i));
    // The oldest read is 17 s old: it leaves the window in 43 s.
    const refused = { ok: false, retryAfterSeconds: 43, counter: 'reads' };
    expect(await a.take('key-1', ['reads'], DEFAULT_LIMITS)).toEqual(refused);
    expect(await b.take('key-1', ['reads'], DEFAULT_LIMITS)).toEqual(refused);
    // Refusals are not recorded; 43 s on, the first 60 reads have left the window.
    clock.advance(43_000);
    expect(await b.take('key-1', ['reads'], DEFAULT_LIMITS)).toEqual({
      ok: true,
      remaining: 59,
      limit: 120,
      counter: 'reads',
    });
  });

  it('keeps keys and counters apart, and records in none when one counter refuses', async () => {
    const { a, b } = await twoProcesses();
    const limits = { reads: 100, writes: 3, diagnostics: 1, reports: 1 };
    expect(await a.take('k', ['writes', 'diagnostics'], limits)).toMatchObject({
      ok: true,
      remaining: 0,
      counter: 'diagnostics',
    });
    expect(await b.take('k', ['writes', 'diagnostics'], limits)).toMatchObject({
      ok: false,
      counter: 'diagnostics',
    });
    // The refused request used no write: two are left, one taken with a report.
    expect(await b.take('k', ['writes', 'reports'], limits)).toMatchObject({
      ok: true,
      remaining: 0,
      counter: 'reports',
    });
    expect(await a.take('k', ['writes'], limits)).toMatchObject({
      ok: true,
      remaining: 0,
      counter: 'writes',
    });
    expect(await b.take('k', ['writes'], limits)).toMatchObject({ ok: false, counter: 'writes' });
    expect(await b.take('k', ['reads'], limits)).toMatchObject({ ok: true, remaining: 99 });
    expect(await a.take('other', ['writes'], limits)).toMatchObject({ ok: true, remaining: 2 });
  });

  it('decides exactly as the solo RateLimiter over a long mixed run with a sliding clock', async () => {
    const { a, b, clock } = await twoProcesses();
    const solo = new RateLimiter(clock);
    const limits: Limits = { reads: 7, writes: 4, diagnostics: 2, reports: 1 };
    const shapes: Counter[][] = [['reads'], ['writes'], ['writes', 'diagnostics'], ['writes', 'reports']];
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const team: unknown[] = [];
    const alone: unknown[] = [];
    for (let i = 0; i < 240; i++) {
      clock.advance(next(4) * 1_000 + next(1_000));
      const key = `k${next(2)}`;
      const counters = shapes[next(shapes.length)] as Counter[];
      team.push(await (next(2) ? a : b).take(key, counters, limits));
      alone.push(solo.take(key, counters, limits));
    }
    expect(team).toEqual(alone);
    expect(team.filter((d) => (d as { ok: boolean }).ok === false).length).toBeGreaterThan(20);
  });

  it('never admits more than the limit to concurrent takes from both processes', async () => {
    const { a, b, pool } = await twoProcesses();
    const limits = { ...DEFAULT_LIMITS, reads: 25 };
    const decisions = await Promise.all(
      Array.from({ length: 80 }, (_, i) => (i % 2 ? a : b).take('busy', ['reads'], limits)),
    );
    const admitted = decisions.filter((d) => d.ok);
    expect(admitted).toHaveLength(25);
    expect(admitted.map((d) => (d.ok ? d.remaining : -1)).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 25 }, (_, i) => i),
    );
    expect(await rowCount(pool, 'busy')).toBe(25);
  });

  it("sends one process's concurrent takes of a key together, decided as one after the other", async () => {
    const { b, clock, pool } = await twoProcesses();
    const { limiter: c, asked } = counting(pool, clock);
    const limits = { ...DEFAULT_LIMITS, reads: 8 };
    expect((await b.take('k', ['reads'], limits)).ok).toBe(true);
    expect((await b.take('k', ['reads'], limits)).ok).toBe(true);
    const together = await Promise.all(Array.from({ length: 10 }, () => c.take('k', ['reads'], limits)));
    const solo = new RateLimiter(clock);
    for (let i = 0; i < 2; i++) solo.take('k', ['reads'], limits);
    expect(together).toEqual(Array.from({ length: 10 }, () => solo.take('k', ['reads'], limits)));
    expect(together.filter((d) => d.ok)).toHaveLength(6);
    // The first take alone, the nine that came while it was on its way together, and a sweep.
    expect(asked()).toBe(3);
    expect(await rowCount(pool, 'k')).toBe(8);
  });

  it('refuses a counter it saw full without the database, until a request leaves or the limit rises', async () => {
    const { b, clock, pool } = await twoProcesses();
    const { limiter: c, asked: askedSoFar } = counting(pool, clock);
    const limits = { ...DEFAULT_LIMITS, reads: 3 };
    for (let i = 0; i < 3; i++) expect((await b.take('k', ['reads'], limits)).ok).toBe(true);
    clock.advance(5_000);
    expect(await c.take('k', ['reads'], limits)).toEqual({
      ok: false,
      retryAfterSeconds: 55,
      counter: 'reads',
    });
    const afterFirst = askedSoFar();
    clock.advance(10_000);
    // The same refusal as the database's (b's), from what c saw.
    const fromDatabase = await b.take('k', ['reads'], limits);
    expect(await c.take('k', ['reads'], limits)).toEqual(fromDatabase);
    expect(fromDatabase).toEqual({ ok: false, retryAfterSeconds: 45, counter: 'reads' });
    expect(await c.take('k', ['writes', 'reads'], limits)).toMatchObject({ ok: false, counter: 'reads' });
    expect(askedSoFar()).toBe(afterFirst);
    // Another counter, or a raised limit, is the database's to decide.
    expect(await c.take('k', ['writes'], limits)).toMatchObject({ ok: true });
    expect(await c.take('k', ['reads'], { ...limits, reads: 4 })).toMatchObject({ ok: true, remaining: 0 });
    expect(askedSoFar()).toBe(afterFirst + 2);
    // Once the oldest requests have left the window, the database decides again: the raised limit's
    // read is the only one left in it.
    clock.advance(45_000);
    expect(await c.take('k', ['reads'], limits)).toMatchObject({ ok: true, remaining: 1 });
    expect(askedSoFar()).toBeGreaterThan(afterFirst + 2);
  });

  it('keeps each count equal to its requests after its instant, with sweeps running beside takes', async () => {
    const { a, b, clock, pool } = await twoProcesses();
    await a.take('once', ['writes', 'reports'], DEFAULT_LIMITS);
    for (let round = 0; round < 12; round++) {
      clock.advance(25_000);
      await Promise.all([
        ...Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).take(`k${i % 3}`, ['reads'], DEFAULT_LIMITS)),
        a.sweep(),
        b.sweep(),
      ]);
    }
    const { rows } = await pool.query<{ key_id: string; requests: number; logged: number }>(
      `SELECT t.key_id, t.requests, (SELECT count(*)::int FROM team_rate_limit_log l
         WHERE l.key_id = t.key_id AND l.counter = t.counter AND l.made_at > t.counted_after) AS logged
       FROM team_rate_limit_counts t ORDER BY t.key_id, t.counter`,
    );
    expect(rows.map((r) => r.key_id)).toEqual(['k0', 'k1', 'k2', 'once', 'once']);
    for (const row of rows) expect(row.requests).toBe(row.logged);
    // Nothing older than two windows is left, and the idle key's requests came off its counts.
    expect(await rowCount(pool, 'once')).toBe(0);
    expect(rows.filter((r) => r.key_id === 'once').map((r) => r.requests)).toEqual([0, 0]);
  });

  it('sweeps the requests no window counts any more, once a window, and forgets a key', async () => {
    const { a, b, clock, pool } = await twoProcesses();
    await a.take('idle', ['reads'], DEFAULT_LIMITS); // a's first take sweeps (nothing yet)
    await b.take('idle', ['writes', 'reports'], DEFAULT_LIMITS);
    clock.advance(60_000);
    await a.take('busy', ['reads'], DEFAULT_LIMITS); // one window on: swept, but nothing is 2 windows old
    await a.sweeping;
    expect(await rowCount(pool)).toBe(4);
    clock.advance(60_001);
    await a.take('busy', ['reads'], DEFAULT_LIMITS);
    await a.sweeping;
    expect(await rowCount(pool, 'idle')).toBe(0);
    // A take leaves the requests that left its window to the sweep: the busy key's first, one window
    // old, is no longer counted but still there until it is two.
    expect(await rowCount(pool, 'busy')).toBe(2);
    expect(await b.take('busy', ['reads'], DEFAULT_LIMITS)).toMatchObject({ ok: true, remaining: 118 });
    // The idle key's requests came off its counts with the sweep.
    expect(await b.take('idle', ['writes'], { ...DEFAULT_LIMITS, writes: 1 })).toMatchObject({
      ok: true,
      remaining: 0,
    });
    clock.advance(60_001);
    expect(await a.take('busy', ['reads'], DEFAULT_LIMITS)).toMatchObject({ ok: true, remaining: 119 });
    await a.sweeping;
    // Swept without waiting for the busy key's lock: its first request (the count was past it).
    expect(await rowCount(pool, 'busy')).toBe(3);
    await b.forget('busy');
    expect(await rowCount(pool, 'busy')).toBe(0);
    expect(await a.take('busy', ['reads'], DEFAULT_LIMITS)).toMatchObject({ ok: true, remaining: 119 });
  });
});
