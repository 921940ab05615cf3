// A service's runner on a team server: jobs enqueued on every process run once in all, on any of
// them; a failing job is reported and the others go on. Each pool stands for one serve process.
import { describe, expect, it } from 'vitest';
import { postgresPerFile } from '../../test-support/postgres-per-file';
import { connectPg, type PgPool } from '../store/pg/connect';
import { migratePg } from '../store/pg/migrate';
import { jobOwner } from './lease-runner';
import { PgJobLeases } from './leases-pg';
import { TeamJobQueue } from './team-queue';

const server = postgresPerFile();

/** Records outcomes a little late, as a busy database does: idle must still mean recorded. */
class SlowOutcomes extends PgJobLeases {
  override async complete(...args: Parameters<PgJobLeases['complete']>): Promise<boolean> {
    await new Promise((resolve) => setTimeout(resolve, 30));
    return super.complete(...args);
  }

  override async fail(...args: Parameters<PgJobLeases['fail']>): Promise<boolean> {
    await new Promise((resolve) => setTimeout(resolve, 30));
    return super.fail(...args);
  }
}

async function until(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('TeamJobQueue', () => {
  it('runs each job once across processes that all enqueue it, reports a failure, and is idle once outcomes are recorded', async () => {
    const url = await server.createDatabase();
    const pools: PgPool[] = [connectPg(url), connectPg(url), connectPg(url)];
    await migratePg(pools[0] as PgPool);
    const runs = new Map<string, string[]>();
    const failures: string[] = [];
    const queues = pools.map((pool, n) => {
      const queue = new TeamJobQueue({
        kind: 'diagnostic',
        leases: new SlowOutcomes(pool),
        owner: jobOwner(),
        pollMs: 50,
        concurrency: 2,
        run: async (id) => {
          runs.set(id, [...(runs.get(id) ?? []), `process ${n}`]);
          await new Promise((resolve) => setTimeout(resolve, 5));
          if (id === 'diag_13') throw new Error('the account was disconnected');
        },
        onError: (id) => failures.push(id),
      });
      queue.start();
      return queue;
    });
    const ids = Array.from({ length: 40 }, (_, i) => `diag_${i}`);
    for (const queue of queues) for (const id of ids) expect(queue.enqueue(id)).toBe(true);
    // The same process never queues one job twice while it waits.
    expect(queues[0]?.enqueue('diag_0')).toBe(false);
    await until(() => runs.size === ids.length);
    await Promise.all(queues.map((queue) => queue.whenIdle()));
    expect([...runs.values()].every((who) => who.length === 1)).toBe(true);
    // Work was shared out, not all run by the process that happened to offer first.
    expect(new Set([...runs.values()].flat()).size).toBeGreaterThan(1);
    expect(failures).toEqual(['diag_13']);
    const { rows } = await (pools[0] as PgPool).query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM job_leases GROUP BY status ORDER BY status`,
    );
    expect(rows).toEqual([
      { status: 'done', n: 39 },
      { status: 'failed', n: 1 },
    ]);
    await Promise.all(queues.map((queue) => queue.stop()));
    expect(queues[1]?.enqueue('diag_99')).toBe(false);
    await Promise.all(pools.map((pool) => pool.end()));
  }, 60_000);
});
