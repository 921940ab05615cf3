// Job claims across the team server's processes, on a real PostgreSQL: each pool here stands for one
// serve process. Leases are short (500 ms) where a lease must run out; every wait polls a condition.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../../test-support/postgres';
import { connectPg, type PgPool } from '../store/pg/connect';
import { migratePg } from '../store/pg/migrate';
import { HeldJobQueue } from './held-queue';
import { HAND_OVER } from './jobs';
import { LeaseRunner, type LeaseRunnerOptions } from './lease-runner';
import type { ClaimedJob, JobRef } from './leases';
import { FINISHED_KEPT_DAYS, PgJobLeases } from './leases-pg';

let server: TestPostgres;
const pools: PgPool[] = [];
const runners: LeaseRunner[] = [];

beforeAll(async () => {
  server = await startTestPostgres();
}, 120_000);
afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.stop()));
  // A pool a test already ended (a process that died) cannot be ended twice.
  await Promise.all(pools.splice(0).map((pool) => (pool.ended ? undefined : pool.end())));
});
afterAll(async () => {
  await server?.stop();
});

/** `count` processes on one fresh, migrated database. */
async function processes(count: number): Promise<{ pools: PgPool[]; leases: PgJobLeases[] }> {
  const url = await server.createDatabase();
  const opened = Array.from({ length: count }, () => connectPg(url));
  pools.push(...opened);
  await migratePg(opened[0] as PgPool);
  return { pools: opened, leases: opened.map((pool) => new PgJobLeases(pool)) };
}

function runner(options: LeaseRunnerOptions): LeaseRunner {
  const started = new LeaseRunner({ pollMs: 50, ...options });
  runners.push(started);
  started.start();
  return started;
}

/** Polls `condition` until it holds; fails after `timeoutMs` (generous: the machine may be loaded). */
async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function statuses(pool: PgPool): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ status: string; n: number }>(
    'SELECT status, count(*)::int AS n FROM job_leases GROUP BY status',
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

const sync = (id: string): JobRef => ({ kind: 'sync', id });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PgJobLeases', () => {
  it('keeps one row per job offered by several processes; claims, renews and ends it for its owner only', async () => {
    const { leases } = await processes(2);
    const [one, other] = leases as [PgJobLeases, PgJobLeases];
    expect(await one.offer({ kind: 'diagnostic', id: 'diag_1' })).toBe(true);
    expect(await other.offer({ kind: 'diagnostic', id: 'diag_1' })).toBe(false);

    expect(await other.claimNext('b', ['report', 'sync'], 5_000)).toBeNull();
    const job = await other.claimNext('b', ['diagnostic'], 5_000);
    expect(job).toEqual({ kind: 'diagnostic', id: 'diag_1', exclusiveKey: null, attempt: 1 });
    expect(await one.claimNext('a', ['diagnostic'], 5_000)).toBeNull();

    const ref = { kind: 'diagnostic', id: 'diag_1' } as const;
    expect(await one.heartbeat('a', ref, 5_000)).toBe(false);
    expect(await one.heartbeat('b', ref, 5_000)).toBe(true);
    expect(await one.complete('a', ref)).toBe(false);
    expect(await other.fail('b', ref, 'the ad account was disconnected')).toBe(true);
    expect(await other.complete('b', ref)).toBe(false);
    // A finished job is not offered again by a process resuming late.
    expect(await one.offer(ref)).toBe(false);
    expect(await one.claimNext('a', ['diagnostic'], 5_000)).toBeNull();
  });

  it('hands a job whose owner stopped renewing to another process once the lease runs out', async () => {
    const { leases } = await processes(2);
    const [dead, alive] = leases as [PgJobLeases, PgJobLeases];
    await dead.offer(sync('sync_1'), { exclusiveKey: 'acc_1' });
    await dead.offer(sync('sync_2'), { exclusiveKey: 'acc_1' });
    expect((await dead.claimNext('dead', ['sync'], 500))?.id).toBe('sync_1');
    // sync_2 shares the ad account: it waits even for a dead process's sync, which is taken over first.
    expect(await alive.claimNext('alive', ['sync'], 500)).toBeNull();

    let taken: ClaimedJob | null = null;
    await until(async () => (taken = await alive.claimNext('alive', ['sync'], 10_000)) !== null, 10_000);
    expect(taken).toEqual({ kind: 'sync', id: 'sync_1', exclusiveKey: 'acc_1', attempt: 2 });
    expect(await dead.heartbeat('dead', sync('sync_1'), 500)).toBe(false);
    expect(await dead.complete('dead', sync('sync_1'))).toBe(false);
    expect(await alive.claimNext('alive', ['sync'], 10_000)).toBeNull();

    expect(await alive.complete('alive', sync('sync_1'))).toBe(true);
    expect((await alive.claimNext('alive', ['sync'], 10_000))?.id).toBe('sync_2');
  });

  it('lets exactly one of many simultaneous claimers take an ad account whose syncs all wait', async () => {
    const { pools: opened, leases } = await processes(4);
    for (let i = 0; i < 10; i++) await leases[0]?.offer(sync(`sync_${i}`), { exclusiveKey: 'acc_1' });
    // Connections opened beforehand, so the claims below reach the server together.
    await Promise.all(opened.flatMap((pool) => [0, 1, 2, 3].map(() => pool.query('SELECT pg_sleep(0.05)'))));
    for (let round = 0; round < 10; round++) {
      await (opened[0] as PgPool).query(
        `UPDATE job_leases SET status = 'waiting', owner = NULL, lease_until = NULL`,
      );
      const claims = await Promise.all(
        Array.from({ length: 16 }, (_, i) => leases[i % 4]?.claimNext(`claimer_${i}`, ['sync'], 10_000)),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
    }
  });

  it('gives a released job back to any process', async () => {
    const { leases } = await processes(2);
    const [one, other] = leases as [PgJobLeases, PgJobLeases];
    await one.offer({ kind: 'report', id: 'rep_1' });
    await one.claimNext('a', ['report'], 5_000);
    expect(await other.release('b', { kind: 'report', id: 'rep_1' })).toBe(false);
    expect(await one.release('a', { kind: 'report', id: 'rep_1' })).toBe(true);
    expect((await other.claimNext('b', ['report'], 5_000))?.id).toBe('rep_1');
  });
});

describe('PgJobLeases forgetting', () => {
  it('forgets records of jobs finished over a week ago, as it offers, and keeps every other', async () => {
    const { pools, leases } = await processes(1);
    const [pool, one] = [pools[0] as PgPool, leases[0] as PgJobLeases];
    for (const id of ['old_done', 'old_failed', 'recent_done', 'running', 'waiting'])
      await one.offer(sync(id));
    // Claimed in the order offered: all but 'waiting'.
    for (const id of ['old_done', 'old_failed', 'recent_done', 'running'])
      expect((await one.claimNext('a', ['sync'], 60_000))?.id).toBe(id);
    await one.complete('a', sync('old_done'));
    await one.fail('a', sync('old_failed'), 'boom');
    await one.complete('a', sync('recent_done'));
    await pool.query(
      `UPDATE job_leases SET finished_at = now() - $2 * interval '1 day' WHERE job_id = ANY($1::text[])`,
      [['old_done', 'old_failed'], FINISHED_KEPT_DAYS + 1],
    );
    await pool.query(
      `UPDATE job_leases SET finished_at = now() - $1 * interval '1 day' WHERE job_id = 'recent_done'`,
      [FINISHED_KEPT_DAYS - 1],
    );
    // A new process's first offer forgets them (then once an hour).
    const next = new PgJobLeases(pool);
    expect(await next.offer(sync('new'))).toBe(true);
    const { rows } = await pool.query<{ job_id: string }>('SELECT job_id FROM job_leases ORDER BY job_id');
    expect(rows.map((r) => r.job_id)).toEqual(['new', 'recent_done', 'running', 'waiting']);
    expect(await next.forgetFinished()).toBe(0);
  });
});

describe('LeaseRunner', () => {
  it('runs each of 200 jobs exactly once across three processes claiming at once', async () => {
    const { pools: opened, leases } = await processes(3);
    const ids = Array.from({ length: 200 }, (_, i) => `diag_${String(i).padStart(3, '0')}`);
    // Two processes resuming the same persisted jobs offer each one twice: one row each.
    const offered = await Promise.all(
      ids.flatMap((id) => [leases[0], leases[1]].map((l) => l?.offer({ kind: 'diagnostic', id }))),
    );
    expect(offered.filter(Boolean)).toHaveLength(200);

    const runs = new Map<string, number>();
    const errors: unknown[] = [];
    for (const [i, lease] of leases.entries()) {
      runner({
        leases: lease,
        owner: `process_${i}`,
        kinds: ['diagnostic'],
        concurrency: 4,
        leaseMs: 10_000,
        run: async (job) => {
          runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
          await pause(2);
        },
        onError: (error) => errors.push(error),
      });
    }
    await until(async () => (await statuses(opened[0] as PgPool)).done === 200, 60_000);

    expect(errors).toEqual([]);
    expect([...runs.keys()].sort()).toEqual(ids);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    const { rows } = await (opened[0] as PgPool).query<{ n: number }>(
      'SELECT count(*)::int AS n FROM job_leases WHERE attempts <> 1',
    );
    expect(rows[0]?.n).toBe(0);
  }, 90_000);

  it('takes over the job of a process that died, once its lease runs out', async () => {
    const { pools: opened, leases } = await processes(2);
    const [doomed, survivor] = leases as [PgJobLeases, PgJobLeases];
    await doomed.offer(sync('sync_1'), { exclusiveKey: 'acc_1' });

    let finishDoomed: () => void = () => {};
    const doomedRun = new Promise<void>((resolve) => (finishDoomed = resolve));
    const started: string[] = [];
    const dying = runner({
      leases: doomed,
      owner: 'doomed',
      kinds: ['sync'],
      leaseMs: 500,
      run: async (job) => {
        started.push(`doomed ${job.id} #${job.attempt}`);
        await doomedRun;
      },
      onError: () => {},
    });
    await until(() => started.length === 1);
    // The process loses its database (it died): no more heartbeats, its job never completes.
    await (opened[0] as PgPool).end();

    runner({
      leases: survivor,
      owner: 'survivor',
      kinds: ['sync'],
      leaseMs: 500,
      run: async (job) => {
        started.push(`survivor ${job.id} #${job.attempt}`);
      },
    });
    await until(async () => (await statuses(opened[1] as PgPool)).done === 1, 20_000);
    expect(started).toEqual(['doomed sync_1 #1', 'survivor sync_1 #2']);

    finishDoomed();
    await dying.stop();
    expect(await statuses(opened[1] as PgPool)).toEqual({ done: 1 });
  }, 60_000);

  it('keeps a job that outlives its lease by renewing it: no other process takes it over', async () => {
    const { pools: opened, leases } = await processes(2);
    await leases[0]?.offer(sync('sync_long'), { exclusiveKey: 'acc_1' });
    const leaseUntil = async (): Promise<number> => {
      const { rows } = await (opened[0] as PgPool).query<{ at: Date | null }>(
        `SELECT lease_until AS at FROM job_leases WHERE job_id = 'sync_long'`,
      );
      return rows[0]?.at?.getTime() ?? 0;
    };
    const leaseMs = 2_000;
    const ran: string[] = [];
    for (const [i, lease] of leases.entries()) {
      runner({
        leases: lease,
        owner: `process_${i}`,
        kinds: ['sync'],
        leaseMs,
        run: async (job) => {
          ran.push(`process_${i} #${job.attempt}`);
          const first = await leaseUntil();
          // Held until the heartbeats carried the lease two lengths past the one first granted.
          await until(async () => (await leaseUntil()) > first + 2 * leaseMs);
        },
      });
    }
    await until(async () => (await statuses(opened[1] as PgPool)).done === 1);
    expect(ran).toHaveLength(1);
    expect(ran[0]).toMatch(/#1$/);
  }, 60_000);

  it('never runs two syncs of one ad account at once, across processes', async () => {
    const { pools: opened, leases } = await processes(3);
    const jobs = [
      ...Array.from({ length: 8 }, (_, i) => ({ id: `sync_a${i}`, key: 'acc_a' })),
      ...Array.from({ length: 8 }, (_, i) => ({ id: `sync_b${i}`, key: 'acc_b' })),
    ];
    for (const job of jobs) await leases[0]?.offer(sync(job.id), { exclusiveKey: job.key });

    const running = new Map<string, number>();
    let overlaps = 0;
    let ran = 0;
    for (const [i, lease] of leases.entries()) {
      runner({
        leases: lease,
        owner: `process_${i}`,
        kinds: ['sync'],
        concurrency: 3,
        leaseMs: 10_000,
        run: async (job) => {
          const key = job.exclusiveKey as string;
          const now = (running.get(key) ?? 0) + 1;
          running.set(key, now);
          if (now > 1) overlaps += 1;
          await pause(20);
          running.set(key, (running.get(key) ?? 1) - 1);
          ran += 1;
        },
      });
    }
    await until(async () => (await statuses(opened[0] as PgPool)).done === jobs.length, 60_000);
    expect(overlaps).toBe(0);
    expect(ran).toBe(jobs.length);
  }, 90_000);

  it('records a failing job as failed and goes on', async () => {
    const { pools: opened, leases } = await processes(1);
    const lease = leases[0] as PgJobLeases;
    await lease.offer({ kind: 'report', id: 'rep_bad' });
    await lease.offer({ kind: 'report', id: 'rep_good' });
    const errors: string[] = [];
    runner({
      leases: lease,
      owner: 'solo',
      kinds: ['report'],
      run: async (job) => {
        if (job.id === 'rep_bad') throw new Error('the PDF renderer crashed');
      },
      onError: (error, job) => errors.push(`${job?.id}: ${(error as Error).message}`),
    });
    await until(async () => {
      const { done = 0, failed = 0 } = await statuses(opened[0] as PgPool);
      return done + failed === 2;
    });
    expect(await statuses(opened[0] as PgPool)).toEqual({ done: 1, failed: 1 });
    expect(errors).toEqual(['rep_bad: the PDF renderer crashed']);
    const { rows } = await (opened[0] as PgPool).query<{ error: string }>(
      `SELECT error FROM job_leases WHERE job_id = 'rep_bad'`,
    );
    expect(rows[0]?.error).toBe('the PDF renderer crashed');
  });

  it('stops claiming on stop() and lets the running job finish', async () => {
    const { pools: opened, leases } = await processes(1);
    const lease = leases[0] as PgJobLeases;
    await lease.offer({ kind: 'report', id: 'rep_1' });
    await lease.offer({ kind: 'report', id: 'rep_2' });
    let finish: () => void = () => {};
    const held = new Promise<void>((resolve) => (finish = resolve));
    const ran: string[] = [];
    const stopping = runner({
      leases: lease,
      owner: 'solo',
      kinds: ['report'],
      run: async (job) => {
        ran.push(job.id);
        await held;
      },
    });
    await until(() => ran.length === 1);
    const stopped = stopping.stop();
    finish();
    await stopped;
    expect(ran).toEqual(['rep_1']);
    expect(await statuses(opened[0] as PgPool)).toEqual({ done: 1, waiting: 1 });
  });

  it('gives a job its run hands over back at once: another process claims it as attempt 2 and ends it', async () => {
    const { pools: opened, leases } = await processes(2);
    const [a, b] = leases as [PgJobLeases, PgJobLeases];
    await a.offer({ kind: 'sync', id: 'run_1' }, { exclusiveKey: 'act_1' });
    const claims: string[] = [];
    let stopNow: () => void = () => {};
    const stopping = new Promise<void>((resolve) => (stopNow = resolve));
    // A long lease: only the hand-over, never the lease running out, can let process b have it.
    const leaving = runner({
      leases: a,
      owner: 'a',
      kinds: ['sync'],
      leaseMs: 60_000,
      run: async (job) => {
        claims.push(`a:${job.attempt}`);
        // Process a is told to stop mid-job: it stops the job there and hands it over.
        await stopping;
        return HAND_OVER;
      },
    });
    await until(() => claims.length === 1);
    const stopped = leaving.stop();
    stopNow();
    await stopped;
    expect(await statuses(opened[0] as PgPool)).toEqual({ waiting: 1 });
    runner({
      leases: b,
      owner: 'b',
      kinds: ['sync'],
      run: async (job) => {
        claims.push(`b:${job.attempt}`);
      },
    });
    await until(async () => (await statuses(opened[0] as PgPool)).done === 1, 10_000);
    expect(claims).toEqual(['a:1', 'b:2']);
  });

  it("runs a command-line process's own job under its lease: no server claims it while renewed, one takes it over when the command dies", async () => {
    const { pools: opened, leases } = await processes(3);
    const [command, dyingCommand, server] = leases as [PgJobLeases, PgJobLeases, PgJobLeases];
    const started: string[] = [];
    runner({
      leases: server,
      owner: 'server',
      kinds: ['sync'],
      leaseMs: 500,
      run: async (job) => {
        started.push(`server ${job.id} #${job.attempt}`);
      },
    });
    // A command that lives: its job outlasts three lease lengths, renewed, and the server never takes it.
    let finish: () => void = () => {};
    const gate = new Promise<void>((resolve) => (finish = resolve));
    const queue = new HeldJobQueue({
      kind: 'sync',
      leases: command,
      owner: 'command',
      leaseMs: 500,
      run: async (id) => {
        started.push(`command ${id}`);
        await gate;
      },
    });
    expect(queue.enqueue('sync_cli', { exclusiveKey: 'acc_1' })).toBe(true);
    await until(() => started.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    finish();
    await queue.whenIdle();
    expect(started).toEqual(['command sync_cli']);
    expect(await statuses(opened[0] as PgPool)).toEqual({ done: 1 });

    // A command that dies mid-job (its connection gone): the server takes the job over once the lease
    // has run out, as the next attempt.
    const dying = new HeldJobQueue({
      kind: 'sync',
      leases: dyingCommand,
      owner: 'dying',
      leaseMs: 500,
      run: async (id) => {
        started.push(`dying ${id}`);
        await new Promise(() => {});
      },
      onError: () => {},
    });
    dying.enqueue('sync_cli_2', { exclusiveKey: 'acc_2' });
    await until(() => started.length === 2);
    await (opened[1] as PgPool).end();
    await until(async () => (await statuses(opened[2] as PgPool)).done === 2, 20_000);
    expect(started).toEqual(['command sync_cli', 'dying sync_cli_2', 'server sync_cli_2 #2']);
  }, 60_000);
});
